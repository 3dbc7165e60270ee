/**
 * Counts a call starts and may stop waiting for (docs/dashboards.md, "Recommendations"): a count goes on after the
 * call has answered without it, and the call's next ask reads what it kept.
 */

/** The counts under way in this process, one per key. */
export interface BackgroundCounts {
  /**
   * Runs `count` under `key`, or joins the count already under way under it (a second call missing the same
   * audiences does not count them again). A failure goes to the runner's `onFailure` as well as to whoever waits.
   */
  run<T>(key: string, count: () => Promise<T>): Promise<T>;
  /** Waits for every count under way (the server's close, so none outlives its database). */
  settled(): Promise<void>;
}

/** A set of background counts whose failures, waited for or not, are reported to `onFailure`. */
export function backgroundCounts(onFailure: (error: unknown) => void): BackgroundCounts {
  const running = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, count: () => Promise<T>): Promise<T> {
      const underWay = running.get(key) as Promise<T> | undefined;
      if (underWay) return underWay;
      const started = count().finally(() => running.delete(key));
      // Reported here, so a count nobody waits for any more never fails unheard (nor as an unhandled rejection).
      started.catch(onFailure);
      running.set(key, started);
      return started;
    },
    async settled() {
      await Promise.allSettled([...running.values()]);
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
