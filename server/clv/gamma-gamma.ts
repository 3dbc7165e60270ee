import gammaln from '@stdlib/math-base-special-gammaln';
import { evenSample, maximiseLikelihood, WARM_START_SAMPLE } from './maximum-likelihood.js';
import type { CustomerHistory } from './purchase-history.js';

/** The Gamma-Gamma spend model's parameters (Fader, Hardie & Lee 2005, "RFM and CLV"). */
export interface GammaGammaParameters {
  /** Shape of the gamma of one purchase's amount around the customer's mean. */
  p: number;
  /** Shape and scale of the gamma the customers' means are drawn from. */
  q: number;
  gamma: number;
}

/** A fitted Gamma-Gamma model, on the repeat buyers only. */
export interface GammaGammaFit extends GammaGammaParameters {
  logLikelihood: number;
  repeatBuyers: number;
  /** Passes of the likelihood over the data the fit took (its warm start's included). */
  evaluations: number;
}

type SpendHistory = Pick<CustomerHistory, 'x' | 'monetary'>;

/** A repeat buyer's spend, with the logarithms the likelihood needs worked out once. */
interface RepeatBuyer {
  x: number;
  monetary: number;
  logMonetary: number;
  logX: number;
}

function repeatBuyersOf(histories: readonly SpendHistory[]): RepeatBuyer[] {
  return histories
    .filter(({ x, monetary }) => x > 0 && monetary > 0)
    .map(({ x, monetary }) => ({ x, monetary, logMonetary: Math.log(monetary), logX: Math.log(x) }));
}

function repeatBuyersLogLikelihood(
  { p, q, gamma }: GammaGammaParameters,
  buyers: readonly RepeatBuyer[],
): number {
  const lnGammaQ = gammaln(q);
  const qLnGamma = q * Math.log(gamma);
  // The gamma-function terms depend on x alone; buyers share few distinct x.
  const termsByX = new Map<number, number>();
  let total = 0;
  for (const { x, monetary, logMonetary, logX } of buyers) {
    let xTerms = termsByX.get(x);
    if (xTerms === undefined) {
      xTerms = gammaln(p * x + q) - gammaln(p * x) - lnGammaQ + qLnGamma;
      termsByX.set(x, xTerms);
    }
    total += xTerms + (p * x - 1) * logMonetary + p * x * logX - (p * x + q) * Math.log(gamma + monetary * x);
  }
  return total;
}

/** The log-likelihood of the repeat buyers' average spends under the parameters (customers with x = 0 add nothing). */
export function gammaGammaLogLikelihood(
  parameters: GammaGammaParameters,
  histories: readonly SpendHistory[],
): number {
  return repeatBuyersLogLikelihood(parameters, repeatBuyersOf(histories));
}

/**
 * Fits the Gamma-Gamma model by maximum likelihood on the customers with a repeat purchase; a large data set
 * starts from the fit on an even sample, as BG/NBD does.
 */
export function fitGammaGamma(histories: readonly SpendHistory[]): GammaGammaFit {
  const repeatBuyers = repeatBuyersOf(histories);
  const warm =
    repeatBuyers.length > WARM_START_SAMPLE
      ? fitGammaGamma(evenSample(repeatBuyers, WARM_START_SAMPLE))
      : null;
  const found = maximiseLikelihood(
    ([p, q, gamma]) => repeatBuyersLogLikelihood({ p: p!, q: q!, gamma: gamma! }, repeatBuyers),
    warm ? [warm.p, warm.q, warm.gamma] : [1, 1, 1],
    warm ? 0.05 : 0.5,
  );
  const [p, q, gamma] = found.parameters as [number, number, number];
  return {
    p,
    q,
    gamma,
    logLikelihood: found.logLikelihood,
    repeatBuyers: repeatBuyers.length,
    evaluations: found.evaluations + (warm?.evaluations ?? 0),
  };
}

/**
 * The customer's expected spend per purchase: the population mean γp/(q−1) pulled toward their own average
 * by how many purchases it rests on. A customer with no repeat purchase gets the population mean.
 */
export function expectedSpend({ p, q, gamma }: GammaGammaParameters, { x, monetary }: SpendHistory): number {
  if (x <= 0) return (gamma * p) / (q - 1);
  return (p * (gamma + x * monetary)) / (p * x + q - 1);
}
