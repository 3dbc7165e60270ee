import { catchError, concatMap, forkJoin, map, of, type Observable } from 'rxjs';
import { z } from 'zod';
import { fromPromise } from 'xstate';
import {
  campaignDuplicateMachine,
  type DuplicateRequest,
} from '../../machines/campaign-duplicate.machine.js';
import {
  campaignUpdateModeMachine,
  type CampaignActionRequest,
  type EditorChoice,
  type EditorChoices,
  type EditorLoad,
  type SaveCampaignRequest,
  type SaveEmailRequest,
} from '../../machines/campaign-update-mode.machine.js';
import type { CampaignFilters } from '../../machines/campaigns.machine.js';
import { campaignsMachine } from '../../machines/campaigns.machine.js';
import type { ListQuery } from '../../machines/kit/list-machine.js';
import { EmailSenderSchema } from '../../schemas/accounts.js';
import {
  AudienceCountSchema,
  CampaignProgressSchema,
  CampaignSchema,
  CampaignSendResultSchema,
  CampaignSummaryPageSchema,
  EmailCampaignSchema,
  SendTestResultSchema,
  withSummaryExtras,
  type Campaign,
  type CampaignAudience,
  type CampaignSummary,
  type SendTest,
} from '../../schemas/campaigns.js';
import { LIMITS } from '../../schemas/constants.js';
import { EmailTemplatePageSchema } from '../../schemas/email-templates.js';
import { displayLocationName, LocationGroupSchema } from '../../schemas/locations.js';
import { SegmentPageSchema } from '../../schemas/segment-records.js';
import { SubscriberListPageSchema } from '../../schemas/subscribers.js';
import { apiRequest, apiRequestText } from '../../services/api-client.js';
import { answerOf, apiCall } from './answer.js';
import { everyLocation } from './locations.js';

const CAMPAIGNS = '/campaigns/campaigns/';
const EMAIL_CAMPAIGNS = '/campaigns/email-campaigns/';
const EVERY = { page_size: LIMITS.maxPageSize };

/** /campaigns' list with `GET /api/campaigns/campaigns-summary/`, each row with the spec's extras. */
export const campaignsLogic = campaignsMachine.provide({
  actors: {
    loadList: apiCall(({ status, ...query }: ListQuery<CampaignFilters>) =>
      apiRequest({
        method: 'GET',
        path: '/campaigns/campaigns-summary/',
        query: { ...query, status },
        schema: CampaignSummaryPageSchema,
      }).pipe(map((page) => ({ ...page, results: page.results.map(withSummaryExtras) }))),
    ),
    deleteItem: apiCall((campaign: CampaignSummary) =>
      apiRequest({ method: 'DELETE', path: `${CAMPAIGNS}${campaign.id}/` }),
    ),
  },
});

const getCampaign = (id: number) =>
  apiRequest({ method: 'GET', path: `${CAMPAIGNS}${id}/`, schema: CampaignSchema });

/** A copy of a campaign: its name, audience and schedule as a new draft, then its content. */
function duplicate({ campaign, name }: DuplicateRequest): Observable<Campaign> {
  return getCampaign(campaign.id).pipe(
    concatMap((source) => {
      const { start, end, repeat_on, selectedDays, schedules, categories, audience, email } = source;
      const body = { name, audience, start, end, repeat_on, selectedDays, schedules, categories };
      return apiRequest({ method: 'POST', path: CAMPAIGNS, body, schema: CampaignSchema }).pipe(
        concatMap((copy) =>
          email
            ? apiRequest({
                method: 'POST',
                path: EMAIL_CAMPAIGNS,
                body: {
                  campaign_id: copy.id,
                  template_id: email.template_id,
                  sender_id: email.sender_id,
                  subject: email.subject,
                  preheader: email.preheader,
                  tracking: email.tracking,
                },
                schema: EmailCampaignSchema,
              }).pipe(map((content) => ({ ...copy, email: content })))
            : of(copy),
        ),
      );
    }),
  );
}

/** "Duplicate" on /campaigns. */
export const campaignDuplicateLogic = campaignDuplicateMachine.provide({
  actors: { duplicateCampaign: apiCall(duplicate) },
});

/** A picker's choices, or none when the user may not read them (a feature the company lacks). */
function choices<T>(call: Observable<T>, pick: (answer: T) => EditorChoice[]): Observable<EditorChoice[]> {
  return call.pipe(
    map(pick),
    catchError(() => of([])),
  );
}

const named = (rows: readonly { id: number; name: string }[]) => rows.map(({ id, name }) => ({ id, name }));

/** Every picker of the editor in one go: segments, lists, locations, groups, templates and senders (the flow builder offers the same). */
export function editorChoices(): Observable<EditorChoices> {
  return forkJoin({
    segments: choices(
      apiRequest({ method: 'GET', path: '/campaigns/segments/', query: EVERY, schema: SegmentPageSchema }),
      (page) => named(page.results),
    ),
    lists: choices(
      apiRequest({
        method: 'GET',
        path: '/subscriptions/subscribers/list/',
        query: EVERY,
        schema: SubscriberListPageSchema,
      }),
      (page) => named(page.results),
    ),
    locations: choices(everyLocation(), (page) =>
      page.results.map((location) => ({ id: location.id, name: displayLocationName(location) })),
    ),
    groups: choices(
      apiRequest({ method: 'GET', path: '/customers/groups/', schema: z.array(LocationGroupSchema) }),
      named,
    ),
    templates: choices(
      apiRequest({
        method: 'GET',
        path: '/campaigns/email-templates/',
        query: EVERY,
        schema: EmailTemplatePageSchema,
      }),
      (page) => named(page.results),
    ),
    senders: apiRequest({
      method: 'GET',
      path: '/campaigns/email-sender/',
      schema: z.array(EmailSenderSchema),
    }).pipe(
      map((senders) =>
        senders.map((sender) => ({
          id: sender.id,
          name: sender.name,
          email: sender.email,
          verified: sender.verified_at !== null,
          is_default: sender.is_default,
        })),
      ),
      catchError(() => of([])),
    ),
  });
}

/** The campaign (none when new) and the pickers. */
function loadEditor(id: number | null): Observable<EditorLoad> {
  return forkJoin({ campaign: id === null ? of(null) : getCampaign(id), choices: editorChoices() });
}

/**
 * The campaign editor (spec §2, campaign update mode) with the campaigns, email-campaigns, audience-count,
 * send-test, send, progress and action calls; the template preview is the templates screen's call.
 */
export const campaignUpdateModeLogic = campaignUpdateModeMachine.provide({
  actors: {
    loadEditor: fromPromise<EditorLoad, number | null>(({ input, signal }) =>
      answerOf(loadEditor(input), signal),
    ),
    countAudience: apiCall((audience: CampaignAudience) =>
      apiRequest({
        method: 'POST',
        path: '/campaigns/audience-count/',
        body: audience,
        schema: AudienceCountSchema,
      }),
    ),
    loadPreview: apiCall((templateId: number) =>
      apiRequestText(
        { method: 'GET', path: `/campaigns/email-templates/${templateId}/preview/` },
        'text/html',
      ),
    ),
    saveCampaign: apiCall(({ id, body }: SaveCampaignRequest) =>
      id === null
        ? apiRequest({ method: 'POST', path: CAMPAIGNS, body, schema: CampaignSchema })
        : apiRequest({ method: 'PUT', path: `${CAMPAIGNS}${id}/`, body, schema: CampaignSchema }),
    ),
    saveEmail: apiCall(({ exists, body }: SaveEmailRequest) =>
      apiRequest({
        method: exists ? 'PATCH' : 'POST',
        path: EMAIL_CAMPAIGNS,
        body,
        schema: EmailCampaignSchema,
      }),
    ),
    sendTest: apiCall((body: SendTest) =>
      apiRequest({ method: 'POST', path: '/campaigns/send-test/', body, schema: SendTestResultSchema }),
    ),
    sendCampaign: apiCall((id: number) =>
      apiRequest({ method: 'POST', path: `${CAMPAIGNS}${id}/send/`, schema: CampaignSendResultSchema }).pipe(
        map((answer) => answer.campaign),
      ),
    ),
    loadProgress: apiCall((id: number) =>
      apiRequest({ method: 'GET', path: `${CAMPAIGNS}${id}/progress/`, schema: CampaignProgressSchema }),
    ),
    campaignAction: apiCall(({ id, action }: CampaignActionRequest) =>
      apiRequest({ method: 'POST', path: `${CAMPAIGNS}${id}/${action}/`, schema: CampaignSchema }),
    ),
  },
});
