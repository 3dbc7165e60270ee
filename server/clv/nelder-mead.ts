/** Where a minimisation stopped: the best point, its value and how many evaluations it took. */
export interface Minimum {
  point: number[];
  value: number;
  evaluations: number;
  converged: boolean;
}

/** How hard the minimiser tries. */
export interface NelderMeadOptions {
  /** Stop when the simplex's values differ by less than this fraction of the best one (or of 1, if less). */
  valueTolerance?: number;
  /** … and its points by less than this in every coordinate. */
  pointTolerance?: number;
  maxEvaluations?: number;
  /** The first simplex's edge, in the coordinates' units. */
  step?: number;
}

/**
 * Minimises `objective` from `start` with the Nelder–Mead simplex method (standard coefficients:
 * reflection 1, expansion 2, contraction ½, shrink ½). Used on log-parameters, so every coordinate is
 * unconstrained; a non-finite value counts as +∞, so the simplex steps away from it.
 */
export function nelderMead(
  objective: (point: readonly number[]) => number,
  start: readonly number[],
  options: NelderMeadOptions = {},
): Minimum {
  const valueTolerance = options.valueTolerance ?? 1e-10;
  const pointTolerance = options.pointTolerance ?? 1e-6;
  const maxEvaluations = options.maxEvaluations ?? 20_000;
  const step = options.step ?? 0.5;
  const dimensions = start.length;
  let evaluations = 0;
  const evaluate = (point: number[]) => {
    evaluations++;
    const value = objective(point);
    return Number.isFinite(value) ? value : Number.POSITIVE_INFINITY;
  };

  let simplex = [start.slice()];
  for (let i = 0; i < dimensions; i++) {
    const vertex = start.slice();
    vertex[i]! += step;
    simplex.push(vertex);
  }
  let values = simplex.map(evaluate);

  const combine = (from: number[], toward: number[], factor: number) =>
    from.map((coordinate, i) => coordinate + factor * (toward[i]! - coordinate));

  let converged = false;
  while (evaluations < maxEvaluations) {
    const order = values.map((_, i) => i).sort((i, j) => values[i]! - values[j]!);
    simplex = order.map((i) => simplex[i]!);
    values = order.map((i) => values[i]!);
    const best = simplex[0]!;
    const worst = simplex[dimensions]!;
    const spread = Math.max(
      ...simplex.slice(1).map((vertex) => Math.max(...vertex.map((c, i) => Math.abs(c - best[i]!)))),
    );
    const valueSpread = Math.abs(values[dimensions]! - values[0]!);
    if (valueSpread <= valueTolerance * Math.max(1, Math.abs(values[0]!)) && spread <= pointTolerance) {
      converged = true;
      break;
    }
    const centroid = Array.from(
      { length: dimensions },
      (_, i) => simplex.slice(0, dimensions).reduce((sum, vertex) => sum + vertex[i]!, 0) / dimensions,
    );
    // Reflect the worst vertex through the centroid of the others.
    const reflected = combine(centroid, worst, -1);
    const reflectedValue = evaluate(reflected);
    if (reflectedValue < values[0]!) {
      const expanded = combine(centroid, worst, -2);
      const expandedValue = evaluate(expanded);
      [simplex[dimensions], values[dimensions]] =
        expandedValue < reflectedValue ? [expanded, expandedValue] : [reflected, reflectedValue];
      continue;
    }
    if (reflectedValue < values[dimensions - 1]!) {
      simplex[dimensions] = reflected;
      values[dimensions] = reflectedValue;
      continue;
    }
    // Contract toward the better of the worst vertex and its reflection.
    const outside = reflectedValue < values[dimensions]!;
    const contracted = combine(centroid, outside ? reflected : worst, 0.5);
    const contractedValue = evaluate(contracted);
    if (contractedValue < (outside ? reflectedValue : values[dimensions]!)) {
      simplex[dimensions] = contracted;
      values[dimensions] = contractedValue;
      continue;
    }
    // Nothing better on the line: shrink every vertex toward the best one.
    for (let i = 1; i <= dimensions; i++) {
      simplex[i] = combine(best, simplex[i]!, 0.5);
      values[i] = evaluate(simplex[i]!);
    }
  }
  const bestIndex = values.indexOf(Math.min(...values));
  return { point: simplex[bestIndex]!, value: values[bestIndex]!, evaluations, converged };
}
