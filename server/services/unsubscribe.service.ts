import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { findMailTokenSecret, findOutboxRecipient } from '../repositories/mail-outbox.repository.js';
import { findCompanyMailIdentity } from '../repositories/mail-runs.repository.js';
import {
  liftUnsubscribe,
  suppressAddress,
  suppressionOf,
} from '../repositories/mail-suppressions.repository.js';
import { updateSubscriber } from '../repositories/subscribers.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import {
  unsubscribeTokens,
  type UnsubscribeTarget,
  type UnsubscribeTokens,
} from '../sending/unsubscribe-token.js';

/**
 * The public unsubscribe links of run messages (docs/sending.md). A token names one outbox row; unsubscribing
 * suppresses the address for the company and sets the subscriber's consent to unsubscribed through the same
 * repository call as the subscriber profile (stamping `unsubscribed_at`, audited); resubscribing lifts both.
 * A token that does not verify, or names a row that is gone, is 404 with nothing more said.
 */

/** What the unsubscribe page shows. */
export interface UnsubscribeState {
  companyName: string;
  email: string;
  unsubscribed: boolean;
}

/** The audit's actor for changes made by the email's reader (no user of the company). */
function readerScope(companyId: number): WriteScope {
  return { companyId, userId: null, actorUserId: null };
}

/** The unsubscribe calls over one database. */
export function unsubscribeService(db: Database) {
  let signer: Promise<UnsubscribeTokens> | null = null;
  const target = async (token: string): Promise<UnsubscribeTarget> => {
    signer ??= db.platform(findMailTokenSecret).then(unsubscribeTokens);
    const found = (await signer).read(token);
    if (!found) throw notFound('link');
    return found;
  };

  async function change(token: string, unsubscribe: boolean): Promise<UnsubscribeState> {
    const { companyId, outboxId } = await target(token);
    return db.tenant(companyId, async (sql) => {
      const recipient = await findOutboxRecipient(sql, companyId, outboxId);
      const company = await findCompanyMailIdentity(sql, companyId);
      if (!recipient || !company) throw notFound('link');
      if (unsubscribe)
        await suppressAddress(sql, companyId, recipient.email, 'unsubscribed', recipient.run_id);
      else await liftUnsubscribe(sql, companyId, recipient.email);
      // The subscriber may have been erased since; the suppression alone then keeps the address out.
      await updateSubscriber(sql, readerScope(companyId), recipient.subscriber_id, {
        subscribed: !unsubscribe,
      });
      return { companyName: company.name, email: recipient.email, unsubscribed: unsubscribe };
    });
  }

  return {
    /** What the link's page shows; never changes anything (link scanners open URLs). */
    async describe(token: string): Promise<UnsubscribeState> {
      const { companyId, outboxId } = await target(token);
      return db.tenant(companyId, async (sql) => {
        const recipient = await findOutboxRecipient(sql, companyId, outboxId);
        const company = await findCompanyMailIdentity(sql, companyId);
        if (!recipient || !company) throw notFound('link');
        const reason = await suppressionOf(sql, companyId, recipient.email);
        return { companyName: company.name, email: recipient.email, unsubscribed: reason !== null };
      });
    },
    /** The one-click unsubscribe (RFC 8058) and the page's button. */
    unsubscribe: (token: string) => change(token, true),
    /** The page's way back: lifts the unsubscribe (a bounce or complaint stays). */
    resubscribe: (token: string) => change(token, false),
  };
}

/** The unsubscribe service's calls. */
export type UnsubscribeService = ReturnType<typeof unsubscribeService>;
