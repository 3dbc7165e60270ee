import { firstValueFrom } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import {
  createEventLog,
  entriesToJsonLines,
  type EventLogEntry,
  type EventLogStore,
} from '../../src/services/event-log.js';

/** A store in memory, standing in for local storage across "reloads". */
function memoryStore(): EventLogStore & { saved: EventLogEntry[] | null; saves: number } {
  const store = {
    saved: null as EventLogEntry[] | null,
    saves: 0,
    load: () => (store.saved ? structuredClone(store.saved) : null),
    save: (entries: readonly EventLogEntry[]) => {
      store.saved = structuredClone([...entries]);
      store.saves += 1;
    },
  };
  return store;
}

describe('event log', () => {
  it('numbers, times and redacts each entry and publishes it', async () => {
    let time = 1000;
    const log = createEventLog({ clock: () => time });
    const next = firstValueFrom(log.entries$);
    log.append({ actor: 'auth#1', machine: 'auth', event: { type: 'session.signIn' } });
    time = 2000;
    const second = log.append({
      actor: 'accountSettings#2',
      machine: 'accountSettings',
      source: 'accountSettings#2/x:1',
      event: { type: 'field.change', field: 'email', value: 'ann@example.com' } as { type: string },
    });
    expect(await next).toEqual({
      seq: 1,
      at: 1000,
      actor: 'auth#1',
      machine: 'auth',
      event: { type: 'session.signIn' },
    });
    expect(second.seq).toBe(2);
    expect(second.at).toBe(2000);
    expect(second.source).toBe('accountSettings#2/x:1');
    expect(JSON.stringify(log.snapshot())).not.toContain('ann@example.com');
  });

  it('never stores a token response, a settings form or a guest in clear', () => {
    const log = createEventLog({ clock: () => 1 });
    const append = (event: object) =>
      log.append({ actor: 'x#1', machine: 'x', event: event as { type: string } });
    append({
      type: 'xstate.done.actor.exchangeCode',
      output: { tokenData: { access_token: 'eyJ.a.b', id_token: 'eyJ.i.d', expires_in: 300 }, receivedAt: 1 },
    });
    append({ type: 'field.change', field: 'email', value: 'cara@example.org' });
    append({
      type: 'xstate.done.actor.saveSettings',
      output: {
        email: 'cara@example.org',
        first_name: 'Cara',
        last_name: 'Lopez',
        phone: '+44 20 7946 0000',
      },
    });
    append({
      type: 'xstate.done.actor.loadGuest',
      output: {
        customer_name: 'Dev Patel',
        cards: [{ last_four_digits: '1881', name_on_card: 'DEV PATEL' }],
      },
    });
    const text = log.toJsonLines();
    for (const clear of [
      'eyJ.a.b',
      'eyJ.i.d',
      'cara@example.org',
      'Cara',
      'Lopez',
      '7946',
      'Dev Patel',
      '1881',
      'DEV PATEL',
    ]) {
      expect(text).not.toContain(clear);
    }
  });

  it('keeps only the newest entries', () => {
    const log = createEventLog({ capacity: 10, clock: () => 0 });
    for (let i = 0; i < 57; i++) log.append({ actor: 'a#1', machine: 'a', event: { type: `e${i}` } });
    const kept = log.snapshot();
    expect(kept).toHaveLength(10);
    expect(kept[0]!.seq).toBe(48);
    expect(kept.at(-1)!.seq).toBe(57);
  });

  it('exports JSON Lines, one entry per line', () => {
    const log = createEventLog({ clock: () => 5 });
    log.append({ actor: 'a#1', machine: 'a', event: { type: 'one' } });
    log.append({ actor: 'a#1', machine: 'a', event: { type: 'two' } });
    const lines = log.toJsonLines().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines.slice(0, 2).map((line) => JSON.parse(line).event.type)).toEqual(['one', 'two']);
    expect(entriesToJsonLines([])).toBe('');
  });

  it('survives a reload: saved after a burst, restored and numbered on', () => {
    vi.useFakeTimers();
    try {
      const store = memoryStore();
      const log = createEventLog({ store, capacity: 5, clock: () => 1, saveEveryMs: 100 });
      for (let i = 0; i < 8; i++) log.append({ actor: 'a#1', machine: 'a', event: { type: `e${i}` } });
      expect(store.saves).toBe(0);
      vi.advanceTimersByTime(100);
      expect(store.saves).toBe(1);
      expect(store.saved!.map((entry) => entry.seq)).toEqual([4, 5, 6, 7, 8]);
      const reloaded = createEventLog({ store, capacity: 5, clock: () => 2 });
      expect(reloaded.snapshot().map((entry) => entry.seq)).toEqual([4, 5, 6, 7, 8]);
      expect(reloaded.append({ actor: 'a#3', machine: 'a', event: { type: 'again' } }).seq).toBe(9);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores stored data that is not entries', () => {
    const store = memoryStore();
    store.saved = [{ nope: true } as unknown as EventLogEntry];
    expect(createEventLog({ store }).snapshot()).toEqual([]);
  });
});
