import { auditTime, Subject, type Observable } from 'rxjs';
import { now } from './clock.js';
import { redact } from './redact.js';
import { readJson, STORAGE_KEYS, writeJson } from './storage.js';

/** How many entries the log keeps: the newest ones. */
export const EVENT_LOG_CAPACITY = 2000;

/**
 * One event delivered to one machine actor, personal data already removed: its number in the log, when
 * (ms since the epoch), which actor (unique across the page's actor systems), which machine, who sent it
 * (another actor's id, the actor itself for its own delayed events, absent for the app) and the event.
 */
export interface EventLogEntry {
  seq: number;
  at: number;
  actor: string;
  machine: string;
  source?: string;
  event: { type: string } & Record<string, unknown>;
}

/** What is appended: an entry without its number and time, the event not yet redacted. */
export interface EventLogAppend {
  actor: string;
  machine: string;
  source?: string;
  event: { type: string };
  /** When it happened; the clock's now by default. */
  at?: number;
}

/** Where a log keeps its entries between page loads. */
export interface EventLogStore {
  load(): EventLogEntry[] | null;
  save(entries: readonly EventLogEntry[]): void;
}

/** The log: a stream of appended entries and the newest ones kept. */
export interface EventLog {
  /** Every entry appended from now on (redacted). */
  readonly entries$: Observable<EventLogEntry>;
  /** Redacts the event and appends it; answers the stored entry. */
  append(entry: EventLogAppend): EventLogEntry;
  /** The entries kept, oldest first. */
  snapshot(): readonly EventLogEntry[];
  /** The entries kept as JSON Lines (one entry per line, newline-terminated). */
  toJsonLines(): string;
  /** Forgets every entry (numbering carries on). */
  clear(): void;
  /** Writes the kept entries to the store now (the log also does it shortly after each append). */
  flush(): void;
}

/** Options of a log: its capacity, store and clock. */
export interface EventLogOptions {
  capacity?: number;
  store?: EventLogStore | null;
  clock?: () => number;
  /** How long appends are gathered before one write to the store, in ms. */
  saveEveryMs?: number;
}

/** The browser's local storage as a log store. */
export const localEventLogStore: EventLogStore = {
  load: () => readJson<EventLogEntry[]>('local', STORAGE_KEYS.eventLog),
  save: (entries) => {
    try {
      writeJson('local', STORAGE_KEYS.eventLog, entries);
    } catch {
      // A full storage quota must not break the app: the log then lives only in memory.
    }
  },
};

/** True for something stored that has an entry's shape (older or foreign data is dropped). */
function isEntry(value: unknown): value is EventLogEntry {
  const entry = value as Partial<EventLogEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.seq === 'number' &&
    typeof entry.at === 'number' &&
    typeof entry.actor === 'string' &&
    typeof entry.machine === 'string' &&
    typeof entry.event?.type === 'string'
  );
}

/** JSON Lines of entries: one JSON object per line, each line ending with a newline. */
export function entriesToJsonLines(entries: readonly EventLogEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}

/**
 * A bounded, persisted event log: each append is redacted, numbered and timed, published on `entries$`,
 * kept among the newest `capacity` entries and saved to the store (gathered, at most every `saveEveryMs`).
 * Entries found in the store at creation are kept and numbering continues after them.
 */
export function createEventLog(options: EventLogOptions = {}): EventLog {
  const capacity = options.capacity ?? EVENT_LOG_CAPACITY;
  const store = options.store ?? null;
  const clock = options.clock ?? now;
  const subject = new Subject<EventLogEntry>();
  let entries: EventLogEntry[] = (store?.load() ?? []).filter(isEntry).slice(-capacity);
  let seq = entries.reduce((max, entry) => Math.max(max, entry.seq), 0);
  const save = () => store?.save(entries.slice(-capacity));
  // One write per burst of events: serialising 2000 entries on every event would slow the page.
  if (store) subject.pipe(auditTime(options.saveEveryMs ?? 500)).subscribe(save);
  return {
    entries$: subject.asObservable(),
    append(append) {
      seq += 1;
      const entry: EventLogEntry = {
        seq,
        at: append.at ?? clock(),
        actor: append.actor,
        machine: append.machine,
        ...(append.source === undefined ? {} : { source: append.source }),
        event: redact(append.event) as EventLogEntry['event'],
      };
      entries.push(entry);
      // Dropping in batches keeps appends cheap: the array is trimmed once it is 10% over capacity.
      if (entries.length > capacity + Math.ceil(capacity / 10)) entries = entries.slice(-capacity);
      subject.next(entry);
      return entry;
    },
    snapshot: () => entries.slice(-capacity),
    toJsonLines: () => entriesToJsonLines(entries.slice(-capacity)),
    clear() {
      entries = [];
      save();
    },
    flush: save,
  };
}

/** The page's one event log, kept in local storage. */
export const eventLog: EventLog = createEventLog({ store: localEventLogStore });

// Writes the newest entries as the page goes away, so the last events before a reload are kept.
if (typeof globalThis.addEventListener === 'function') {
  globalThis.addEventListener('pagehide', () => eventLog.flush());
}

/** Saves text as a file through the browser's download (an object URL clicked, then revoked). */
export function downloadText(filename: string, text: string, type = 'application/x-ndjson'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  // The click has handed the blob to the browser's download by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Downloads the page's event log as `regulars-event-log-<time>.jsonl`. */
export function downloadEventLog(log: EventLog = eventLog): void {
  log.flush();
  downloadText(
    `regulars-event-log-${new Date(now()).toISOString().replaceAll(':', '-')}.jsonl`,
    log.toJsonLines(),
  );
}
