import { describe, expect, it } from 'vitest';
import { backgroundCounts, within } from '../../server/services/background-counts.js';

/** A count held until the test settles it. */
function heldCount<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  let started = 0;
  return {
    count: () => {
      started += 1;
      return promise;
    },
    resolve,
    reject,
    started: () => started,
  };
}

describe('background counts', () => {
  it('answers null when the count outlasts the wait, and joins a count under way instead of starting another', async () => {
    const counts = backgroundCounts(() => undefined);
    const held = heldCount<number>();
    expect(await counts.wait('a', held.count, 5)).toBeNull();
    const joined = counts.wait('a', held.count, Number.POSITIVE_INFINITY);
    held.resolve(42);
    expect(await joined).toBe(42);
    expect(held.started()).toBe(1);
    // Once done it is no longer under way: the next ask counts again.
    await counts.wait('a', held.count, Number.POSITIVE_INFINITY);
    expect(held.started()).toBe(2);
  });

  it('never joins another key’s count', async () => {
    const counts = backgroundCounts(() => undefined);
    const first = heldCount<string>();
    const second = heldCount<string>();
    expect(await counts.wait('first', first.count, 1)).toBeNull();
    const other = counts.wait('second', second.count, Number.POSITIVE_INFINITY);
    second.resolve('second');
    expect(await other).toBe('second');
    first.resolve('first');
    expect(await counts.wait('first', first.count, Number.POSITIVE_INFINITY)).toBe('first');
    expect([first.started(), second.started()]).toEqual([1, 1]);
  });

  it('reports a failure nobody waited for, throws it to the next ask once, then counts again', async () => {
    const failures: unknown[] = [];
    const counts = backgroundCounts((error) => failures.push(error));
    const held = heldCount<number>();
    expect(await counts.wait('a', held.count, 1)).toBeNull();
    held.reject(new Error('lost'));
    await counts.settled();
    expect(failures).toEqual([new Error('lost')]);
    await expect(counts.wait('a', held.count, 1)).rejects.toThrow('lost');
    expect(held.started()).toBe(1);
    // Thrown once: the ask after it starts a new count (the same held promise, so it fails again).
    await expect(counts.wait('a', held.count, Number.POSITIVE_INFINITY)).rejects.toThrow('lost');
    expect(held.started()).toBe(2);
  });

  it('throws a failure to the caller waiting for it, and not again to the next', async () => {
    const failures: unknown[] = [];
    const counts = backgroundCounts((error) => failures.push(error));
    const failing = () => Promise.reject(new Error('at once'));
    await expect(counts.wait('a', failing, Number.POSITIVE_INFINITY)).rejects.toThrow('at once');
    expect(failures).toHaveLength(1);
    const held = heldCount<number>();
    const next = counts.wait('a', held.count, Number.POSITIVE_INFINITY);
    held.resolve(7);
    expect(await next).toBe(7);
  });

  it('settles only once no count is under way, counts started meanwhile included', async () => {
    const counts = backgroundCounts(() => undefined);
    const first = heldCount<number>();
    const second = heldCount<number>();
    await counts.wait('first', first.count, 1);
    let settled = false;
    const done = counts.settled().then(() => {
      settled = true;
    });
    // A count started while settling (a late request) is waited for too.
    await counts.wait('second', second.count, 1);
    first.resolve(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
    second.resolve(2);
    await done;
    expect(settled).toBe(true);
  });

  it('within: the value in time, null when late, the failure thrown', async () => {
    expect(await within(Promise.resolve(3), 50)).toBe(3);
    expect(await within(new Promise((resolve) => setTimeout(resolve, 200)), 5)).toBeNull();
    await expect(within(Promise.reject(new Error('no')), 50)).rejects.toThrow('no');
  });
});
