import { setTimeout as sleep } from 'node:timers/promises';

/** Spaces each company's messages to at most `perSecond` per second in this process. */
export interface CompanyRateLimiter {
  /** Resolves when the company may send its next message. */
  take(companyId: number): Promise<void>;
}

/**
 * A per-company pacing limiter: each message gets the next free slot, 1/perSecond apart, so a busy company is
 * spread evenly and never delays another company's messages. Per process: N workers send up to N × the rate.
 */
export function companyRateLimiter(perSecond: number): CompanyRateLimiter {
  const gapMs = 1000 / perSecond;
  const nextSlot = new Map<number, number>();
  return {
    async take(companyId) {
      const now = performance.now();
      const slot = Math.max(now, nextSlot.get(companyId) ?? 0);
      nextSlot.set(companyId, slot + gapMs);
      if (slot - now >= 1) await sleep(slot - now);
    },
  };
}
