import { unknownMergeTags } from '../../src/schemas/email-templates.js';
import type { Sql } from '../db/database.js';
import { ApiError, fieldFailure, invalid, type FieldErrors } from '../http/errors.js';
import type { AudienceSelection } from '../repositories/campaign-audience.repository.js';
import type { CampaignRow } from '../repositories/campaigns.repository.js';
import { copyTemplateContent, getEmailCampaign } from '../repositories/email-campaigns.repository.js';
import { getEmailSender } from '../repositories/email-senders.repository.js';
import type { RunContent } from '../repositories/mail-runs.repository.js';
import { UnknownReferenceError } from '../repositories/references.js';
import { segmentMembersFragment } from '../repositories/segment-rules.repository.js';
import { getSegment } from '../repositories/segments.repository.js';
import { escapeHtml } from '../sending/merge-template.js';
import { refusedAsInvalid, ruleSetOf, segmentLocations } from './segment-input.js';

/**
 * What a campaign sends and to whom, worked out inside the caller's transaction (docs/campaigns.md): the audience
 * as a statement fragment over subscribers, and the content checked field by field before a send.
 */

/** 404 naming the field for an id of another company; the rules' refusals as 400s; anything else rethrown. */
export function referenceProblem(error: unknown): never {
  if (error instanceof UnknownReferenceError) {
    throw new ApiError(404, 'not_found', `${error.field} not found: ${error.ids.join(', ')}`, {
      [error.field]: fieldFailure('not_valid', `Unknown ${error.field}: ${error.ids.join(', ')}`),
    });
  }
  return refusedAsInvalid(error);
}

/** The ids of an audience, as the campaign saves them. */
export type AudienceIds = Pick<
  CampaignRow,
  'segment_ids' | 'list_ids' | 'location_ids' | 'location_group_ids'
>;

/**
 * The audience's selection: each segment compiled to its member guests (with the segment's own locations), the
 * lists and picked locations as ids. A segment of another company (or deleted) is a 404 naming `segment_ids`.
 */
export async function audienceSelectionOf(
  sql: Sql,
  companyId: number,
  audience: AudienceIds,
): Promise<AudienceSelection> {
  const segments = [];
  try {
    for (const segmentId of new Set(audience.segment_ids)) {
      const segment = await getSegment(sql, companyId, segmentId);
      if (!segment) throw new UnknownReferenceError('segment_ids', [segmentId]);
      const ruleSet = ruleSetOf(segment.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
      const locationIds = await segmentLocations(sql, companyId, segment);
      // A segment kept to locations that are all gone has no members.
      if (locationIds !== null && locationIds.length === 0) continue;
      segments.push(await segmentMembersFragment(sql, companyId, ruleSet, { locationIds }));
    }
  } catch (error) {
    referenceProblem(error);
  }
  return {
    segments,
    listIds: audience.list_ids,
    locationIds: audience.location_ids,
    locationGroupIds: audience.location_group_ids,
  };
}

/** `"Name" <address>`, the name's quotes and backslashes left out. */
export function fromAddress(sender: { name: string; email: string }): string {
  return `"${sender.name.replace(/["\\\r\n]/g, '')}" <${sender.email}>`;
}

/** The preheader as the hidden first text of the body (what inboxes show beside the subject). */
export function withPreheader(html: string, preheader: string): string {
  if (preheader.trim() === '') return html;
  const hidden =
    '<div style="display:none;max-height:0;overflow:hidden;mso-hide:all" aria-hidden="true">' +
    `${escapeHtml(preheader)}</div>`;
  const body = /<body[^>]*>/i.exec(html);
  return body ? html.replace(body[0], `${body[0]}${hidden}`) : `${hidden}${html}`;
}

/**
 * The content a send of the campaign freezes, after refreshing its copy of the template. Every missing or
 * unusable part is a 400 naming its field: `template_id` (none chosen, empty, unknown merge tags), `subject`,
 * `sender_id` (none, or not verified).
 */
export async function sendableContent(sql: Sql, companyId: number, campaignId: number): Promise<RunContent> {
  await copyTemplateContent(sql, companyId, campaignId);
  const email = await getEmailCampaign(sql, companyId, campaignId);
  const fields: FieldErrors = {};
  if (!email || (email.template_id === null && email.html_content.trim() === '')) {
    fields.template_id = fieldFailure('required', 'Choose a template before sending');
  } else if (email.html_content.trim() === '') {
    fields.template_id = fieldFailure('not_valid', 'The template has no content');
  } else {
    const unknown = unknownMergeTags(email.html_content + email.text_content);
    if (unknown.length > 0)
      fields.template_id = fieldFailure(
        'not_valid',
        `The template has unknown merge tags: ${unknown.join(', ')}`,
      );
  }
  if (!email || email.subject.trim() === '') {
    fields.subject = fieldFailure('required', 'A subject is required before sending');
  } else if (unknownMergeTags(email.subject).length > 0) {
    fields.subject = fieldFailure(
      'not_valid',
      `Unknown merge tags: ${unknownMergeTags(email.subject).join(', ')}`,
    );
  }
  const sender = email?.sender_id ? await getEmailSender(sql, companyId, email.sender_id) : null;
  if (!sender) fields.sender_id = fieldFailure('required', 'Choose a sender before sending');
  else if (!sender.verified_at)
    fields.sender_id = fieldFailure('not_valid', 'The sender is not verified yet: confirm its address first');
  if (Object.keys(fields).length > 0 || !email || !sender)
    throw invalid(fields, 'The campaign cannot be sent yet');
  return {
    from: fromAddress(sender),
    subject: email.subject,
    html: withPreheader(email.html_content, email.preheader),
    text: email.preheader.trim() === '' ? email.text_content : `${email.preheader}\n\n${email.text_content}`,
    tracking: email.tracking,
  };
}
