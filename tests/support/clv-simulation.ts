import type { BgNbdParameters } from '../../server/clv/bg-nbd.js';
import type { GammaGammaParameters } from '../../server/clv/gamma-gamma.js';
import type { CustomerHistory } from '../../server/clv/purchase-history.js';

/** A small seeded generator (mulberry32), so the simulated customers are the same every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A gamma draw with unit scale (Marsaglia & Tsang), boosted for shapes below one. */
export function gammaDraw(random: () => number, shape: number): number {
  if (shape < 1) return gammaDraw(random, shape + 1) * Math.pow(random(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const z = normal(random);
    const v = Math.pow(1 + c * z, 3);
    if (v > 0 && Math.log(random()) < (z * z) / 2 + d - d * v + d * Math.log(v)) return d * v;
  }
}

/**
 * Customers drawn from the BG/NBD story itself: each has a purchase rate from a gamma(r, α) and a drop-out
 * chance from a beta(a, b); purchases arrive as a Poisson process and after each repeat purchase the customer
 * may drop out. Each customer's first purchase starts their clock; they are watched for between half of
 * `weeks` and `weeks`.
 */
export function simulateVisits(
  random: () => number,
  customers: number,
  { r, alpha, a, b }: BgNbdParameters,
  { weeks, wholeDays = false }: { weeks: number; wholeDays?: boolean },
): Pick<CustomerHistory, 'x' | 'tX' | 'T'>[] {
  // Data from a POS knows days, not instants: with `wholeDays`, times are rounded down to whole days.
  const toDays = (time: number) => (wholeDays ? Math.floor(time * 7) / 7 : time);
  return Array.from({ length: customers }, () => {
    const rate = gammaDraw(random, r) / alpha;
    const gA = gammaDraw(random, a);
    const dropOut = gA / (gA + gammaDraw(random, b));
    const T = weeks * (0.5 + random() / 2);
    let time = 0;
    let x = 0;
    let tX = 0;
    for (;;) {
      time += -Math.log(1 - random()) / rate;
      if (time > T) break;
      x++;
      tX = time;
      if (random() < dropOut) break;
    }
    return { x, tX: toDays(tX), T: toDays(T) };
  });
}

/**
 * A customer's average spend over `x` purchases in the Gamma-Gamma story: their scale ν ~ gamma(q, γ), each
 * purchase ~ gamma(p, ν).
 */
export function simulateAverageSpend(
  random: () => number,
  x: number,
  { p, q, gamma }: GammaGammaParameters,
): number {
  const nu = gammaDraw(random, q) / gamma;
  let total = 0;
  for (let i = 0; i < x; i++) total += gammaDraw(random, p) / nu;
  return total / x;
}
