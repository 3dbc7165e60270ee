import { setImmediate as nextTick } from 'node:timers/promises';
import {
  emptyHistories,
  type CompanyFitInput,
  type CompanyFitResult,
  type CompanyHistories,
} from '../clv/company-fit.js';
import { fitOffThread } from '../clv/fit-off-thread.js';
import type { LifetimeValueSettings } from '../clv/lifetime-value.js';
import type { CompanyId, Database, Sql } from '../db/database.js';
import {
  findClvSettings,
  guestPageEnd,
  guestVisitHistories,
  replaceGuestPredictions,
  saveClvFit,
  type ClvFitRow,
  type GuestPredictionRow,
  type GuestVisitHistoryRow,
  type NewClvFit,
} from '../repositories/clv.repository.js';

export { MIN_REPEAT_GUESTS_FOR_MODEL } from '../clv/company-fit.js';

/**
 * Guests whose histories are read per transaction. On PGlite a transaction holds the event loop (20,000 demo guests
 * took 5–7 s in one), so short pages with a turn between let requests in; PostgreSQL reads apart from it.
 */
const HISTORY_PAGE_GUESTS = { pglite: 500, postgres: 50_000 } as const;

/** Today's date (YYYY-MM-DD) in a time zone. */
function todayIn(timeZone: string, now: Date): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

function historyColumns(rows: readonly GuestVisitHistoryRow[]): CompanyHistories {
  const columns = emptyHistories(rows.length);
  rows.forEach((row, index) => {
    columns.visits[index] = row.visits;
    columns.repeatVisits[index] = row.repeat_visits;
    columns.firstToLastDays[index] = row.first_to_last_days;
    columns.firstToEndDays[index] = row.first_to_end_days;
    // bigint columns may arrive as text from PostgreSQL.
    columns.spendCents[index] = Number(row.spend_cents);
    columns.repeatSpendCents[index] = Number(row.repeat_spend_cents);
    columns.lastYearVisits[index] = row.last_year_visits;
    columns.lastYearSpendCents[index] = Number(row.last_year_spend_cents);
  });
  return columns;
}

function predictionRows(guestIds: readonly number[], fit: CompanyFitResult): GuestPredictionRow[] {
  const columns = fit.predictions;
  return guestIds.map((guestId, index) => {
    const alive = columns.probabilityAlive[index]!;
    return {
      guest_id: guestId,
      probability_alive: Number.isNaN(alive) ? null : alive,
      expected_visits_next_year: columns.expectedVisitsNextYear[index]!,
      expected_spend_per_visit_cents: columns.expectedSpendPerVisitCents[index]!,
      annual_clv_cents: columns.annualClvCents[index]!,
      clv_cents: columns.clvCents[index]!,
    };
  });
}

/** How `refreshCompanyClv` runs; the defaults suit the product. */
export interface RefreshOptions {
  /** The clock the calibration day is taken from. */
  now?: Date;
  /** Fits the histories; by default in a worker thread (`fitOffThread`), never on the event loop. */
  fit?: (input: CompanyFitInput, signal?: AbortSignal) => Promise<CompanyFitResult>;
  /** Guests read per transaction; by default `HISTORY_PAGE_GUESTS` for the database. */
  historyPageGuests?: number;
  /** Stops a fit in progress: nothing is written. */
  signal?: AbortSignal;
  /**
   * Runs first in the write transaction and throws to refuse the write (the CLV job checks that it still
   * holds its claim, so a job taken over by another process never writes).
   */
  beforeWrite?: (sql: Sql) => Promise<void>;
}

/**
 * Fits the company's CLV models to every guest's checks up to today (in the company's time zone) and replaces
 * the guests' predicted figures: probability alive, visits in the next year, spend per visit, annual CLV and
 * CLV over the company's horizon at its discount rate (docs/clv.md). With fewer than
 * `MIN_REPEAT_GUESTS_FOR_MODEL` repeat guests (or a spend fit without a finite mean) it stores historical
 * figures instead, marked so. The histories are read in pages of guests (short transactions), fitted in a worker
 * thread, and the fit and figures written in one transaction, so the fit itself holds no locks and readers see the old
 * figures or the new ones, never a mix.
 */
export async function refreshCompanyClv(
  db: Database,
  companyId: CompanyId,
  options: RefreshOptions = {},
): Promise<ClvFitRow> {
  const settings = await db.tenant(companyId, (sql) => findClvSettings(sql, companyId));
  if (!settings) throw new Error(`Company ${companyId} does not exist`);
  const calibrationEnd = todayIn(settings.time_zone, options.now ?? new Date());
  const histories: GuestVisitHistoryRow[] = [];
  // Page by page, each its own transaction: a guest's history is whole in one page, so pages need no common snapshot.
  for (let after = 0; ;) {
    const page = await db.tenant(companyId, async (sql) => {
      const upTo = await guestPageEnd(
        sql,
        companyId,
        after,
        options.historyPageGuests ?? HISTORY_PAGE_GUESTS[db.kind],
      );
      if (upTo === null) return null;
      const rows = await guestVisitHistories(sql, companyId, calibrationEnd, settings.time_zone, {
        after,
        upTo,
      });
      return { upTo, rows };
    });
    if (!page) break;
    for (const row of page.rows) histories.push(row);
    after = page.upTo;
    options.signal?.throwIfAborted();
    await nextTick();
  }
  const lifetime: LifetimeValueSettings = {
    horizonYears: Number(settings.clv_horizon_years),
    discountRate: Number(settings.clv_discount_rate),
  };
  const guestIds = histories.map((row) => Number(row.guest_id));
  const fitter = options.fit ?? fitOffThread;
  const result = await fitter({ histories: historyColumns(histories), lifetime }, options.signal);
  const fit: NewClvFit = {
    calibration_end: calibrationEnd,
    guests: guestIds.length,
    repeat_guests: result.repeatGuests,
    horizon_years: lifetime.horizonYears,
    discount_rate: lifetime.discountRate,
    method: result.method,
    ...(result.parameters ?? {
      r: null,
      alpha: null,
      a: null,
      b: null,
      log_likelihood: null,
      p: null,
      q: null,
      gamma: null,
    }),
  };
  const predictions = predictionRows(guestIds, result);
  options.signal?.throwIfAborted();
  return db.tenant(companyId, async (sql) => {
    await options.beforeWrite?.(sql);
    await replaceGuestPredictions(sql, companyId, predictions);
    return saveClvFit(sql, companyId, fit);
  });
}
