import type { Campaign, CampaignSummary } from '../schemas/campaigns.js';
import {
  createRowActionMachine,
  type RowActionContext,
  type RowActionEvent,
} from './support/row-action-machine.js';

/** `duplicateCampaign`'s input: the campaign to copy and the copy's name (translated by the view). */
export interface DuplicateRequest {
  campaign: CampaignSummary;
  name: string;
}

/** What the campaign list sends besides the list's own commands. */
export type CampaignDuplicateCommand =
  { type: 'campaign.duplicate'; campaign: CampaignSummary; name: string } | { type: 'problem.dismiss' };

/** Everything the duplicate machine handles. */
export type CampaignDuplicateEvent = RowActionEvent<
  Extract<CampaignDuplicateCommand, { type: 'campaign.duplicate' }>,
  Campaign,
  'duplicateCampaign'
>;

/** What the machine knows: the request under way (or the one that failed) and its problem. */
export type CampaignDuplicateContext = RowActionContext<DuplicateRequest>;

/**
 * "Duplicate" on /campaigns: `idle` → `duplicating` → `idle`, announcing `campaign.duplicated` (the list
 * reloads and names the copy), or keeping the problem to show until `problem.dismiss`. `duplicateCampaign`
 * makes a new draft from an existing campaign's fields: `GET /campaigns/campaigns/{id}/`, `POST` its name,
 * audience and schedule, then `POST /campaigns/email-campaigns/` with its content.
 */
export const campaignDuplicateMachine = createRowActionMachine({
  id: 'campaignDuplicate',
  command: 'campaign.duplicate',
  busyState: 'duplicating',
  src: 'duplicateCampaign',
  requestOf: ({
    campaign,
    name,
  }: Extract<CampaignDuplicateCommand, { type: 'campaign.duplicate' }>): DuplicateRequest => ({
    campaign,
    name,
  }),
  announce: (_, campaign: Campaign) => ({ type: 'campaign.duplicated' as const, campaign }),
});
