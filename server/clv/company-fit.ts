import { fitBgNbd } from './bg-nbd.js';
import { fittedParameters, type FittedParameters } from './fitted-parameters.js';
import { fitGammaGamma } from './gamma-gamma.js';
import { predictGuests, type LifetimeValueSettings } from './lifetime-value.js';
import type { CustomerHistory } from './purchase-history.js';

/**
 * The CPU part of a company's CLV refresh, pure: from every guest's visit history to the fit and each guest's
 * figures. Histories and figures travel as columns of typed arrays (index i is the same guest in every
 * column), so they move to and from a worker thread without copying (server/clv/fit-off-thread.ts).
 */

/**
 * Below this many guests with a repeat visit the models' fit is not trusted (its parameters swing with a few
 * guests), and each guest's last twelve months stand in for the next, marked `historical`.
 */
export const MIN_REPEAT_GUESTS_FOR_MODEL = 200;

const DAYS_PER_WEEK = 7;

/** Every guest's visits as of the calibration day, one column per figure (docs/clv.md). */
export interface CompanyHistories {
  visits: Int32Array;
  repeatVisits: Int32Array;
  firstToLastDays: Int32Array;
  firstToEndDays: Int32Array;
  spendCents: Float64Array;
  repeatSpendCents: Float64Array;
  lastYearVisits: Int32Array;
  lastYearSpendCents: Float64Array;
}

/** What a fit needs: the histories and the company's horizon and discount rate. */
export interface CompanyFitInput {
  histories: CompanyHistories;
  lifetime: LifetimeValueSettings;
}

/** Each guest's figures, one column each; probability alive is NaN where unknown (historical). */
export interface CompanyPredictions {
  probabilityAlive: Float64Array;
  expectedVisitsNextYear: Float64Array;
  expectedSpendPerVisitCents: Float64Array;
  annualClvCents: Float64Array;
  clvCents: Float64Array;
}

/** The fit's outcome: the method, the parameters when a model, and every guest's figures. */
export interface CompanyFitResult {
  method: 'model' | 'historical';
  repeatGuests: number;
  parameters: FittedParameters | null;
  predictions: CompanyPredictions;
}

/** Empty columns for `count` guests. */
export function emptyHistories(count: number): CompanyHistories {
  return {
    visits: new Int32Array(count),
    repeatVisits: new Int32Array(count),
    firstToLastDays: new Int32Array(count),
    firstToEndDays: new Int32Array(count),
    spendCents: new Float64Array(count),
    repeatSpendCents: new Float64Array(count),
    lastYearVisits: new Int32Array(count),
    lastYearSpendCents: new Float64Array(count),
  };
}

function emptyPredictions(count: number): CompanyPredictions {
  return {
    probabilityAlive: new Float64Array(count),
    expectedVisitsNextYear: new Float64Array(count),
    expectedSpendPerVisitCents: new Float64Array(count),
    annualClvCents: new Float64Array(count),
    clvCents: new Float64Array(count),
  };
}

function modelHistories(histories: CompanyHistories): Pick<CustomerHistory, 'x' | 'tX' | 'T' | 'monetary'>[] {
  return Array.from(histories.repeatVisits, (x, index) => ({
    x,
    tX: histories.firstToLastDays[index]! / DAYS_PER_WEEK,
    T: histories.firstToEndDays[index]! / DAYS_PER_WEEK,
    // Dollars, as the spend model's scale is fitted in them.
    monetary: x > 0 ? histories.repeatSpendCents[index]! / x / 100 : 0,
  }));
}

/** The sum of (1 + rate)^(−month/12) over the horizon's months: a month's value's worth today, summed. */
function discountedMonths({ horizonYears, discountRate }: LifetimeValueSettings): number {
  let total = 0;
  for (let month = 1; month <= Math.round(horizonYears * 12); month++)
    total += 1 / (1 + discountRate) ** (month / 12);
  return total;
}

function historicalPredictions(
  histories: CompanyHistories,
  lifetime: LifetimeValueSettings,
): CompanyPredictions {
  const count = histories.visits.length;
  const out = emptyPredictions(count);
  const monthsWorth = discountedMonths(lifetime);
  for (let index = 0; index < count; index++) {
    const lastYearVisits = histories.lastYearVisits[index]!;
    const lastYearSpend = histories.lastYearSpendCents[index]!;
    const spendPerVisit =
      lastYearVisits > 0
        ? lastYearSpend / lastYearVisits
        : histories.spendCents[index]! / histories.visits[index]!;
    out.probabilityAlive[index] = Number.NaN;
    out.expectedVisitsNextYear[index] = lastYearVisits;
    out.expectedSpendPerVisitCents[index] = Math.round(spendPerVisit);
    out.annualClvCents[index] = lastYearSpend;
    out.clvCents[index] = Math.round((lastYearSpend / 12) * monthsWorth);
  }
  return out;
}

/**
 * Fits BG/NBD and Gamma-Gamma to the company's histories and predicts every guest (docs/clv.md); with fewer than
 * `MIN_REPEAT_GUESTS_FOR_MODEL` repeat guests, or a spend fit without a finite mean (q ≤ 1), historical figures.
 */
export function fitCompany({ histories, lifetime }: CompanyFitInput): CompanyFitResult {
  let repeatGuests = 0;
  for (const x of histories.repeatVisits) if (x > 0) repeatGuests++;
  const model = modelHistories(histories);
  const visits = repeatGuests >= MIN_REPEAT_GUESTS_FOR_MODEL ? fitBgNbd(model) : null;
  const spend = visits ? fitGammaGamma(model) : null;
  // Too few repeat guests, or spend too uneven for a finite mean spend (q ≤ 1): the model cannot be trusted.
  if (!visits || !spend || spend.q <= 1) {
    return {
      method: 'historical',
      repeatGuests,
      parameters: null,
      predictions: historicalPredictions(histories, lifetime),
    };
  }
  const out = emptyPredictions(model.length);
  predictGuests(visits, spend, model, lifetime).forEach((prediction, index) => {
    out.probabilityAlive[index] = prediction.probabilityAlive;
    out.expectedVisitsNextYear[index] = prediction.expectedVisitsNextYear;
    out.expectedSpendPerVisitCents[index] = Math.round(prediction.expectedSpendPerVisit * 100);
    out.annualClvCents[index] = Math.round(prediction.annualClv * 100);
    out.clvCents[index] = Math.round(prediction.clv * 100);
  });
  return { method: 'model', repeatGuests, parameters: fittedParameters(visits, spend), predictions: out };
}

/** Every buffer behind the columns, for a zero-copy transfer between threads. */
export function buffersOf(columns: object): ArrayBuffer[] {
  return Object.values(columns).map((column) => (column as ArrayBufferView).buffer as ArrayBuffer);
}
