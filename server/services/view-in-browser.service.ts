import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { findMailTokenSecret, findViewableMessage } from '../repositories/mail-outbox.repository.js';
import { findCompanyMailIdentity, findRun } from '../repositories/mail-runs.repository.js';
import { inertHtml } from '../sending/inert-html.js';
import { compileRun } from '../sending/run-message.js';
import { unsubscribeTokens, type UnsubscribeTokens } from '../sending/unsubscribe-token.js';
import { viewTokens } from '../sending/view-token.js';

/**
 * The public view-in-browser page of run messages (`/v/{token}`, docs/sending.md "View in browser"): the message
 * as its recipient got it, rendered again from the run's frozen templates and the outbox row's frozen merge
 * values, dated by its `sent_at`. Without tracking (no pixel; links lead straight to their targets: reading in a
 * browser is not measured), and inert (no script, event handler, `<meta http-equiv>` or `<base>`). A token that does not verify, or names a message that was never sent or whose
 * recipient was erased, is 404 with nothing more said.
 */

/** What the page shows: the message's HTML and subject. */
export interface ViewedMessage {
  html: string;
  subject: string;
}

/** Where the re-rendered message's own links point (as the send runner's settings say). */
export interface ViewLinkSettings {
  /** `${baseUrl}/u/{token}` and `${baseUrl}/v/{token}`. */
  baseUrl: string;
  /** The mailto List-Unsubscribe address. */
  mailbox: string;
}

/** The view-in-browser calls over one database. */
export function viewInBrowserService(db: Database, settings: ViewLinkSettings) {
  let signers: Promise<{ view: UnsubscribeTokens; unsubscribe: UnsubscribeTokens }> | null = null;
  const tokens = () =>
    (signers ??= db
      .platform(findMailTokenSecret)
      .then((secret) => ({ view: viewTokens(secret), unsubscribe: unsubscribeTokens(secret) })));

  return {
    /** The message a token names; 404 for anything else. */
    async view(token: string): Promise<ViewedMessage> {
      const signer = await tokens();
      const target = signer.view.read(token);
      if (!target) throw notFound('link');
      const { companyId, outboxId } = target;
      return db.tenant(companyId, async (sql) => {
        const message = await findViewableMessage(sql, companyId, outboxId);
        const run = message && (await findRun(sql, companyId, message.run_id));
        const company = await findCompanyMailIdentity(sql, companyId);
        if (!message || !run || !company) throw notFound('link');
        const unsubscribe = signer.unsubscribe.sign(target);
        const rendered = compileRun({ ...run, tracking: false }, company).render(
          {
            email: message.email,
            merge: message.merge,
            messageId: message.message_id,
            runId: message.run_id,
            outboxId: message.id,
          },
          {
            url: `${settings.baseUrl}/u/${unsubscribe}`,
            mailto: `mailto:${settings.mailbox}?subject=unsubscribe%20${unsubscribe}`,
            viewUrl: `${settings.baseUrl}/v/${token}`,
          },
          message.sent_at,
        );
        // The design is the company's own HTML, shown on this installation's origin: made inert first.
        return { html: inertHtml(rendered.html), subject: rendered.subject };
      });
    },
  };
}

/** The view-in-browser service's calls. */
export type ViewInBrowserService = ReturnType<typeof viewInBrowserService>;
