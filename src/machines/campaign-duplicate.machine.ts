import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import type { Campaign, CampaignSummary } from '../schemas/campaigns.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** `duplicateCampaign`'s input: the campaign to copy and the copy's name (translated by the view). */
export interface DuplicateRequest {
  campaign: CampaignSummary;
  name: string;
}

/** What the campaign list sends besides the list's own commands. */
export type CampaignDuplicateCommand =
  { type: 'campaign.duplicate'; campaign: CampaignSummary; name: string } | { type: 'problem.dismiss' };

/** Everything the duplicate machine handles. */
export type CampaignDuplicateEvent =
  | CampaignDuplicateCommand
  | DoneActorEvent<Campaign, 'duplicateCampaign'>
  | ErrorActorEvent<unknown, 'duplicateCampaign'>;

/** What the duplicate machine knows. */
export interface CampaignDuplicateContext {
  /** The copy under way, or the one that failed. */
  request: DuplicateRequest | null;
  problem: ApiProblem | null;
}

const duplicateSetup = setup({
  types: {
    context: {} as CampaignDuplicateContext,
    events: {} as CampaignDuplicateEvent,
    emitted: {} as { type: 'campaign.duplicated'; campaign: Campaign },
  },
  actors: {
    /**
     * A new draft from an existing campaign's fields: `GET /campaigns/campaigns/{id}/`, `POST` its name,
     * audience and schedule, then `POST /campaigns/email-campaigns/` with its content.
     */
    duplicateCampaign: placeholder<Campaign, DuplicateRequest>(),
  },
  actions: {
    pick: assign((_, request: DuplicateRequest) => ({ request, problem: null })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    clear: assign({ request: null, problem: null }),
    announce: emit((_, campaign: Campaign) => ({ type: 'campaign.duplicated' as const, campaign })),
  },
});
const request = requestIn(duplicateSetup);

/**
 * "Duplicate" on /campaigns: `idle` → `duplicating` → `idle`, announcing `campaign.duplicated` (the list
 * reloads and names the copy), or keeping the problem to show until `problem.dismiss`.
 */
export const campaignDuplicateMachine = duplicateSetup.createMachine({
  id: 'campaignDuplicate',
  context: { request: null, problem: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'campaign.duplicate': {
          target: 'duplicating',
          actions: { type: 'pick', params: ({ event }) => ({ campaign: event.campaign, name: event.name }) },
        },
        'problem.dismiss': { actions: 'clear' },
      },
    },
    duplicating: {
      tags: ['busy'],
      ...request('duplicateCampaign', {
        // Entered only with a request picked.
        input: ({ context }) => context.request as DuplicateRequest,
        done: {
          target: 'idle',
          actions: [{ type: 'announce', params: ({ event }) => event.output }, 'clear'],
        },
        error: {
          target: 'idle',
          actions: { type: 'keepProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      }),
    },
  },
});
