/**
 * The visit model shared by the guest generator and the plan's calibration: when a guest is active and
 * how often they come. Each guest has a gamma-distributed visit rate and an exponential lifetime after
 * which they churn; visits are Poisson in between.
 */
import { sampleDay, type Calendar } from './calendar.js';
import type { Random } from './random.js';

/** Shape of the gamma distribution of visit rates; well below one, so most guests rarely come back. */
export const VISIT_RATE_SHAPE = 0.25;

/** Mean days between a guest's first visit and the day they stop coming (churn). */
export const MEAN_LIFETIME_DAYS = 420;

/** Average days in a month, to turn rates per month into rates per day. */
export const DAYS_PER_MONTH = 30.44;

/** The days a guest may visit, and whether they were already a guest when the POS history begins. */
export interface ActiveWindow {
  existing: boolean;
  startDay: number;
  endDay: number;
}

/**
 * Draws a guest's active window. A business in steady state already has guests when the history begins:
 * as many as arrive during one mean lifetime. Lifetimes are memoryless, so those guests simply start on
 * day 0 with a fresh lifetime; without them the first months would look nearly empty.
 */
export function activeWindow(random: Random, calendar: Calendar): ActiveWindow {
  const existingPerNew = MEAN_LIFETIME_DAYS / calendar.days;
  const existing = random.chance(existingPerNew / (1 + existingPerNew));
  const startDay = existing ? 0 : sampleDay(random, calendar, 0, calendar.days - 1);
  const endDay = Math.min(calendar.days - 1, startDay + Math.floor(random.exponential(MEAN_LIFETIME_DAYS)));
  return { existing, startDay, endDay };
}

/** At most this many visits per active day, so even the keenest regular stays believable. */
const MAX_VISITS_PER_DAY = 0.6;

/** When a guest may come, how often, and how many checks they have in the history (at least one). */
export interface VisitPlan extends ActiveWindow {
  /** Visits per month while active. */
  rate: number;
  visits: number;
}

/**
 * Draws a guest's window, rate and number of visits. A new guest's first visit opens their window; an
 * existing guest appears in the POS history only if they came during it, so draws where they did not are
 * thrown away, which conditions the result on at least one visit.
 */
export function drawVisits(random: Random, calendar: Calendar, rateScale: number): VisitPlan {
  if (!(rateScale > 0)) throw new RangeError(`The visit-rate scale must be positive; got ${rateScale}`);
  for (;;) {
    const window = activeWindow(random, calendar);
    const rate = random.gamma(VISIT_RATE_SHAPE, rateScale);
    const activeDays = window.endDay - window.startDay;
    const inWindow = Math.min(
      random.poisson((rate * activeDays) / DAYS_PER_MONTH),
      Math.floor((activeDays + 1) * MAX_VISITS_PER_DAY),
    );
    const visits = window.existing ? inWindow : 1 + inWindow;
    if (visits > 0) return { ...window, rate, visits };
  }
}

/**
 * The visit-rate scale that gives guests `meanVisits` checks each on average. The mean grows almost in
 * proportion to the scale, so a few proportional corrections measured on the same few thousand draws
 * (`newRandom` restarts one stream) settle it.
 */
export function calibrateRateScale(newRandom: () => Random, calendar: Calendar, meanVisits: number): number {
  if (!(meanVisits > 1))
    throw new RangeError(`A guest needs more than one visit on average; got ${meanVisits}`);
  const samples = 4000;
  let scale = 1;
  for (let round = 0; round < 4; round++) {
    const random = newRandom();
    let total = 0;
    for (let i = 0; i < samples; i++) total += drawVisits(random, calendar, scale).visits;
    scale *= (meanVisits - 1) / (total / samples - 1);
  }
  return scale;
}
