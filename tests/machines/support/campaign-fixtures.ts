import type {
  Campaign,
  CampaignProgress,
  CampaignSummary,
  EmailCampaign,
} from '../../../src/schemas/campaigns.js';

/** The same failures every campaign machine test answers with. */
export const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const ZERO = { queued: 0, sending: 0, sent: 0, failed: 0, suppressed: 0, cancelled: 0 };

/** A saved draft campaign, as `GET /campaigns/campaigns/{id}/` answers it. */
export const DRAFT: Campaign = {
  id: 41,
  name: 'Spring menu',
  status: 'draft',
  audience: { segment_ids: [3], list_ids: [], location_ids: [], location_group_ids: [] },
  email: null,
  start: null,
  end: null,
  repeat_on: 'once',
  selectedDays: [],
  schedules: [],
  categories: ['menu'],
  next_run_at: null,
  last_sent_at: null,
  counts: ZERO,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
};

/** The draft's content once saved. */
export const EMAIL: EmailCampaign = {
  id: 9,
  campaign_id: 41,
  template_id: 5,
  sender_id: 2,
  subject: 'Our spring menu',
  preheader: '',
  tracking: true,
  updated_at: '2026-11-20T10:05:00.000Z',
};

/** The campaign in each status after its send. */
export const withStatus = (status: Campaign['status']): Campaign => ({ ...DRAFT, email: EMAIL, status });

/** Progress answers: while sending, and when done. */
export const progressOf = (
  status: CampaignProgress['status'],
  sent: number,
  queued: number,
): CampaignProgress => ({
  campaign_id: 41,
  status,
  counts: { ...ZERO, sent, queued },
  runs: [],
  opened: Math.floor(sent / 2),
  clicked: Math.floor(sent / 4),
  unsubscribed: 0,
});

/** A summary row with the client-side extras. */
export const SUMMARY: CampaignSummary = {
  id: 41,
  name: 'Spring menu',
  status: 'sent',
  repeat_on: 'once',
  categories: ['menu'],
  template_name: 'New menu',
  next_run_at: null,
  last_sent_at: '2026-11-21T09:00:00.000Z',
  recipients: 120,
  sent: 118,
  failed: 2,
  opened: 59,
  clicked: 12,
  unsubscribed: 1,
  open_rate: 50,
  click_rate: 10.17,
  updated_at: '2026-11-21T09:10:00.000Z',
  custom_new_customer: 0,
  custom_new_customerVsAve: 0,
  custom_repeat_customer: 0,
  custom_repeat_customerVsAve: 0,
};
