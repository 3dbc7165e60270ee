import { LIMITS } from '../schemas/constants.js';
import type { CampaignStatus, CampaignSummary } from '../schemas/campaigns.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/** The campaign list's filter: one status, or every campaign (null). */
export interface CampaignFilters {
  status: CampaignStatus | null;
}

/**
 * /campaigns: the company's campaigns with their figures (`GET /api/campaigns/campaigns-summary/`, rows with
 * the spec's client-side extras), 25 to a page, searched by name and filtered by status, on the list kit:
 * `item.open` announces the campaign the screen opens in the editor, and a confirmed delete. New campaigns
 * and copies are made by the editor and the duplicate machine, not by a dialog here.
 */
export const campaignsMachine = createListMachine<CampaignSummary, NoFilters, CampaignFilters>({
  id: 'campaigns',
  pageSize: LIMITS.defaultPageSize,
  searchable: true,
  filters: { status: null },
  openable: true,
  // A copy made or a status changed elsewhere: load again at once.
  refreshDelay: 0,
});
