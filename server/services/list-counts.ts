/**
 * The totals of the guest and subscriber lists without counting a million rows on every page. A page counts
 * its matches only up to `exactUpTo + 1` (a bounded scan); at or below `exactUpTo` that is the exact total.
 * Above it the total is the last full count of the same list (company, list and filters), kept in this
 * process for `cacheMs` and counted again in the background once older, and the answer says it is an
 * estimate (`count_estimated`). Concurrent pages of a list without a kept total share one full count.
 */

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
  /**
   * The total of a list whose bounded count gave `bounded`: exact when at most `exactUpTo`, otherwise the
   * full count from `countAll` (shared by concurrent callers) and kept.
   */
  resolve(key: string, bounded: number, countAll: () => Promise<number>): Promise<ListCount>;
}

/** A list-count keeper with these settings; `now` is the clock (tests may pass their own). */
export function listCounts(
  settings: ListCountSettings = DEFAULT_LIST_COUNT_SETTINGS,
  now: () => number = Date.now,
): ListCounts {
  const kept = new Map<string, KeptCount>();
  const counting = new Map<string, Promise<number>>();

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
    async resolve(key, bounded, countAll) {
      if (bounded <= settings.exactUpTo) {
        kept.delete(key);
        return { count: bounded, estimated: false };
      }
      return keptCount(key, countAll) ?? estimate(await countOnce(key, countAll));
    },
  };
}
