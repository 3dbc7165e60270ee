/**
 * Fitting the CLV models to a company of BENCH_CLV_GUESTS (1,000,000) guests: BG/NBD and Gamma-Gamma by maximum
 * likelihood, then every guest's prediction (probability alive, next year's visits, spend per visit, annual and
 * 3-year CLV). The guests are simulated from known parameters over three years of whole days, as a POS would
 * record them. The bar (issue 13): the fit within 60 s on this machine. Beside it: the time of one pass of the
 * likelihood over the same guests (grouping included) and how many passes the fits took.
 */
import { bgNbdLogLikelihood, fitBgNbd } from '../server/clv/bg-nbd.js';
import { fitGammaGamma } from '../server/clv/gamma-gamma.js';
import { predictGuests } from '../server/clv/lifetime-value.js';
import { seededRandom, simulateAverageSpend, simulateVisits } from '../tests/support/clv-simulation.js';
import { envInt, printFigure, round } from './support.js';

const VISITS = { r: 1.2, alpha: 6, a: 0.6, b: 3 };
const SPEND = { p: 5, q: 4, gamma: 90 };

/** Prints the CLV fitting figure. */
export function benchClv(): void {
  const guests = envInt('BENCH_CLV_GUESTS', 1_000_000);
  const random = seededRandom(2026);
  const histories = simulateVisits(random, guests, VISITS, { weeks: 3 * 52, wholeDays: true }).map(
    (visits) => ({
      ...visits,
      monetary: visits.x > 0 ? simulateAverageSpend(random, visits.x, SPEND) : 0,
    }),
  );

  let started = performance.now();
  bgNbdLogLikelihood(VISITS, histories);
  const onePassMs = performance.now() - started;

  started = performance.now();
  const visits = fitBgNbd(histories);
  const spend = fitGammaGamma(histories);
  const fitMs = performance.now() - started;

  started = performance.now();
  const predictions = predictGuests(visits, spend, histories);
  const predictMs = performance.now() - started;

  printFigure({
    bench: 'clv.fit',
    guests,
    repeat_guests: spend.repeatBuyers,
    fit_seconds: round(fitMs / 1000, 1),
    predict_seconds: round(predictMs / 1000, 1),
    bar_seconds: 60,
    one_likelihood_pass_ms: round(onePassMs, 0),
    likelihood_passes: visits.evaluations + spend.evaluations,
    recovered: `r ${round(visits.r, 3)} alpha ${round(visits.alpha, 2)} a ${round(visits.a, 3)} b ${round(visits.b, 2)}`,
    simulated: `r ${VISITS.r} alpha ${VISITS.alpha} a ${VISITS.a} b ${VISITS.b}`,
    predicted_guests: predictions.length,
  });
}
