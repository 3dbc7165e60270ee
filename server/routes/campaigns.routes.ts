import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AudienceCountSchema,
  CampaignAudienceSchema,
  CampaignCreateSchema,
  CampaignListQuerySchema,
  CampaignPageSchema,
  CampaignProgressSchema,
  CampaignSchema,
  CampaignSendResultSchema,
  CampaignSummaryPageSchema,
  CampaignSummaryQuerySchema,
  CampaignUpdateSchema,
  EmailCampaignCreateSchema,
  EmailCampaignListQuerySchema,
  EmailCampaignPageSchema,
  EmailCampaignPatchSchema,
  EmailCampaignSchema,
  SendTestResultSchema,
  SendTestSchema,
} from '../../src/schemas/campaigns.js';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { CampaignSendingService } from '../services/campaign-sending.service.js';
import type { CampaignTestSendService } from '../services/campaign-test-send.service.js';
import type { CampaignsService } from '../services/campaigns.service.js';
import { recordRoutes } from './support/record-routes.js';

const errors = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
};
const tags = ['Campaigns'];
const READ = access('Campaigns', 'analyst');
const WRITE = access('Campaigns', 'marketer');
const BASE = '/campaigns/campaigns/';
const EMAIL = '/campaigns/email-campaigns/';

/** The services the campaign routes call. */
export interface CampaignRouteServices {
  campaigns: CampaignsService;
  sending: CampaignSendingService;
  testSends: CampaignTestSendService;
}

/** Campaigns (spec §7 Campaigns calls; docs/campaigns.md): drafts, content, sending, progress, test sends. */
export function campaignsRoutes({
  campaigns,
  sending,
  testSends,
}: CampaignRouteServices): FastifyPluginAsyncZod {
  return async (app) => {
    recordRoutes(
      app,
      { base: BASE, tags, errors, read: READ, write: WRITE },
      {
        list: {
          summary: 'List campaigns, newest first, searched by name (q) and status',
          query: CampaignListQuerySchema,
          page: CampaignPageSchema,
          rows: (companyId, query, window) =>
            campaigns.list(companyId, { q: query.q, status: query.status, ...window }),
        },
        create: {
          summary: 'Create a draft campaign (only the name is needed)',
          body: CampaignCreateSchema,
          record: CampaignSchema,
          run: (scope, body) => campaigns.create(scope, body),
        },
        get: {
          summary: 'One campaign with its audience, content, schedule and figures',
          record: CampaignSchema,
          run: (companyId, id) => campaigns.get(companyId, id),
        },
        update: {
          summary: 'Save the whole draft (a scheduled campaign goes back to draft); 409 once sending or sent',
          body: CampaignUpdateSchema,
          record: CampaignSchema,
          run: (scope, id, body) => campaigns.update(scope, id, body),
        },
        remove: {
          summary:
            'Delete a campaign; a run still sending is cancelled first (sent runs stay for the figures)',
          run: (scope, id) => campaigns.remove(scope, id, sending.cancelActiveRuns),
        },
      },
    );

    app.post(
      `${BASE}:id/send/`,
      {
        config: WRITE,
        schema: {
          tags,
          summary:
            'Send now (sending) or schedule (scheduled); 400 naming what is missing, 409 from another status',
          params: IdParamSchema,
          response: { 200: CampaignSendResultSchema, ...errors },
        },
      },
      async (request) => ({ campaign: await sending.send(writeScopeOf(request), request.params.id) }),
    );

    for (const action of ['pause', 'resume', 'cancel'] as const) {
      app.post(
        `${BASE}:id/${action}/`,
        {
          config: WRITE,
          schema: {
            tags,
            summary: `${action[0]!.toUpperCase()}${action.slice(1)} the campaign and its active run; 409 from a status that cannot`,
            params: IdParamSchema,
            response: { 200: CampaignSchema, ...errors },
          },
        },
        async (request) => sending[action](writeScopeOf(request), request.params.id),
      );
    }

    app.get(
      `${BASE}:id/progress/`,
      {
        config: READ,
        schema: {
          tags,
          summary:
            "The runs' messages by status, human opens, clicks and unsubscribes (polled while sending)",
          params: IdParamSchema,
          response: { 200: CampaignProgressSchema, ...errors },
        },
      },
      async (request) => campaigns.progress(companyOf(request), request.params.id),
    );

    app.get(
      '/campaigns/campaigns-summary/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'One row per campaign with its figures (the campaign list)',
          querystring: CampaignSummaryQuerySchema,
          response: { 200: CampaignSummaryPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await campaigns.summary(companyOf(request), {
          q: query.q,
          status: query.status,
          ...pageWindow(query),
        });
        return toPage(request, query, count, results);
      },
    );

    app.get(
      EMAIL,
      {
        config: READ,
        schema: {
          tags,
          summary: "Campaigns' email content, of one campaign with ?campaign_id=",
          querystring: EmailCampaignListQuerySchema,
          response: { 200: EmailCampaignPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await campaigns.listEmailCampaigns(companyOf(request), {
          campaignId: query.campaign_id,
          ...pageWindow(query),
        });
        return toPage(request, query, count, results);
      },
    );

    app.post(
      EMAIL,
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Give a campaign its content (template, subject, preheader, sender); 409 when it has one',
          body: EmailCampaignCreateSchema,
          response: { 201: EmailCampaignSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await campaigns.createEmailCampaign(writeScopeOf(request), request.body)),
    );

    app.patch(
      EMAIL,
      {
        config: WRITE,
        schema: {
          tags,
          summary: "Change the named campaign's content (made when it has none)",
          body: EmailCampaignPatchSchema,
          response: { 200: EmailCampaignSchema, ...errors },
        },
      },
      async (request) => campaigns.patchEmailCampaign(writeScopeOf(request), request.body),
    );

    app.post(
      '/campaigns/audience-count/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'The live recipient count of an audience, and the members left out as suppressed',
          body: CampaignAudienceSchema,
          response: { 200: AudienceCountSchema, ...errors },
        },
      },
      async (request) => campaigns.audienceCount(companyOf(request), request.body),
    );

    app.post(
      '/campaigns/send-test/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Send the content to up to five addresses, [Test] before the subject, not counted as sent',
          body: SendTestSchema,
          response: { 200: SendTestResultSchema, 429: ApiErrorSchema, 502: ApiErrorSchema, ...errors },
        },
      },
      async (request) => testSends.send(writeScopeOf(request), request.body),
    );
  };
}
