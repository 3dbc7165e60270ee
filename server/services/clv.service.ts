import { fitBgNbd } from '../clv/bg-nbd.js';
import { fittedParameters } from '../clv/fitted-parameters.js';
import { fitGammaGamma } from '../clv/gamma-gamma.js';
import { predictGuests, type LifetimeValueSettings } from '../clv/lifetime-value.js';
import type { CustomerHistory } from '../clv/purchase-history.js';
import type { CompanyId, Database } from '../db/database.js';
import {
  findClvSettings,
  guestVisitHistories,
  replaceGuestPredictions,
  saveClvFit,
  type ClvFitRow,
  type GuestPredictionRow,
  type GuestVisitHistoryRow,
  type NewClvFit,
} from '../repositories/clv.repository.js';

/**
 * Below this many guests with a repeat visit the models' fit is not trusted (its parameters swing with a few
 * guests), and each guest's last twelve months stand in for the next, marked `historical`.
 */
export const MIN_REPEAT_GUESTS_FOR_MODEL = 200;

const DAYS_PER_WEEK = 7;

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

function modelHistory(row: GuestVisitHistoryRow): Pick<CustomerHistory, 'x' | 'tX' | 'T' | 'monetary'> {
  return {
    x: row.repeat_visits,
    tX: row.first_to_last_days / DAYS_PER_WEEK,
    T: row.first_to_end_days / DAYS_PER_WEEK,
    // Dollars, as the spend model's scale is fitted in them.
    monetary: row.repeat_visits > 0 ? row.repeat_spend_cents / row.repeat_visits / 100 : 0,
  };
}

/** The sum of (1 + rate)^(−month/12) over the horizon's months: a month's value's worth today, summed. */
function discountedMonths({ horizonYears, discountRate }: LifetimeValueSettings): number {
  let total = 0;
  for (let month = 1; month <= Math.round(horizonYears * 12); month++)
    total += 1 / (1 + discountRate) ** (month / 12);
  return total;
}

function historicalPrediction(row: GuestVisitHistoryRow, monthsWorth: number): GuestPredictionRow {
  const spendPerVisit =
    row.last_year_visits > 0
      ? row.last_year_spend_cents / row.last_year_visits
      : row.spend_cents / row.visits;
  return {
    guest_id: row.guest_id,
    probability_alive: null,
    expected_visits_next_year: row.last_year_visits,
    expected_spend_per_visit_cents: Math.round(spendPerVisit),
    annual_clv_cents: row.last_year_spend_cents,
    clv_cents: Math.round((row.last_year_spend_cents / 12) * monthsWorth),
  };
}

/**
 * Fits the company's CLV models to every guest's checks up to today (in the company's time zone) and replaces
 * the guests' predicted figures: probability alive, visits in the next year, spend per visit, annual CLV and
 * CLV over the company's horizon at its discount rate (docs/clv.md). With fewer than
 * `MIN_REPEAT_GUESTS_FOR_MODEL` repeat guests (or a spend fit without a finite mean) it stores historical
 * figures instead, marked so. The histories
 * are read in one transaction and the fit and figures written in another, so the fit itself holds no locks.
 */
export async function refreshCompanyClv(
  db: Database,
  companyId: CompanyId,
  options: { now?: Date } = {},
): Promise<ClvFitRow> {
  const { settings, calibrationEnd, histories } = await db.tenant(companyId, async (sql) => {
    const found = await findClvSettings(sql, companyId);
    if (!found) throw new Error(`Company ${companyId} does not exist`);
    const end = todayIn(found.time_zone, options.now ?? new Date());
    return {
      settings: found,
      calibrationEnd: end,
      histories: await guestVisitHistories(sql, companyId, end, found.time_zone),
    };
  });
  const lifetime: LifetimeValueSettings = {
    horizonYears: settings.clv_horizon_years,
    discountRate: settings.clv_discount_rate,
  };
  const repeatGuests = histories.filter((row) => row.repeat_visits > 0).length;
  const base = {
    calibration_end: calibrationEnd,
    guests: histories.length,
    repeat_guests: repeatGuests,
    horizon_years: lifetime.horizonYears,
    discount_rate: lifetime.discountRate,
  };
  let fit: NewClvFit;
  let predictions: GuestPredictionRow[];
  const modelHistories = histories.map(modelHistory);
  // Too few repeat guests, or spend too uneven for a finite mean spend (q ≤ 1): the model cannot be trusted.
  const visits = repeatGuests >= MIN_REPEAT_GUESTS_FOR_MODEL ? fitBgNbd(modelHistories) : null;
  const spend = visits ? fitGammaGamma(modelHistories) : null;
  if (!visits || !spend || spend.q <= 1) {
    fit = {
      ...base,
      method: 'historical',
      r: null,
      alpha: null,
      a: null,
      b: null,
      log_likelihood: null,
      p: null,
      q: null,
      gamma: null,
    };
    const monthsWorth = discountedMonths(lifetime);
    predictions = histories.map((row) => historicalPrediction(row, monthsWorth));
  } else {
    fit = {
      ...base,
      method: 'model',
      ...fittedParameters(visits, spend),
    };
    predictions = predictGuests(visits, spend, modelHistories, lifetime).map((prediction, index) => ({
      guest_id: histories[index]!.guest_id,
      probability_alive: prediction.probabilityAlive,
      expected_visits_next_year: prediction.expectedVisitsNextYear,
      expected_spend_per_visit_cents: Math.round(prediction.expectedSpendPerVisit * 100),
      annual_clv_cents: Math.round(prediction.annualClv * 100),
      clv_cents: Math.round(prediction.clv * 100),
    }));
  }
  return db.tenant(companyId, async (sql) => {
    await replaceGuestPredictions(sql, companyId, predictions);
    return saveClvFit(sql, companyId, fit);
  });
}
