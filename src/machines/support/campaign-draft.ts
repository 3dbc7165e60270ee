import {
  type Campaign,
  type CampaignAudience,
  type CampaignCreate,
  type CampaignScheduleFields,
  type EmailCampaignInput,
} from '../../schemas/campaigns.js';

/** How the schedule step offers a send: on the send action, once at a day and time, or repeating. */
export type SendWhen = 'now' | 'once' | 'repeating';

/** The schedule step as edited: the saved fields, and which of the three ways the user picked. */
export interface ScheduleDraft extends CampaignScheduleFields {
  when: SendWhen;
}

/** The content step as edited (the writable fields of an email campaign). */
export interface ContentDraft {
  template_id: number | null;
  sender_id: number | null;
  subject: string;
  preheader: string;
  tracking: boolean;
}

/** A campaign as the editor holds it between saves. */
export interface CampaignDraft {
  name: string;
  audience: CampaignAudience;
  schedule: ScheduleDraft;
  content: ContentDraft;
}

/** An audience with nobody picked. */
export const EMPTY_AUDIENCE: CampaignAudience = {
  segment_ids: [],
  list_ids: [],
  location_ids: [],
  location_group_ids: [],
};

/** A new campaign: no audience, sent on the send action, tracked. */
export const EMPTY_DRAFT: CampaignDraft = {
  name: '',
  audience: EMPTY_AUDIENCE,
  schedule: {
    when: 'now',
    start: null,
    end: null,
    repeat_on: 'once',
    selectedDays: [],
    schedules: [],
    categories: [],
  },
  content: { template_id: null, sender_id: null, subject: '', preheader: '', tracking: true },
};

/** Which way a saved schedule sends: repeating, once at a day, or on the send action. */
export function whenOf(schedule: CampaignScheduleFields): SendWhen {
  if (schedule.repeat_on !== 'once') return 'repeating';
  return schedule.start ? 'once' : 'now';
}

/** The editor's draft of a saved campaign. */
export function draftOfCampaign(campaign: Campaign): CampaignDraft {
  const { start, end, repeat_on, selectedDays, schedules, categories } = campaign;
  const schedule = { start, end, repeat_on, selectedDays, schedules, categories };
  return {
    name: campaign.name,
    audience: campaign.audience,
    schedule: { ...schedule, when: whenOf(schedule) },
    content: campaign.email
      ? {
          template_id: campaign.email.template_id,
          sender_id: campaign.email.sender_id,
          subject: campaign.email.subject,
          preheader: campaign.email.preheader,
          tracking: campaign.email.tracking,
        }
      : EMPTY_DRAFT.content,
  };
}

/**
 * The body of `POST`/`PUT /campaigns/campaigns/`: the schedule as the chosen way sends (now: no day and no
 * time; once: the day and its first time, no end; repeating: everything).
 */
export function campaignBodyOf(draft: CampaignDraft): CampaignCreate {
  const { when, ...schedule } = draft.schedule;
  const fields =
    when === 'now'
      ? { ...schedule, start: null, end: null, repeat_on: 'once' as const, selectedDays: [], schedules: [] }
      : when === 'once'
        ? {
            ...schedule,
            end: null,
            repeat_on: 'once' as const,
            selectedDays: [],
            schedules: schedule.schedules.slice(0, 1),
          }
        : {
            ...schedule,
            repeat_on: schedule.repeat_on === 'once' ? ('daily' as const) : schedule.repeat_on,
            selectedDays: schedule.repeat_on === 'weekly' ? schedule.selectedDays : [],
          };
  return { name: draft.name, audience: draft.audience, ...fields };
}

/** The body of `POST`/`PATCH /campaigns/email-campaigns/` for a saved campaign. */
export function emailBodyOf(campaignId: number, content: ContentDraft): EmailCampaignInput {
  return { campaign_id: campaignId, ...content };
}

/** Whether an audience names anyone to send to (a segment or a list; locations only narrow them). */
export function audienceNamesSomeone(audience: CampaignAudience): boolean {
  return audience.segment_ids.length > 0 || audience.list_ids.length > 0;
}
