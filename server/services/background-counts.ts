/**
 * Counts a call starts and may stop waiting for (docs/dashboards.md, "Counted in the background"): a count goes on
 * after the call has answered without it, and the call's next ask reads what it kept.
 */

/** The counts under way in this process, one per key. */
export interface BackgroundCounts {
  /**
   * Runs `count` under `key`, or joins the count already under way under it (a second call missing the same
   * audiences does not count them again), and waits for it `ms` at most: its value, or null while it goes on. A
   * failure is thrown to a caller waiting when it happens, and otherwise to the next caller of the same key (once:
   * its caller after that starts a new count), so a screen asking again learns of it rather than asking forever.
   * Every failure also goes to the runner's `onFailure`.
   */
  wait<T>(key: string, count: () => Promise<T>, ms: number): Promise<T | null>;
  /** Waits until no count is under way (the server's close, so none outlives its database). */
  settled(): Promise<void>;
}

/** How long a failure nobody waited for is kept for the next caller of its key. */
const FAILURE_KEPT_MS = 10 * 60_000;

/** A set of background counts whose failures, waited for or not, are reported to `onFailure`. */
export function backgroundCounts(onFailure: (error: unknown) => void): BackgroundCounts {
  const running = new Map<string, Promise<unknown>>();
  const failed = new Map<string, { error: unknown; at: number }>();

  function start<T>(key: string, count: () => Promise<T>): Promise<T> {
    const started = count().finally(() => running.delete(key));
    // Reported here, so a count nobody waits for any more never fails unheard (nor as an unhandled rejection).
    started.catch((error: unknown) => {
      onFailure(error);
      const now = Date.now();
      for (const [old, failure] of failed) if (now - failure.at > FAILURE_KEPT_MS) failed.delete(old);
      failed.set(key, { error, at: now });
    });
    running.set(key, started);
    return started;
  }

  return {
    async wait<T>(key: string, count: () => Promise<T>, ms: number): Promise<T | null> {
      const failure = failed.get(key);
      if (failure) {
        failed.delete(key);
        throw failure.error;
      }
      const counting = (running.get(key) as Promise<T> | undefined) ?? start(key, count);
      try {
        return await within(counting, ms);
      } catch (error) {
        // This caller has it: not the next one too.
        failed.delete(key);
        throw error;
      }
    },
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}

/**
 * `promise`'s value if it settles within `ms` (its failure thrown), else null while it goes on. An infinite `ms`
 * waits for it.
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  if (!Number.isFinite(ms)) return promise;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
