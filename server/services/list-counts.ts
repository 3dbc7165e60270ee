/**
 * The totals of the guest and subscriber lists without counting a million rows on every page. A page counts
 * its matches only up to `exactUpTo + 1` (a bounded scan); at or below `exactUpTo` that is the exact total.
 * Above it the total is the last full count of the same list (company, list and filters), kept in this
 * process for `cacheMs` and counted again in the background once older, and the answer says it is an
 * estimate (`count_estimated`). Concurrent pages of a list without a kept total share one full count.
 */

import type { Sql } from '../db/database.js';

/** When a total is exact, and how long a large one is kept. */
export interface ListCountSettings {
  /** Totals up to this are counted exactly on every page (LIST_EXACT_COUNT_UP_TO). */
  exactUpTo: number;
  /** How long a large total is used before it is counted again (LIST_COUNT_CACHE_SECONDS × 1000). */
  cacheMs: number;
}

/** Exact up to 10,000 matches; larger totals are at most a minute old. */
export const DEFAULT_LIST_COUNT_SETTINGS: ListCountSettings = { exactUpTo: 10_000, cacheMs: 60_000 };

/** A list's total as a page shows it. */
export interface ListCount {
  count: number;
  /** True when the total is a kept (possibly slightly old) full count rather than this moment's exact one. */
  estimated: boolean;
}

interface KeptCount {
  count: number;
  countedAt: number;
  refreshing: boolean;
}

// Totals kept at most: one per company, list and filter combination seen lately.
const MAX_KEPT = 1_000;

/** The list totals of one process (see the file's comment). */
export interface ListCounts {
  readonly exactUpTo: number;
  /** A large total already kept for `key` (counted again in the background by `countAll` when old), or null. */
  kept(key: string, countAll: () => Promise<number>): ListCount | null;
  /** Whether the list was small when last counted: a plain count is then cheaper than a bounded one. */
  wasSmall(key: string): boolean;
  /**
   * The total of a list whose count gave `counted` (bounded, or full when `full`): exact when at most
   * `exactUpTo`, otherwise a full count (from `countAll` unless `counted` is one, shared by concurrent
   * callers), kept.
   */
  resolve(key: string, counted: number, countAll: () => Promise<number>, full?: boolean): Promise<ListCount>;
}

/** A list-count keeper with these settings; `now` is the clock (tests may pass their own). */
export function listCounts(
  settings: ListCountSettings = DEFAULT_LIST_COUNT_SETTINGS,
  now: () => number = Date.now,
): ListCounts {
  const kept = new Map<string, KeptCount>();
  const counting = new Map<string, Promise<number>>();
  const small = new Set<string>();

  const keep = (key: string, count: number) => {
    kept.delete(key);
    // A list that shrank to a small total is counted exactly again from the next page on.
    if (count <= settings.exactUpTo) return;
    kept.set(key, { count, countedAt: now(), refreshing: false });
    if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  };

  const countOnce = (key: string, countAll: () => Promise<number>): Promise<number> => {
    const running = counting.get(key);
    if (running) return running;
    const started = countAll()
      .then((count) => {
        keep(key, count);
        return count;
      })
      .finally(() => counting.delete(key));
    counting.set(key, started);
    return started;
  };

  const estimate = (count: number): ListCount => ({
    count: Math.max(count, settings.exactUpTo + 1),
    estimated: true,
  });

  const keptCount = (key: string, countAll: () => Promise<number>): ListCount | null => {
    const entry = kept.get(key);
    if (!entry) return null;
    if (!entry.refreshing && now() - entry.countedAt >= settings.cacheMs) {
      entry.refreshing = true;
      // The old total answers meanwhile; a failed recount keeps it until the next try.
      countOnce(key, countAll).catch(() => {
        entry.refreshing = false;
      });
    }
    return estimate(entry.count);
  };

  return {
    exactUpTo: settings.exactUpTo,
    kept: keptCount,
    wasSmall: (key) => small.has(key),
    async resolve(key, counted, countAll, full = false) {
      if (counted <= settings.exactUpTo) {
        kept.delete(key);
        small.add(key);
        if (small.size > MAX_KEPT) small.delete(small.keys().next().value!);
        return { count: counted, estimated: false };
      }
      small.delete(key);
      if (full) {
        keep(key, counted);
        return estimate(counted);
      }
      return keptCount(key, countAll) ?? estimate(await countOnce(key, countAll));
    },
  };
}

/** How a list page is read and counted: its transaction, the page itself and two ways to count it. */
export interface CountedRead<Row> {
  /** Runs `fn` in one tenant transaction. */
  transaction: <T>(fn: (sql: Sql) => Promise<T>) => Promise<T>;
  /** The page, with one row more than it shows when there is one. */
  page: (sql: Sql) => Promise<Row[]>;
  /** Matches up to `atMost`. */
  countUpTo: (sql: Sql, atMost: number) => Promise<number>;
  /** Every match. */
  countAll: (sql: Sql) => Promise<number>;
  /** The page's window: a page by offset that shows the list's end gives its total without counting. */
  window: { limit: number; offset: number; afterId?: number | undefined; beforeId?: number | undefined };
  /** Count every match now, neither bounded nor kept (a total that must follow each change). */
  exact?: boolean | undefined;
}

/** A page and the list's total (`key`: company, list and filters), counted as the file's comment says. */
export async function readCounted<Row>(
  counts: ListCounts,
  key: string,
  read: CountedRead<Row>,
): Promise<{ rows: Row[]; total: ListCount }> {
  const countAll = () => read.transaction((sql) => read.countAll(sql));
  const kept = counts.kept(key, countAll);
  const byOffset = read.window.afterId === undefined && read.window.beforeId === undefined;
  if (read.exact) {
    return read.transaction(async (sql) => {
      const rows = await read.page(sql);
      return { rows, total: { count: await read.countAll(sql), estimated: false } };
    });
  }
  const { rows, counted, full } = await read.transaction(async (sql) => {
    const rows = await read.page(sql);
    // The last page by offset shows where the list ends, so the total needs no count.
    if (
      kept === null &&
      byOffset &&
      rows.length < read.window.limit &&
      (rows.length > 0 || read.window.offset === 0)
    )
      return { rows, counted: read.window.offset + rows.length, full: true };
    if (kept) return { rows, counted: 0, full: false };
    if (counts.wasSmall(key)) return { rows, counted: await read.countAll(sql), full: true };
    return { rows, counted: await read.countUpTo(sql, counts.exactUpTo + 1), full: false };
  });
  return { rows, total: kept ?? (await counts.resolve(key, counted, countAll, full)) };
}
