import { expectedPurchases, probabilityAlive, type BgNbdParameters } from './bg-nbd.js';
import { expectedSpend, type GammaGammaParameters } from './gamma-gamma.js';
import type { CustomerHistory } from './purchase-history.js';

/** Weeks in a year of 365.25 days: the models count time in weeks. */
export const WEEKS_PER_YEAR = 365.25 / 7;

/** The company settings CLV depends on (product-spec defaults: 3 years at 10 % a year). */
export interface LifetimeValueSettings {
  horizonYears: number;
  /** Yearly discount rate, 0.1 for 10 %. */
  discountRate: number;
}

/** The default CLV horizon and discount rate. */
export const DEFAULT_LIFETIME_VALUE_SETTINGS: LifetimeValueSettings = { horizonYears: 3, discountRate: 0.1 };

/** What the models predict for one guest. */
export interface GuestPrediction {
  probabilityAlive: number;
  /** Expected visits in the next 12 months ("clf"). */
  expectedVisitsNextYear: number;
  expectedSpendPerVisit: number;
  /** Expected spend in the next 12 months, undiscounted. */
  annualClv: number;
  /** Expected spend over the horizon, each month's discounted to today. */
  clv: number;
}

/** What a guest's visit history alone predicts: spend only scales it. */
interface VisitOutlook {
  probabilityAlive: number;
  nextYear: number;
  /** Expected visits over the horizon, each month's weighted by its discount factor. */
  discountedVisits: number;
}

function visitOutlook(
  visits: BgNbdParameters,
  history: Pick<CustomerHistory, 'x' | 'tX' | 'T'>,
  settings: LifetimeValueSettings,
): VisitOutlook {
  const months = Math.round(settings.horizonYears * 12);
  let discountedVisits = 0;
  let cumulativeBefore = 0;
  let nextYear: number | null = null;
  for (let month = 1; month <= months; month++) {
    const cumulative = expectedPurchases(visits, history, (month * WEEKS_PER_YEAR) / 12);
    discountedVisits += (cumulative - cumulativeBefore) / Math.pow(1 + settings.discountRate, month / 12);
    cumulativeBefore = cumulative;
    if (month === 12) nextYear = cumulative;
  }
  return {
    probabilityAlive: probabilityAlive(visits, history),
    // The twelfth month's cumulative expectation is the next year's, when the horizon reaches it.
    nextYear: nextYear ?? expectedPurchases(visits, history, WEEKS_PER_YEAR),
    discountedVisits,
  };
}

function prediction(outlook: VisitOutlook, spendPerVisit: number): GuestPrediction {
  return {
    probabilityAlive: outlook.probabilityAlive,
    expectedVisitsNextYear: outlook.nextYear,
    expectedSpendPerVisit: spendPerVisit,
    annualClv: outlook.nextYear * spendPerVisit,
    clv: outlook.discountedVisits * spendPerVisit,
  };
}

/**
 * One guest's predicted visits, spend and lifetime value from fitted models: the next year's visits times the
 * expected spend per visit, and over the horizon month by month, each month's expected visits (the growth of
 * the cumulative expectation) times the spend, discounted by (1 + rate)^(months / 12).
 */
export function predictGuest(
  visits: BgNbdParameters,
  spend: GammaGammaParameters,
  history: Pick<CustomerHistory, 'x' | 'tX' | 'T' | 'monetary'>,
  settings: LifetimeValueSettings = DEFAULT_LIFETIME_VALUE_SETTINGS,
): GuestPrediction {
  return prediction(visitOutlook(visits, history, settings), expectedSpend(spend, history));
}

/**
 * `predictGuest` for many guests, in their order. Guests with the same (x, t_x, T) share one visit outlook,
 * which is most of the work; a company's guests share few of them, as a POS counts whole days.
 */
export function predictGuests(
  visits: BgNbdParameters,
  spend: GammaGammaParameters,
  histories: readonly Pick<CustomerHistory, 'x' | 'tX' | 'T' | 'monetary'>[],
  settings: LifetimeValueSettings = DEFAULT_LIFETIME_VALUE_SETTINGS,
): GuestPrediction[] {
  const outlooks = new Map<string, VisitOutlook>();
  return histories.map((history) => {
    const key = `${history.x}|${history.tX}|${history.T}`;
    let outlook = outlooks.get(key);
    if (!outlook) outlooks.set(key, (outlook = visitOutlook(visits, history, settings)));
    return prediction(outlook, expectedSpend(spend, history));
  });
}
