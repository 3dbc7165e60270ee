import { z } from 'zod';
import { emailField } from './accounts.js';
import { IsoDateSchema, pageOf, PagingQuerySchema, requiredName } from './common.js';
import { urlWholeNumber } from './numbers.js';

/**
 * Campaigns (spec §2 /campaigns and "campaign update mode", §3 "Campaign / email campaign", §7 Campaigns calls;
 * docs/campaigns.md): a campaign is who (the audience), what (an email campaign: template, subject, preheader,
 * sender) and when (now, once at a time, or repeating), sent through the mail-run engine (docs/sending.md).
 * This file is the contract shared by the routes and the campaign screens.
 */

/** Where a campaign is in its life. `sending` and `sent` are reached only through the send action. */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'paused', 'cancelled'] as const;
/** One of CAMPAIGN_STATUSES. */
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** How often a campaign sends: `once` (now, or at `start` + `schedules[0]`) or repeating. */
export const REPEAT_ON = ['once', 'daily', 'weekly', 'monthly'] as const;
/** One of REPEAT_ON. */
export type RepeatOn = (typeof REPEAT_ON)[number];

/** Weekday codes of `selectedDays` (weekly campaigns), Monday first. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** One of WEEKDAYS. */
export type Weekday = (typeof WEEKDAYS)[number];

/** The categories a marketer may tag a campaign with (translated in the interface; used to filter and report). */
export const CAMPAIGN_CATEGORIES = [
  'promotion',
  'newsletter',
  'event',
  'menu',
  'loyalty',
  'announcement',
] as const;
/** One of CAMPAIGN_CATEGORIES. */
export type CampaignCategory = (typeof CAMPAIGN_CATEGORIES)[number];

/** Limits of a campaign. */
export const CAMPAIGN_LIMITS = {
  /** Send times per day of a repeating campaign. */
  maxSchedules: 6,
  /** Addresses one test send may go to. */
  maxTestAddresses: 5,
  /** Segments, lists, locations or groups in one audience (each). */
  maxAudienceEntries: 50,
  subjectMaxLength: 200,
  preheaderMaxLength: 200,
  /** Seconds between progress polls while a campaign sends. */
  progressPollSeconds: 3,
} as const;

/** A time of day `HH:MM` (24-hour) in the company's time zone. */
export const TimeOfDaySchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day written HH:MM (24-hour)');

const idList = (field: string) =>
  z
    .array(z.number().int().positive(`${field} must hold positive ids`))
    .max(
      CAMPAIGN_LIMITS.maxAudienceEntries,
      `${field} may hold at most ${CAMPAIGN_LIMITS.maxAudienceEntries} ids`,
    );

/**
 * Who receives a campaign: the union of the members of `segment_ids` and `list_ids` (subscribers with an
 * address), kept to those whose location is one of `location_ids` or in one of `location_group_ids` when either
 * is non-empty. Unsubscribed and suppressed addresses never count.
 */
export const CampaignAudienceSchema = z.object({
  segment_ids: idList('segment_ids').default([]),
  list_ids: idList('list_ids').default([]),
  location_ids: idList('location_ids').default([]),
  location_group_ids: idList('location_group_ids').default([]),
});
/** Who receives a campaign. */
export type CampaignAudience = z.infer<typeof CampaignAudienceSchema>;

/** When a campaign sends, as saved (spec §3: start, end, repeat_on, categories, selectedDays, schedules). */
export const CampaignScheduleFieldsSchema = z.object({
  /** First day it may send (company time zone); with `once`, the day of the send (null: send on the action). */
  start: IsoDateSchema.nullable().default(null),
  /** Last day a repeating campaign may send (inclusive); null: no end. */
  end: IsoDateSchema.nullable().default(null),
  repeat_on: z.enum(REPEAT_ON, { error: `repeat_on must be one of ${REPEAT_ON.join(', ')}` }).default('once'),
  /** Weekly campaigns: the weekdays it sends on. */
  selectedDays: z
    .array(z.enum(WEEKDAYS, { error: 'selectedDays holds weekday codes mon…sun' }))
    .max(7)
    .default([]),
  /** Times of day it sends, `HH:MM` in the company's time zone (`once` uses the first). */
  schedules: z.array(TimeOfDaySchema).max(CAMPAIGN_LIMITS.maxSchedules).default([]),
  categories: z
    .array(z.enum(CAMPAIGN_CATEGORIES, { error: 'categories holds unknown category' }))
    .max(6)
    .default([]),
});
/** When a campaign sends. */
export type CampaignScheduleFields = z.infer<typeof CampaignScheduleFieldsSchema>;

/** The message counts of a campaign's runs (or one run), by outbox status. */
export const SendCountsSchema = z.object({
  queued: z.number().int(),
  sending: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  suppressed: z.number().int(),
  cancelled: z.number().int(),
});
/** Message counts by status. */
export type SendCounts = z.infer<typeof SendCountsSchema>;

/** A campaign's email content (`/campaigns/email-campaigns/`), one per campaign. */
export const EmailCampaignSchema = z.object({
  id: z.number().int(),
  campaign_id: z.number().int(),
  template_id: z.number().int().nullable(),
  sender_id: z.number().int().nullable(),
  subject: z.string(),
  preheader: z.string(),
  /** Open pixel and click redirects (docs/sending.md, "Tracking"). */
  tracking: z.boolean(),
  updated_at: z.string(),
});
/** A campaign's email content. */
export type EmailCampaign = z.infer<typeof EmailCampaignSchema>;

/** The writable fields of an email campaign. */
export const EmailCampaignFieldsSchema = z.object({
  template_id: z.number().int().positive('template_id must be a template id').nullable(),
  sender_id: z.number().int().positive('sender_id must be a sender id').nullable(),
  subject: z.string().trim().max(CAMPAIGN_LIMITS.subjectMaxLength, 'subject is too long'),
  preheader: z.string().trim().max(CAMPAIGN_LIMITS.preheaderMaxLength, 'preheader is too long'),
  tracking: z.boolean(),
});

/** `POST /campaigns/email-campaigns/`: a campaign's content, created once. */
export const EmailCampaignCreateSchema = EmailCampaignFieldsSchema.partial().extend({
  campaign_id: z.number().int().positive('campaign_id must be a campaign id'),
});
/** `PATCH /campaigns/email-campaigns/`: the fields to change of the named campaign's content. */
export const EmailCampaignPatchSchema = EmailCampaignCreateSchema;
/** Body of the email-campaign create and patch calls. */
export type EmailCampaignInput = z.infer<typeof EmailCampaignCreateSchema>;

/** `GET /campaigns/email-campaigns/?campaign_id=`. */
export const EmailCampaignListQuerySchema = PagingQuerySchema.extend({
  campaign_id: urlWholeNumber('campaign_id must be a campaign id').optional(),
});
/** A page of email campaigns. */
export const EmailCampaignPageSchema = pageOf(EmailCampaignSchema);

/** A campaign as `GET /campaigns/campaigns/{id}/` answers it. */
export const CampaignSchema = CampaignScheduleFieldsSchema.extend({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  audience: CampaignAudienceSchema,
  /** The content, null until the content step saved it. */
  email: EmailCampaignSchema.nullable(),
  /** The next instant it will send (ISO, UTC), null when nothing is due. */
  next_run_at: z.string().nullable(),
  /** When its latest run started, null before the first. */
  last_sent_at: z.string().nullable(),
  /** All its runs' messages by status. */
  counts: SendCountsSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
/** A campaign. */
export type Campaign = z.infer<typeof CampaignSchema>;

/** `POST /campaigns/campaigns/`: a draft; only the name is needed. */
export const CampaignCreateSchema = CampaignScheduleFieldsSchema.extend({
  name: requiredName('name'),
  audience: CampaignAudienceSchema.default({
    segment_ids: [],
    list_ids: [],
    location_ids: [],
    location_group_ids: [],
  }),
});
/** `POST /campaigns/campaigns/` body. */
export type CampaignCreate = z.input<typeof CampaignCreateSchema>;

/** `PUT /campaigns/campaigns/{id}/`: the whole draft or scheduled campaign (the editor saves at every step). */
export const CampaignUpdateSchema = CampaignCreateSchema;
/** `PUT /campaigns/campaigns/{id}/` body. */
export type CampaignUpdate = z.input<typeof CampaignUpdateSchema>;

/** `GET /campaigns/campaigns/`: `?q=` (name) and `?status=`. */
export const CampaignListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(200).optional(),
  status: z.enum(CAMPAIGN_STATUSES, { error: 'status is not a campaign status' }).optional(),
});
/** A page of campaigns. */
export const CampaignPageSchema = pageOf(CampaignSchema);

/** `POST /campaigns/campaigns/{id}/{action}/`: what the campaign screen's buttons do after the send. */
export const CAMPAIGN_ACTIONS = ['pause', 'resume', 'cancel'] as const;
/** One of CAMPAIGN_ACTIONS. */
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/**
 * `POST /campaigns/campaigns/{id}/send/` answer: the campaign, now `sending` (send now) or `scheduled` (a
 * later or repeating send). Refused with 400 naming what is missing (`template_id`, `subject`, `sender_id`,
 * an unverified sender, `postal_address`, an empty audience) and 409 from a status that cannot send.
 */
export const CampaignSendResultSchema = z.object({ campaign: CampaignSchema });

/** One run of a campaign in its progress. */
export const CampaignRunProgressSchema = z.object({
  id: z.number().int(),
  /** Which run: `now`, or the scheduled instant (ISO, UTC). */
  run_key: z.string(),
  status: z.enum(['sending', 'paused', 'cancelled', 'sent']),
  recipients: z.number().int(),
  counts: SendCountsSchema,
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

/** `GET /campaigns/campaigns/{id}/progress/`: polled while a campaign sends. */
export const CampaignProgressSchema = z.object({
  campaign_id: z.number().int(),
  status: z.enum(CAMPAIGN_STATUSES),
  counts: SendCountsSchema,
  /** Newest first, at most 20. */
  runs: z.array(CampaignRunProgressSchema),
  /** Tracked engagement over all runs: distinct messages opened (machine opens left out) and clicked. */
  opened: z.number().int(),
  clicked: z.number().int(),
  unsubscribed: z.number().int(),
});
/** A campaign's progress. */
export type CampaignProgress = z.infer<typeof CampaignProgressSchema>;

/** `POST /campaigns/audience-count/`: the live recipient count of an audience while it is edited. */
export const AudienceCountSchema = z.object({
  /** Subscribers who would receive it now: subscribed, with an address, not suppressed, de-duplicated. */
  recipients: z.number().int(),
  /** Members left out because their address is unsubscribed, bounced, complained or deleted. */
  suppressed: z.number().int(),
});
/** An audience's live count. */
export type AudienceCount = z.infer<typeof AudienceCountSchema>;

/**
 * `GET /campaigns/campaigns-summary/`: one row per campaign with its figures. The client adds the spec's
 * extras (`withSummaryExtras`), all 0 until campaign analytics fills them.
 */
export const CampaignSummaryRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  repeat_on: z.enum(REPEAT_ON),
  categories: z.array(z.enum(CAMPAIGN_CATEGORIES)),
  template_name: z.string().nullable(),
  next_run_at: z.string().nullable(),
  last_sent_at: z.string().nullable(),
  recipients: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  unsubscribed: z.number().int(),
  /** opened / sent and clicked / sent, 0–100, 0 when nothing was sent. */
  open_rate: z.number(),
  click_rate: z.number(),
  updated_at: z.string(),
});
/** One campaign summary row as the API answers it. */
export type CampaignSummaryRow = z.infer<typeof CampaignSummaryRowSchema>;
/** A page of campaign summary rows. */
export const CampaignSummaryPageSchema = pageOf(CampaignSummaryRowSchema);
/** `GET /campaigns/campaigns-summary/` query: as the campaign list. */
export const CampaignSummaryQuerySchema = CampaignListQuerySchema;

/** The client-side extras of a summary row (spec §3), all 0 until campaign analytics fills them. */
export interface CampaignSummaryExtras {
  custom_new_customer: number;
  custom_new_customerVsAve: number;
  custom_repeat_customer: number;
  custom_repeat_customerVsAve: number;
}

/** A summary row as the screens show it: the API's row with the spec's client-side extras. */
export type CampaignSummary = CampaignSummaryRow & CampaignSummaryExtras;

/** Adds the spec's client-side extras (all 0) to a summary row. */
export function withSummaryExtras(row: CampaignSummaryRow): CampaignSummary {
  return {
    ...row,
    custom_new_customer: 0,
    custom_new_customerVsAve: 0,
    custom_repeat_customer: 0,
    custom_repeat_customerVsAve: 0,
  };
}

/**
 * `POST /campaigns/send-test/`: the campaign's current content (or a template with a subject and sender) to up
 * to five addresses, with the merge tags' sample values and `[Test]` before the subject. Not counted as sent.
 */
export const SendTestSchema = z
  .object({
    campaign_id: z.number().int().positive('campaign_id must be a campaign id').optional(),
    template_id: z.number().int().positive('template_id must be a template id').optional(),
    sender_id: z.number().int().positive('sender_id must be a sender id').optional(),
    subject: z.string().trim().max(CAMPAIGN_LIMITS.subjectMaxLength, 'subject is too long').optional(),
    emails: z
      .array(emailField('emails'))
      .min(1, 'emails needs at least one address')
      .max(
        CAMPAIGN_LIMITS.maxTestAddresses,
        `emails may hold at most ${CAMPAIGN_LIMITS.maxTestAddresses} addresses`,
      ),
  })
  .refine((body) => body.campaign_id !== undefined || body.template_id !== undefined, {
    message: 'Name a campaign_id or a template_id',
    path: ['campaign_id'],
  });
/** `POST /campaigns/send-test/` body. */
export type SendTest = z.infer<typeof SendTestSchema>;

/** `POST /campaigns/send-test/` answer: how many test messages went (or were captured). */
export const SendTestResultSchema = z.object({ sent: z.number().int() });
