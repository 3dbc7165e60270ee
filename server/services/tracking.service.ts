import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import {
  findMailTokenSecret,
  recordClick,
  recordOpen,
  type EngagementOutcome,
} from '../repositories/mail-outbox.repository.js';
import { looksAutomated, PREFETCH_SECONDS, type EngagementRequest } from '../sending/machine-open.js';
import { trackingTokens, type TrackingTokens } from '../sending/tracking-token.js';

/**
 * The open pixel and click redirects of tracked run messages (docs/sending.md, "Tracking"). A token that does
 * not verify is 404 with nothing more said; a valid one records on its outbox row in one statement. A click
 * redirects to the URL its token binds even when the row is gone (the link was ours), never anywhere else.
 */

/** What a click answers: where to send the reader. */
export interface ClickRedirect {
  url: string;
  outcome: EngagementOutcome;
}

/** The tracking calls over one database. */
export function trackingService(db: Database) {
  let signer: Promise<TrackingTokens> | null = null;
  const tokens = () => (signer ??= db.platform(findMailTokenSecret).then(trackingTokens));
  const signal = (request: EngagementRequest) => ({
    automated: looksAutomated(request),
    prefetchSeconds: PREFETCH_SECONDS,
  });

  return {
    /** Records an open; 404 for a token that does not verify. */
    async open(token: string, request: EngagementRequest): Promise<EngagementOutcome> {
      const target = (await tokens()).readOpen(token);
      if (!target) throw notFound('link');
      return db.tenant(target.companyId, (sql) =>
        recordOpen(sql, target.companyId, target.outboxId, signal(request)),
      );
    },
    /** Records a click and answers its target; 404 for a forged token or one whose URL was changed. */
    async click(token: string, request: EngagementRequest): Promise<ClickRedirect> {
      const target = (await tokens()).readClick(token);
      if (!target) throw notFound('link');
      const outcome = await db.tenant(target.companyId, (sql) =>
        recordClick(sql, target.companyId, target.outboxId, signal(request)),
      );
      return { url: target.url, outcome };
    },
  };
}

/** The tracking service's calls. */
export type TrackingService = ReturnType<typeof trackingService>;
