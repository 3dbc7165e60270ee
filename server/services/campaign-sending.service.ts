import type { Campaign } from '../../src/schemas/campaigns.js';
import { nextSendAt, type CampaignSchedule } from '../../src/schemas/campaign-schedule.js';
import type { CompanyId, Database, Sql } from '../db/database.js';
import { ApiError, fieldFailure, invalid, notFound } from '../http/errors.js';
import { audienceSubscribers, countAudience } from '../repositories/campaign-audience.repository.js';
import {
  assertAudienceOwned,
  campaignRunIds,
  campaignRunKeyTaken,
  companyTimeZone,
  findDueCampaigns,
  findSettledCampaigns,
  getCampaign,
  SENDABLE_CAMPAIGN_STATUSES,
  setCampaignState,
  type CampaignRow,
} from '../repositories/campaigns.repository.js';
import { changeRunStatus, findCompanyMailIdentity } from '../repositories/mail-runs.repository.js';
import { UnknownReferenceError } from '../repositories/references.js';
import type { WriteScope } from '../repositories/scope.js';
import { audienceSelectionOf, referenceProblem, sendableContent } from './campaign-content.js';
import { loadCampaign } from './campaigns.service.js';
import { freezeRunIn, postalAddressRequired } from './mail-runs.service.js';

/**
 * Sending campaigns (docs/campaigns.md, "Sending" and "Scheduling"): the send action (validate, then freeze a run
 * now or schedule the next instant), pause, resume and cancel on the campaign and its active run, and the
 * scheduler's turn that creates each due run exactly once and settles campaigns whose runs finished.
 */

/** Where scheduler work is attributed in the audit log: the system, for the campaign's company. */
function systemScope(companyId: CompanyId): WriteScope {
  return { companyId, userId: null, actorUserId: null };
}

/** A campaign's schedule fields. */
function scheduleOf(row: CampaignRow): CampaignSchedule {
  return {
    repeat_on: row.repeat_on,
    start: row.start,
    end: row.end,
    selectedDays: row.selected_days,
    schedules: row.schedules,
  };
}

/**
 * The first instant a send action schedules, or null for "send now" (`once` without `start`); 400 naming the
 * field for a schedule that can never send.
 */
function firstInstant(row: CampaignRow, zone: string, now: Date): Date | null {
  if (row.repeat_on === 'once' && !row.start) return null;
  if (row.schedules.length === 0)
    throw invalid({ schedules: fieldFailure('required', 'Give the time of day it sends') });
  if (row.repeat_on === 'weekly' && row.selected_days.length === 0)
    throw invalid({ selectedDays: fieldFailure('required', 'Choose the weekdays it sends on') });
  if (row.repeat_on === 'monthly' && !row.start)
    throw invalid({ start: fieldFailure('required', 'A monthly campaign sends on the day of its start') });
  const next = nextSendAt(scheduleOf(row), zone, now);
  if (!next) {
    const field = row.repeat_on === 'once' ? 'start' : 'end';
    throw invalid({ [field]: fieldFailure('not_valid', 'No send time is left: it is in the past') });
  }
  return next;
}

/**
 * Everything a send needs, checked in the caller's transaction: the audience's ids still the company's (404 naming
 * the field), the content (400 naming each field), the postal address (`postal_address_required`) and someone to
 * send to (400 naming `audience`). Answers the content and the audience's selection.
 */
async function checkSendable(sql: Sql, scope: WriteScope, row: CampaignRow) {
  try {
    await assertAudienceOwned(sql, scope.companyId, row);
  } catch (error) {
    if (error instanceof UnknownReferenceError) referenceProblem(error);
    throw error;
  }
  const content = await sendableContent(sql, scope.companyId, row.id);
  const company = await findCompanyMailIdentity(sql, scope.companyId);
  if (!company?.postal_address.trim()) throw postalAddressRequired();
  const selection = await audienceSelectionOf(sql, scope.companyId, row);
  const counted = await countAudience(sql, scope.companyId, selection);
  if (counted.recipients === 0)
    throw invalid({ audience: fieldFailure('required', 'The audience has no one to send to') });
  return { content, selection };
}

/** 409 when a campaign is in none of `from`. */
function assertStatus(row: CampaignRow, from: readonly string[], action: string): void {
  if (!from.includes(row.status))
    throw new ApiError(409, 'campaign_status', `A ${row.status} campaign cannot ${action}`);
}

/** How the sending service reaches the rest of the installation. */
export interface CampaignSendingOptions {
  /** The installation's host, for Message-IDs. */
  domain: string;
  /** Tells the send runner a run was just frozen. */
  wake?: () => void;
  /** The clock (tests move it). */
  now?: () => Date;
}

/** The campaign-sending service over one database. */
export function campaignSendingService(db: Database, options: CampaignSendingOptions) {
  const now = options.now ?? (() => new Date());
  const wake = options.wake ?? (() => undefined);

  /** Freezes the campaign's run of `runKey` in `sql`, after every check; the run's id and recipients. */
  async function freeze(sql: Sql, scope: WriteScope, row: CampaignRow, runKey: string) {
    const { content, selection } = await checkSendable(sql, scope, row);
    return freezeRunIn(sql, scope, options.domain, {
      kind: 'campaign',
      sourceId: row.id,
      runKey,
      content,
      audience: { subscribers: audienceSubscribers(scope.companyId, selection) },
    });
  }

  /** Cancels the campaign's sending or paused runs (their unclaimed messages are cancelled). */
  async function cancelActiveRuns(sql: Sql, scope: WriteScope, id: number): Promise<void> {
    for (const runId of await campaignRunIds(sql, scope.companyId, id, ['sending', 'paused'])) {
      await changeRunStatus(sql, scope, runId, ['sending', 'paused'], 'cancelled');
    }
  }

  /** Locks the company's email campaign, 404 unless it is one. */
  async function lockCampaign(sql: Sql, companyId: CompanyId, id: number): Promise<CampaignRow> {
    const row = await getCampaign(sql, companyId, id, true);
    if (!row || row.kind !== 'email') throw notFound('Campaign');
    return row;
  }

  return {
    cancelActiveRuns,

    /**
     * The send action: checks everything a send needs (400 naming each field, `postal_address_required`, an
     * empty audience), then freezes a run now (`sending`) or schedules the first instant (`scheduled`).
     */
    async send(scope: WriteScope, id: number): Promise<Campaign> {
      let frozen = false;
      const campaign = await db.tenant(scope.companyId, async (sql) => {
        const row = await lockCampaign(sql, scope.companyId, id);
        assertStatus(row, SENDABLE_CAMPAIGN_STATUSES, 'be sent');
        const zone = await companyTimeZone(sql, scope.companyId);
        const at = firstInstant(row, zone, now());
        if (at === null) {
          // A campaign sent now again (after a cancel) gets a key of its own: the first run keeps 'now'.
          const key = (await campaignRunKeyTaken(sql, scope.companyId, id, 'now'))
            ? `now:${now().toISOString()}`
            : 'now';
          await freeze(sql, scope, row, key);
          await setCampaignState(sql, scope, id, { status: 'sending', nextRunAt: null });
          frozen = true;
        } else {
          // Everything is checked now, so a scheduled send does not fail later for a reason known today.
          await checkSendable(sql, scope, row);
          await setCampaignState(sql, scope, id, { status: 'scheduled', nextRunAt: at });
        }
        return (await loadCampaign(sql, scope.companyId, id))!;
      });
      if (frozen) wake();
      return campaign;
    },

    /** Pauses a scheduled or sending campaign: its active run stops between batches, nothing new is created. */
    async pause(scope: WriteScope, id: number): Promise<Campaign> {
      return db.tenant(scope.companyId, async (sql) => {
        const row = await lockCampaign(sql, scope.companyId, id);
        assertStatus(row, ['scheduled', 'sending'], 'be paused');
        for (const runId of await campaignRunIds(sql, scope.companyId, id, ['sending'])) {
          await changeRunStatus(sql, scope, runId, ['sending'], 'paused');
        }
        await setCampaignState(sql, scope, id, { status: 'paused', nextRunAt: row.next_run_at });
        return (await loadCampaign(sql, scope.companyId, id))!;
      });
    },

    /**
     * Resumes a paused campaign: its paused run sends again (`sending`), or it waits for its next instant
     * (`scheduled`; an instant missed while paused sends at once, as one run).
     */
    async resume(scope: WriteScope, id: number): Promise<Campaign> {
      let resumed = false;
      const campaign = await db.tenant(scope.companyId, async (sql) => {
        const row = await lockCampaign(sql, scope.companyId, id);
        assertStatus(row, ['paused'], 'be resumed');
        const paused = await campaignRunIds(sql, scope.companyId, id, ['paused']);
        for (const runId of paused) await changeRunStatus(sql, scope, runId, ['paused'], 'sending');
        resumed = paused.length > 0;
        const status = resumed ? 'sending' : row.next_run_at ? 'scheduled' : 'sent';
        await setCampaignState(sql, scope, id, { status, nextRunAt: row.next_run_at });
        return (await loadCampaign(sql, scope.companyId, id))!;
      });
      if (resumed) wake();
      return campaign;
    },

    /** Cancels a scheduled, sending or paused campaign and its active run; nothing more is sent. */
    async cancel(scope: WriteScope, id: number): Promise<Campaign> {
      return db.tenant(scope.companyId, async (sql) => {
        const row = await lockCampaign(sql, scope.companyId, id);
        assertStatus(row, ['scheduled', 'sending', 'paused'], 'be cancelled');
        await cancelActiveRuns(sql, scope, id);
        await setCampaignState(sql, scope, id, { status: 'cancelled', nextRunAt: null });
        return (await loadCampaign(sql, scope.companyId, id))!;
      });
    },

    /**
     * One scheduler turn at `at`: settles campaigns whose runs finished (sent, or scheduled again), then creates
     * the run of every due instant (each in its own transaction, under the campaign's row lock, with the instant
     * as run key, so two processes never create two runs for it). Answers how many runs it created.
     */
    async tick(at: Date = now(), limit = 50): Promise<number> {
      let created = 0;
      // Settled first: a repeating campaign whose run just finished is due again in the same turn.
      for (const done of await db.platform((sql) => findSettledCampaigns(sql, limit))) {
        await db.tenant(done.company_id, async (sql) => {
          const row = await getCampaign(sql, done.company_id, done.id, true);
          if (!row || row.status !== 'sending') return;
          if ((await campaignRunIds(sql, done.company_id, row.id, ['sending', 'paused'])).length > 0) return;
          await setCampaignState(sql, systemScope(done.company_id), row.id, {
            status: row.next_run_at ? 'scheduled' : 'sent',
            nextRunAt: row.next_run_at,
          });
        });
      }
      for (const due of await db.platform((sql) => findDueCampaigns(sql, at, limit))) {
        created += await db.tenant(due.company_id, async (sql) => {
          const scope = systemScope(due.company_id);
          const row = await getCampaign(sql, due.company_id, due.id, true);
          // Another process took this instant meanwhile (it moved next_run_at), or the campaign changed.
          if (!row || row.status !== 'scheduled' || !row.next_run_at || row.next_run_at > at) return 0;
          const zone = await companyTimeZone(sql, due.company_id);
          const instant = row.next_run_at;
          // Instants missed while no process ran collapse into this one run.
          const following = nextSendAt(scheduleOf(row), zone, at > instant ? at : instant);
          try {
            const frozen = await freeze(sql, scope, row, instant.toISOString());
            await setCampaignState(sql, scope, row.id, { status: 'sending', nextRunAt: following });
            return frozen.created ? 1 : 0;
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            // What made it unsendable (a sender deleted, an empty audience) needs a person: it waits paused.
            await setCampaignState(sql, scope, row.id, { status: 'paused', nextRunAt: following });
            return 0;
          }
        });
      }
      if (created > 0) wake();
      return created;
    },
  };
}

/** The campaign-sending service's calls. */
export type CampaignSendingService = ReturnType<typeof campaignSendingService>;
