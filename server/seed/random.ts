/**
 * A small seeded pseudo-random generator for the demo data. Every draw comes from sfc32 seeded through a
 * 32-bit hash of a path of numbers (seed, company, stream, index), so any entity can be regenerated on its
 * own and the same seed always gives the same data, whatever order or chunk size the loader uses.
 */

/** Mixes one 32-bit value into a running hash (the murmur3 finaliser after an add-rotate step). */
function mix(hash: number, value: number): number {
  let h = (hash ^ Math.imul(value | 0, 0xcc9e2d51)) >>> 0;
  h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A 32-bit hash of a list of integers. Numbers above 2^32 (large indexes) are split into two words so
 * distinct paths stay distinct.
 */
export function hashPath(path: readonly number[]): number {
  let hash = 0x9e3779b9;
  for (const value of path) {
    hash = mix(hash, value >>> 0);
    hash = mix(hash, Math.floor(value / 0x1_0000_0000) >>> 0);
  }
  return mix(hash, path.length);
}

/** A seeded generator with the draws the demo data needs. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A generator for one path of numbers, e.g. `Random.derive(seed, company, STREAM, index)`. */
  static derive(...path: number[]): Random {
    return new Random(hashPath(path));
  }

  /** Seeds sfc32 from one 32-bit value; the first draws are thrown away to spread the state. */
  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** The next 32-bit unsigned integer (sfc32). */
  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 0x1_0000_0000;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  uniform(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array, each equally likely. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() needs at least one item');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** An index drawn in proportion to the weights (which need not sum to one). */
  weightedIndex(weights: readonly number[]): number {
    let total = 0;
    for (const weight of weights) total += weight;
    let target = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      target -= weights[i]!;
      if (target < 0) return i;
    }
    // Rounding can leave a sliver at the end; the last positive weight takes it.
    for (let i = weights.length - 1; i >= 0; i--) if (weights[i]! > 0) return i;
    throw new RangeError('weightedIndex() needs a positive weight');
  }

  /** One element drawn in proportion to its weight. */
  weighted<T>(items: readonly T[], weightOf: (item: T) => number): T {
    return items[this.weightedIndex(items.map(weightOf))]!;
  }

  /** A normal draw (Box–Muller; one of the pair is discarded to keep the generator stateless). */
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next(); // (0, 1], so the logarithm is finite
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** An exponential draw with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.next());
  }

  /** A gamma draw with shape k and scale θ (Marsaglia–Tsang; shapes below one are boosted). */
  gamma(shape: number, scale: number): number {
    if (shape < 1) {
      const boost = Math.pow(1 - this.next(), 1 / shape);
      return this.gamma(shape + 1, scale) * boost;
    }
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = 1 - this.next();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v * scale;
    }
  }

  /** A Poisson draw; Knuth's product method for small means, a rounded normal for large ones. */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 60) return Math.max(0, Math.round(this.normal(mean, Math.sqrt(mean))));
    const limit = Math.exp(-mean);
    let count = 0;
    let product = this.next();
    while (product > limit) {
      count++;
      product *= this.next();
    }
    return count;
  }

  /** `count` distinct elements of `items` in random order (a partial Fisher–Yates shuffle of a copy). */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  }
}
