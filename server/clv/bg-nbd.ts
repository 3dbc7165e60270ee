import gammaln from '@stdlib/math-base-special-gammaln';
import hyp2f1 from '@stdlib/math-base-special-hyp2f1';
import { evenSample, maximiseLikelihood, WARM_START_SAMPLE } from './maximum-likelihood.js';
import type { CustomerHistory } from './purchase-history.js';

/** The BG/NBD model's four parameters (Fader, Hardie & Lee 2005), time in weeks. */
export interface BgNbdParameters {
  /** Shape and scale of the gamma mixing the customers' purchase rates. */
  r: number;
  alpha: number;
  /** The beta distribution of the probability a customer drops out after a purchase. */
  a: number;
  b: number;
}

/** A fitted BG/NBD model: its parameters and the log-likelihood they reach on the data. */
export interface BgNbdFit extends BgNbdParameters {
  logLikelihood: number;
  customers: number;
  /** Passes of the likelihood over the data the fit took (its warm start's included). */
  evaluations: number;
}

/**
 * Histories as the likelihood reads them. Customers sharing the same (x, t_x, T) are one group, counted;
 * and each group points into the distinct values of x, t_x and T, so a likelihood pass works out the
 * logarithms and gamma functions once per distinct value (a POS counts whole days: few of them) rather
 * than once per customer.
 */
interface GroupedHistories {
  xValues: number[];
  tXValues: number[];
  TValues: number[];
  /** Per group: index into each list of values, and how many customers share it. */
  xIndex: Int32Array;
  tXIndex: Int32Array;
  TIndex: Int32Array;
  count: Float64Array;
}

function indexOf(values: number[], positions: Map<number, number>, value: number): number {
  let position = positions.get(value);
  if (position === undefined) {
    position = values.length;
    values.push(value);
    positions.set(value, position);
  }
  return position;
}

function groupHistories(histories: readonly Pick<CustomerHistory, 'x' | 'tX' | 'T'>[]): GroupedHistories {
  const grouped: GroupedHistories = {
    xValues: [],
    tXValues: [],
    TValues: [],
    xIndex: new Int32Array(histories.length),
    tXIndex: new Int32Array(histories.length),
    TIndex: new Int32Array(histories.length),
    count: new Float64Array(histories.length),
  };
  const positions = {
    x: new Map<number, number>(),
    tX: new Map<number, number>(),
    T: new Map<number, number>(),
  };
  const groups = new Map<string, number>();
  for (const { x, tX, T } of histories) {
    const xAt = indexOf(grouped.xValues, positions.x, x);
    const tXAt = indexOf(grouped.tXValues, positions.tX, tX);
    const TAt = indexOf(grouped.TValues, positions.T, T);
    const key = `${xAt}|${tXAt}|${TAt}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = groups.size;
      groups.set(key, group);
      grouped.xIndex[group] = xAt;
      grouped.tXIndex[group] = tXAt;
      grouped.TIndex[group] = TAt;
    }
    grouped.count[group]! += 1;
  }
  const size = groups.size;
  return {
    ...grouped,
    xIndex: grouped.xIndex.slice(0, size),
    tXIndex: grouped.tXIndex.slice(0, size),
    TIndex: grouped.TIndex.slice(0, size),
    count: grouped.count.slice(0, size),
  };
}

/** The total log-likelihood of grouped histories under the parameters (equation 6 of the paper). */
function groupedLogLikelihood({ r, alpha, a, b }: BgNbdParameters, grouped: GroupedHistories): number {
  const lnGammaR = gammaln(r);
  const lnBetaAB = gammaln(a) + gammaln(b) - gammaln(a + b);
  const logA = Math.log(a);
  // Per distinct x: the gamma-function terms, r + x, and the log of the drop-out odds' denominator.
  const xTerms = grouped.xValues.map(
    (x) =>
      gammaln(r + x) -
      lnGammaR +
      r * Math.log(alpha) +
      gammaln(a) +
      gammaln(b + x) -
      gammaln(a + b + x) -
      lnBetaAB,
  );
  const rPlusX = grouped.xValues.map((x) => r + x);
  const logDropOdds = grouped.xValues.map((x) => (x > 0 ? logA - Math.log(b + x - 1) : 0));
  const logAlphaT = grouped.TValues.map((T) => Math.log(alpha + T));
  const logAlphaTX = grouped.tXValues.map((tX) => Math.log(alpha + tX));
  let total = 0;
  for (let group = 0; group < grouped.count.length; group++) {
    const xAt = grouped.xIndex[group]!;
    const exponent = rPlusX[xAt]!;
    const stillAlive = -exponent * logAlphaT[grouped.TIndex[group]!]!;
    let logLikelihood = stillAlive;
    if (grouped.xValues[xAt]! > 0) {
      const droppedOut = logDropOdds[xAt]! - exponent * logAlphaTX[grouped.tXIndex[group]!]!;
      // log(e^stillAlive + e^droppedOut), without overflow.
      const high = Math.max(stillAlive, droppedOut);
      logLikelihood = high + Math.log(Math.exp(stillAlive - high) + Math.exp(droppedOut - high));
    }
    total += grouped.count[group]! * (xTerms[xAt]! + logLikelihood);
  }
  return total;
}

/** The log-likelihood of histories under given parameters. */
export function bgNbdLogLikelihood(
  parameters: BgNbdParameters,
  histories: readonly Pick<CustomerHistory, 'x' | 'tX' | 'T'>[],
): number {
  return groupedLogLikelihood(parameters, groupHistories(histories));
}

/**
 * Fits the BG/NBD model by maximum likelihood. A large data set is first fitted on an even sample, and the
 * full fit starts from there: the optimiser then needs a few hundred passes over the data, not thousands.
 */
export function fitBgNbd(histories: readonly Pick<CustomerHistory, 'x' | 'tX' | 'T'>[]): BgNbdFit {
  const warm =
    histories.length > WARM_START_SAMPLE ? fitBgNbd(evenSample(histories, WARM_START_SAMPLE)) : null;
  const groups = groupHistories(histories);
  const found = maximiseLikelihood(
    ([r, alpha, a, b]) => groupedLogLikelihood({ r: r!, alpha: alpha!, a: a!, b: b! }, groups),
    warm ? [warm.r, warm.alpha, warm.a, warm.b] : [1, 1, 1, 1],
    warm ? 0.05 : 0.5,
  );
  const [r, alpha, a, b] = found.parameters as [number, number, number, number];
  return {
    r,
    alpha,
    a,
    b,
    logLikelihood: found.logLikelihood,
    customers: histories.length,
    evaluations: found.evaluations + (warm?.evaluations ?? 0),
  };
}

/** The chance the customer has not dropped out by the calibration end (equation 13). */
export function probabilityAlive(
  { r, alpha, a, b }: BgNbdParameters,
  { x, tX, T }: Pick<CustomerHistory, 'x' | 'tX' | 'T'>,
): number {
  if (x === 0) return 1;
  return 1 / (1 + (a / (b + x - 1)) * Math.pow((alpha + T) / (alpha + tX), r + x));
}

/** Purchases the customer is expected to make in the next `weeks` after the calibration end (equation 10). */
export function expectedPurchases(
  { r, alpha, a, b }: BgNbdParameters,
  { x, tX, T }: Pick<CustomerHistory, 'x' | 'tX' | 'T'>,
  weeks: number,
): number {
  if (weeks <= 0) return 0;
  const ratio = (alpha + T) / (alpha + T + weeks);
  const hypergeometric = hyp2f1(r + x, b + x, a + b + x - 1, weeks / (alpha + T + weeks));
  const numerator = ((a + b + x - 1) / (a - 1)) * (1 - Math.pow(ratio, r + x) * hypergeometric);
  const denominator = 1 + (x > 0 ? (a / (b + x - 1)) * Math.pow((alpha + T) / (alpha + tX), r + x) : 0);
  return numerator / denominator;
}
