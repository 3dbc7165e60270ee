import { describe, expect, it } from 'vitest';
import { listCounts } from '../../server/services/list-counts.js';

describe('list counts', () => {
  it('is exact up to the limit and a shared, kept full count above it, counted again once old', async () => {
    let clock = 0;
    let fullCounts = 0;
    let total = 250;
    const countAll = () => {
      fullCounts += 1;
      return Promise.resolve(total);
    };
    const counts = listCounts({ exactUpTo: 100, cacheMs: 1_000 }, () => clock);
    expect(await counts.resolve('a', 40, countAll)).toEqual({ count: 40, estimated: false });
    expect(counts.kept('a', countAll)).toBeNull();
    // Concurrent pages of one large list share a single full count.
    const both = await Promise.all([counts.resolve('a', 101, countAll), counts.resolve('a', 101, countAll)]);
    expect(both).toEqual([
      { count: 250, estimated: true },
      { count: 250, estimated: true },
    ]);
    expect(fullCounts).toBe(1);
    expect(counts.kept('a', countAll)).toEqual({ count: 250, estimated: true });
    expect(fullCounts).toBe(1);
    // Once old, the kept total still answers while it is counted again in the background.
    total = 300;
    clock = 1_000;
    expect(counts.kept('a', countAll)).toEqual({ count: 250, estimated: true });
    await Promise.resolve();
    expect(counts.kept('a', countAll)).toEqual({ count: 300, estimated: true });
    expect(fullCounts).toBe(2);
    // A list that shrank below the limit is counted exactly again, and then fully (it was small).
    expect(await counts.resolve('a', 7, countAll)).toEqual({ count: 7, estimated: false });
    expect(counts.kept('a', countAll)).toBeNull();
    expect(counts.wasSmall('a')).toBe(true);
    // A full count that finds the list large again is kept as it is, with no second count.
    expect(await counts.resolve('a', 5_000, countAll, true)).toEqual({ count: 5_000, estimated: true });
    expect(fullCounts).toBe(2);
    expect(counts.wasSmall('a')).toBe(false);
  });
});
