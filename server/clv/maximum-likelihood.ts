import { nelderMead } from './nelder-mead.js';

/** The most likely positive parameters found, the log-likelihood there, and the passes it took. */
export interface LikelihoodMaximum {
  parameters: number[];
  logLikelihood: number;
  evaluations: number;
}

/** Data sets larger than this are first fitted on an even sample of this size, as a starting point. */
export const WARM_START_SAMPLE = 20_000;

/**
 * Maximises a log-likelihood over positive parameters: Nelder–Mead on their logarithms (so they stay
 * positive), restarted from its own answer until a restart stops improving, as a simplex can stall early.
 * `start` (positive parameters) and a small `step` let a fit begin near an answer already known.
 */
export function maximiseLikelihood(
  logLikelihood: (parameters: number[]) => number,
  start: readonly number[],
  step = 0.5,
): LikelihoodMaximum {
  const negative = (point: readonly number[]) => -logLikelihood(point.map(Math.exp));
  let best = nelderMead(negative, start.map(Math.log), { step });
  let evaluations = best.evaluations;
  for (let restart = 0; restart < 5; restart++) {
    const again = nelderMead(negative, best.point, { step: Math.min(step, 0.1) });
    evaluations += again.evaluations;
    const improved = best.value - again.value > 1e-12 * Math.max(1, Math.abs(best.value));
    if (again.value < best.value) best = again;
    if (!improved) break;
  }
  return { parameters: best.point.map(Math.exp), logLikelihood: -best.value, evaluations };
}

/** Every k-th item, so that about `size` remain: an even sample of data in no particular order. */
export function evenSample<T>(items: readonly T[], size: number): T[] {
  const stride = Math.ceil(items.length / size);
  return items.filter((_, index) => index % stride === 0);
}
