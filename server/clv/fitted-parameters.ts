import type { BgNbdFit } from './bg-nbd.js';
import type { GammaGammaFit } from './gamma-gamma.js';

/** Both models' parameters as `npm run clv` prints them and `clv_fits` stores them. */
export interface FittedParameters {
  r: number;
  alpha: number;
  a: number;
  b: number;
  log_likelihood: number;
  p: number;
  q: number;
  gamma: number;
}

/** The parameters of a BG/NBD and a Gamma-Gamma fit, named as the papers and the API name them. */
export function fittedParameters(visits: BgNbdFit, spend: GammaGammaFit): FittedParameters {
  return {
    r: visits.r,
    alpha: visits.alpha,
    a: visits.a,
    b: visits.b,
    log_likelihood: visits.logLikelihood,
    p: spend.p,
    q: spend.q,
    gamma: spend.gamma,
  };
}
