import type {
  AudienceCount,
  Campaign,
  CampaignAudience,
  CampaignCreateSchema,
  CampaignProgress,
  CampaignSummaryRow,
  EmailCampaign,
  EmailCampaignInput,
  SendCounts,
} from '../../src/schemas/campaigns.js';
import type { z } from 'zod';
import type { CompanyId, Database, Sql } from '../db/database.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import { countAudience } from '../repositories/campaign-audience.repository.js';
import {
  assertAudienceOwned,
  campaignFigures,
  campaignRuns,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  listCampaignSummaries,
  NO_FIGURES,
  setCampaignState,
  updateCampaign,
  type CampaignFields,
  type CampaignFigures,
  type CampaignFilter,
  type CampaignRow,
  type CampaignStatus,
} from '../repositories/campaigns.repository.js';
import {
  copyTemplateContent,
  createEmailCampaign,
  EmailCampaignExistsError,
  getEmailCampaign,
  listEmailCampaigns,
  updateEmailCampaign,
  type EmailCampaignRow,
} from '../repositories/email-campaigns.repository.js';
import { UnknownReferenceError } from '../repositories/references.js';
import type { WriteScope } from '../repositories/scope.js';
import { audienceSelectionOf, referenceProblem } from './campaign-content.js';

/**
 * Campaigns (docs/campaigns.md): the drafts the campaign editor saves at every step, their email content, the
 * list with figures, the live audience count and a campaign's progress. Sending, the actions after it and the
 * scheduler are in campaign-sending.service.ts; test sends in campaign-test-send.service.ts.
 */

/** A campaign's body as the create and update calls receive it (after the schema's defaults). */
export type CampaignBody = z.output<typeof CampaignCreateSchema>;

/** Statuses a campaign can no longer be edited in (409). */
const LOCKED_STATUSES: readonly CampaignStatus[] = ['sending', 'sent'];

/** An email content row as the API answers it. */
export function presentEmailCampaign(row: EmailCampaignRow): EmailCampaign {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    template_id: row.template_id,
    sender_id: row.sender_id,
    subject: row.subject,
    preheader: row.preheader,
    tracking: row.tracking,
    updated_at: row.updated_at.toISOString(),
  };
}

function countsOf(figures: CampaignFigures): SendCounts {
  return {
    queued: figures.queued,
    sending: figures.sending,
    sent: figures.sent,
    failed: figures.failed,
    suppressed: figures.suppressed,
    cancelled: figures.cancelled,
  };
}

/** A campaign row with its content and figures as the API answers it. */
export function presentCampaign(
  row: CampaignRow,
  email: EmailCampaignRow | null,
  figures: CampaignFigures = NO_FIGURES,
): Campaign {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    audience: {
      segment_ids: row.segment_ids,
      list_ids: row.list_ids,
      location_ids: row.location_ids,
      location_group_ids: row.location_group_ids,
    },
    email: email ? presentEmailCampaign(email) : null,
    start: row.start,
    end: row.end,
    repeat_on: row.repeat_on,
    selectedDays: row.selected_days as Campaign['selectedDays'],
    schedules: row.schedules,
    categories: row.categories as Campaign['categories'],
    next_run_at: row.next_run_at?.toISOString() ?? null,
    last_sent_at: figures.last_sent_at?.toISOString() ?? null,
    counts: countsOf(figures),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The campaign with its content and figures, read in the caller's transaction; null when not this company's. */
export async function loadCampaign(sql: Sql, companyId: CompanyId, id: number): Promise<Campaign | null> {
  const row = await getCampaign(sql, companyId, id);
  if (!row || row.kind !== 'email') return null;
  const email = await getEmailCampaign(sql, companyId, id);
  const figures = (await campaignFigures(sql, companyId, [id])).get(id);
  return presentCampaign(row, email, figures);
}

/** The body's fields as the repository takes them; 400 naming `end` when it comes before `start`. */
function fieldsOf(body: CampaignBody): CampaignFields {
  if (body.start && body.end && body.end < body.start)
    throw invalid({ end: fieldFailure('not_valid', 'end must not be before start') });
  return {
    name: body.name,
    segment_ids: body.audience.segment_ids,
    list_ids: body.audience.list_ids,
    location_ids: body.audience.location_ids,
    location_group_ids: body.audience.location_group_ids,
    start: body.start,
    end: body.end,
    repeat_on: body.repeat_on,
    categories: [...new Set(body.categories)],
    selected_days: [...new Set(body.selectedDays)],
    schedules: [...new Set(body.schedules)],
  };
}

/** 409 for a campaign that is sending or sent. */
export function assertEditable(row: CampaignRow): void {
  if (LOCKED_STATUSES.includes(row.status)) {
    throw new ApiError(409, 'campaign_locked', `A ${row.status} campaign cannot be changed`);
  }
}

/** Runs `fn`, a repository's UnknownReferenceError becoming a 404 naming the field. */
async function withReferences<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof UnknownReferenceError) referenceProblem(error);
    throw error;
  }
}

/** The campaigns service over one database. */
export function campaignsService(db: Database) {
  async function present(companyId: CompanyId, rows: CampaignRow[], sql: Sql): Promise<Campaign[]> {
    const ids = rows.map((row) => row.id);
    const figures = await campaignFigures(sql, companyId, ids);
    const emails = await Promise.all(ids.map((id) => getEmailCampaign(sql, companyId, id)));
    return rows.map((row, index) => presentCampaign(row, emails[index] ?? null, figures.get(row.id)));
  }

  return {
    async list(companyId: CompanyId, filter: CampaignFilter) {
      return db.tenant(companyId, async (sql) => {
        const page = await listCampaigns(sql, companyId, filter);
        return { count: page.count, results: await present(companyId, page.rows, sql) };
      });
    },

    async get(companyId: CompanyId, id: number): Promise<Campaign> {
      const campaign = await db.tenant(companyId, (sql) => loadCampaign(sql, companyId, id));
      if (!campaign) throw notFound('Campaign');
      return campaign;
    },

    async create(scope: WriteScope, body: CampaignBody): Promise<Campaign> {
      const fields = fieldsOf(body);
      return db.tenant(scope.companyId, async (sql) => {
        const row = await withReferences(() => createCampaign(sql, scope, fields));
        return presentCampaign(row, null);
      });
    },

    /** Replaces a draft's fields; a scheduled one goes back to draft (it is sent again with the send action). */
    async update(scope: WriteScope, id: number, body: CampaignBody): Promise<Campaign> {
      const fields = fieldsOf(body);
      return db.tenant(scope.companyId, async (sql) => {
        const before = await getCampaign(sql, scope.companyId, id, true);
        if (!before || before.kind !== 'email') throw notFound('Campaign');
        assertEditable(before);
        await withReferences(() => updateCampaign(sql, scope, id, fields));
        if (before.status === 'scheduled') {
          await setCampaignState(sql, scope, id, { status: 'draft', nextRunAt: null });
        }
        return (await loadCampaign(sql, scope.companyId, id))!;
      });
    },

    /** Deletes a campaign; `cancelRuns` first cancels a sending or paused run (campaign-sending.service.ts). */
    async remove(
      scope: WriteScope,
      id: number,
      cancelRuns: (sql: Sql, scope: WriteScope, id: number) => Promise<void>,
    ): Promise<void> {
      await db.tenant(scope.companyId, async (sql) => {
        const row = await getCampaign(sql, scope.companyId, id, true);
        if (!row || row.kind !== 'email') throw notFound('Campaign');
        await cancelRuns(sql, scope, id);
        await deleteCampaign(sql, scope, id);
      });
    },

    async summary(companyId: CompanyId, filter: CampaignFilter) {
      return db.tenant(companyId, async (sql) => {
        const page = await listCampaignSummaries(sql, companyId, filter);
        const figures = await campaignFigures(
          sql,
          companyId,
          page.rows.map((row) => row.id),
        );
        const results = page.rows.map((row): CampaignSummaryRow => {
          const f = figures.get(row.id) ?? NO_FIGURES;
          const rate = (part: number) => (f.sent > 0 ? Math.round((part / f.sent) * 10_000) / 100 : 0);
          return {
            id: row.id,
            name: row.name,
            status: row.status,
            repeat_on: row.repeat_on,
            categories: row.categories as CampaignSummaryRow['categories'],
            template_name: row.template_name,
            next_run_at: row.next_run_at?.toISOString() ?? null,
            last_sent_at: f.last_sent_at?.toISOString() ?? null,
            recipients: f.recipients,
            sent: f.sent,
            failed: f.failed,
            opened: f.opened,
            clicked: f.clicked,
            unsubscribed: f.unsubscribed,
            open_rate: rate(f.opened),
            click_rate: rate(f.clicked),
            updated_at: row.updated_at.toISOString(),
          };
        });
        return { count: page.count, results };
      });
    },

    /** Who would receive the audience now, and how many members are left out as unsubscribed or suppressed. */
    async audienceCount(companyId: CompanyId, audience: CampaignAudience): Promise<AudienceCount> {
      return db.tenant(companyId, async (sql) => {
        await withReferences(() => assertAudienceOwned(sql, companyId, audience));
        const selection = await audienceSelectionOf(sql, companyId, audience);
        return countAudience(sql, companyId, selection);
      });
    },

    async progress(companyId: CompanyId, id: number): Promise<CampaignProgress> {
      return db.tenant(companyId, async (sql) => {
        const campaign = await loadCampaign(sql, companyId, id);
        if (!campaign) throw notFound('Campaign');
        const figures = (await campaignFigures(sql, companyId, [id])).get(id) ?? NO_FIGURES;
        const runs = await campaignRuns(sql, companyId, id, 20);
        return {
          campaign_id: id,
          status: campaign.status,
          counts: countsOf(figures),
          runs: runs.map((run) => ({
            id: run.id,
            run_key: run.run_key,
            status: run.status,
            recipients: run.recipients,
            counts: countsOf({ ...NO_FIGURES, ...run }),
            created_at: run.created_at.toISOString(),
            finished_at: run.finished_at?.toISOString() ?? null,
          })),
          opened: figures.opened,
          clicked: figures.clicked,
          unsubscribed: figures.unsubscribed,
        };
      });
    },

    async listEmailCampaigns(
      companyId: CompanyId,
      window: { limit: number; offset: number; campaignId?: number | undefined },
    ) {
      return db.tenant(companyId, async (sql) => {
        const page = await listEmailCampaigns(sql, companyId, window);
        return { count: page.count, results: page.rows.map(presentEmailCampaign) };
      });
    },

    /** Gives a campaign its content (once: 409 after); 404 naming the campaign, template or sender of another company. */
    async createEmailCampaign(scope: WriteScope, input: EmailCampaignInput): Promise<EmailCampaign> {
      return db.tenant(scope.companyId, async (sql) => {
        const campaign = await getCampaign(sql, scope.companyId, input.campaign_id, true);
        if (!campaign || campaign.kind !== 'email') throw referenceNotFound('campaign_id', input.campaign_id);
        assertEditable(campaign);
        try {
          await withReferences(() => createEmailCampaign(sql, scope, input));
        } catch (error) {
          if (error instanceof EmailCampaignExistsError) {
            throw new ApiError(
              409,
              'email_campaign_exists',
              'This campaign already has its content: PATCH it',
              {
                campaign_id: fieldFailure('in_use', 'This campaign already has its content'),
              },
            );
          }
          throw error;
        }
        await copyTemplateContent(sql, scope.companyId, input.campaign_id);
        return presentEmailCampaign((await getEmailCampaign(sql, scope.companyId, input.campaign_id))!);
      });
    },

    /** Changes the named campaign's content (created when it has none, so the editor's steps can always PATCH). */
    async patchEmailCampaign(scope: WriteScope, input: EmailCampaignInput): Promise<EmailCampaign> {
      return db.tenant(scope.companyId, async (sql) => {
        const campaign = await getCampaign(sql, scope.companyId, input.campaign_id, true);
        if (!campaign || campaign.kind !== 'email') throw referenceNotFound('campaign_id', input.campaign_id);
        assertEditable(campaign);
        const { campaign_id: campaignId, ...changes } = input;
        const exists = await getEmailCampaign(sql, scope.companyId, campaignId);
        await withReferences(() =>
          exists
            ? updateEmailCampaign(sql, scope, campaignId, changes)
            : createEmailCampaign(sql, scope, input),
        );
        await copyTemplateContent(sql, scope.companyId, campaignId);
        return presentEmailCampaign((await getEmailCampaign(sql, scope.companyId, campaignId))!);
      });
    },
  };
}

/** 404 naming a field whose id is not one of the company's. */
export function referenceNotFound(field: string, id: number): ApiError {
  return new ApiError(404, 'not_found', `${field} not found: ${id}`, {
    [field]: fieldFailure('not_valid', `Unknown ${field}: ${id}`),
  });
}

/** The campaigns service's calls. */
export type CampaignsService = ReturnType<typeof campaignsService>;
