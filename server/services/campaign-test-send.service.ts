import { randomBytes } from 'node:crypto';
import type { SendTest } from '../../src/schemas/campaigns.js';
import { MERGE_TAGS } from '../../src/schemas/email-templates.js';
import type { Database } from '../db/database.js';
import { ApiError, fieldFailure, invalid } from '../http/errors.js';
import { ownerLanguage } from '../repositories/account-settings.repository.js';
import { getCampaign } from '../repositories/campaigns.repository.js';
import { copyTemplateContent, getEmailCampaign } from '../repositories/email-campaigns.repository.js';
import { getEmailSender } from '../repositories/email-senders.repository.js';
import { getEmailTemplate } from '../repositories/email-templates.repository.js';
import { findCompanyMailIdentity } from '../repositories/mail-runs.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { compileRun } from '../sending/run-message.js';
import type { RunTransport } from '../sending/run-transport.js';
import { fromAddress, withPreheader } from './campaign-content.js';
import { referenceNotFound } from './campaigns.service.js';
import { postalAddressRequired } from './mail-runs.service.js';

/**
 * Test sends (`POST /campaigns/send-test/`, docs/campaigns.md): a campaign's current content, or a template with a
 * subject and sender, to at most five addresses, with the merge tags' sample values, `[Test]` before the subject
 * and the real compliance footer, through the transport the send runner uses (SMTP_URL, or captured in the
 * database). Nothing reaches the outbox, so the campaign's figures never count them.
 */

/** The recipient's merge values of a test: the catalogue's sample person. */
const SAMPLE_PERSON = {
  first_name: MERGE_TAGS.first_name,
  last_name: MERGE_TAGS.last_name,
  location_name: MERGE_TAGS.location_name,
};

/** Test sends a company may make in a window, whatever their number of addresses. */
export interface TestSendLimit {
  max: number;
  windowMs: number;
}

/** Ten test sends per company every ten minutes. */
export const DEFAULT_TEST_SEND_LIMIT: TestSendLimit = { max: 10, windowMs: 10 * 60_000 };

/** What a test message is built from. */
interface TestContent {
  from: string;
  subject: string;
  html: string;
  text: string;
}

/** The service; `unsubscribeBaseUrl` is where the (inert) test unsubscribe link points. */
export function campaignTestSendService(
  db: Database,
  transport: RunTransport,
  settings: { domain: string; unsubscribeBaseUrl: string; limit?: TestSendLimit },
) {
  const limit = settings.limit ?? DEFAULT_TEST_SEND_LIMIT;
  const recent = new Map<number, number[]>();

  /** Counts one test send of the company, 429 past the limit (per process). */
  function take(companyId: number): void {
    const at = Date.now();
    const times = (recent.get(companyId) ?? []).filter((time) => at - time < limit.windowMs);
    if (times.length >= limit.max) {
      throw new ApiError(429, 'rate_limited', 'Too many test sends: wait a few minutes before the next');
    }
    times.push(at);
    recent.set(companyId, times);
  }

  return {
    async send(scope: WriteScope, body: SendTest): Promise<{ sent: number }> {
      const prepared = await db.tenant(scope.companyId, async (sql) => {
        const companyId = scope.companyId;
        let senderId = body.sender_id ?? null;
        let subject = body.subject ?? '';
        let preheader = '';
        let html = '';
        let text = '';
        if (body.campaign_id !== undefined) {
          const campaign = await getCampaign(sql, companyId, body.campaign_id);
          if (!campaign || campaign.kind !== 'email')
            throw referenceNotFound('campaign_id', body.campaign_id);
          await copyTemplateContent(sql, companyId, body.campaign_id);
          const email = await getEmailCampaign(sql, companyId, body.campaign_id);
          senderId ??= email?.sender_id ?? null;
          if (subject === '') subject = email?.subject ?? '';
          preheader = email?.preheader ?? '';
          html = email?.html_content ?? '';
          text = email?.text_content ?? '';
        }
        if (body.template_id !== undefined) {
          const template = await getEmailTemplate(sql, companyId, body.template_id);
          if (!template) throw referenceNotFound('template_id', body.template_id);
          html = template.html_content;
          text = template.text_content;
        }
        const sender = senderId === null ? null : await getEmailSender(sql, companyId, senderId);
        if (senderId !== null && !sender) throw referenceNotFound('sender_id', senderId);
        const fields: Record<string, ReturnType<typeof fieldFailure>> = {};
        if (html.trim() === '') fields.template_id = fieldFailure('required', 'Choose a template to test');
        if (subject.trim() === '') fields.subject = fieldFailure('required', 'A subject is required');
        if (!sender) fields.sender_id = fieldFailure('required', 'Choose a sender');
        else if (!sender.verified_at)
          fields.sender_id = fieldFailure(
            'not_valid',
            'The sender is not verified yet: confirm its address first',
          );
        if (Object.keys(fields).length > 0 || !sender) throw invalid(fields, 'The test cannot be sent yet');
        const company = await findCompanyMailIdentity(sql, companyId);
        if (!company?.postal_address.trim()) throw postalAddressRequired();
        const content: TestContent = {
          from: fromAddress(sender),
          subject: `[Test] ${subject}`,
          html: withPreheader(html, preheader),
          text,
        };
        return { content, company, language: await ownerLanguage(sql, companyId) };
      });
      take(scope.companyId);
      const compiled = compileRun(
        {
          from_address: prepared.content.from,
          subject: prepared.content.subject,
          html_template: prepared.content.html,
          text_template: prepared.content.text,
          postal_address: prepared.company.postal_address.trim(),
          language: prepared.language,
          tracking: false,
        },
        prepared.company,
      );
      // The test's unsubscribe and view links answer the generic "not found" page: a test has no outbox row.
      const base = settings.unsubscribeBaseUrl;
      const links = {
        url: `${base}/u/test`,
        mailto: `mailto:unsubscribe@${settings.domain}?subject=test`,
        viewUrl: `${base}/v/test`,
      };
      let sent = 0;
      for (const email of body.emails) {
        // The catalogue's sample person; the company's own values (name, address, year, links) are real.
        const message = compiled.render(
          {
            email,
            merge: { ...SAMPLE_PERSON, email },
            messageId: `<test.${randomBytes(8).toString('hex')}@${settings.domain}>`,
            runId: null,
            outboxId: null,
          },
          links,
        );
        try {
          // A test belongs to no run or outbox row: its captured copy names none.
          await transport.send(scope.companyId, message);
        } catch {
          throw new ApiError(502, 'test_send_failed', 'The mail server refused the test message', {
            emails: fieldFailure('not_valid', `The mail server refused the message to address ${sent + 1}`),
          });
        }
        sent += 1;
      }
      return { sent };
    },
  };
}

/** The test-send service's calls. */
export type CampaignTestSendService = ReturnType<typeof campaignTestSendService>;
