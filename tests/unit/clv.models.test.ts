import { describe, expect, it } from 'vitest';
import { expectedPurchases, fitBgNbd, probabilityAlive } from '../../server/clv/bg-nbd.js';
import { expectedSpend, fitGammaGamma } from '../../server/clv/gamma-gamma.js';
import { predictGuest, WEEKS_PER_YEAR } from '../../server/clv/lifetime-value.js';
import { nelderMead } from '../../server/clv/nelder-mead.js';
import { dayNumber, summarisePurchases } from '../../server/clv/purchase-history.js';
import { seededRandom, simulateAverageSpend, simulateVisits } from '../support/clv-simulation.js';

describe('Nelder–Mead', () => {
  it('finds the minimum of the Rosenbrock valley at (1, 1)', () => {
    const found = nelderMead(([x, y]) => (1 - x!) ** 2 + 100 * (y! - x! ** 2) ** 2, [-1.2, 1]);
    expect(found.converged).toBe(true);
    expect(found.point[0]).toBeCloseTo(1, 4);
    expect(found.point[1]).toBeCloseTo(1, 4);
  });
});

describe('purchase histories', () => {
  it('counts same-day purchases once and measures weeks from the first purchase', () => {
    const end = dayNumber('2024-03-31');
    const [history] = summarisePurchases(
      [
        { customer: 'c1', day: dayNumber('2024-01-01'), amount: 10 },
        { customer: 'c1', day: dayNumber('2024-01-15'), amount: 20 },
        { customer: 'c1', day: dayNumber('2024-01-15'), amount: 5 },
        { customer: 'c1', day: dayNumber('2024-02-12'), amount: 35 },
        { customer: 'c1', day: dayNumber('2024-04-02'), amount: 99 },
        { customer: 'late', day: dayNumber('2024-04-03'), amount: 1 },
      ],
      end,
    );
    // 14 and 42 days after the first; 90 days to the calibration end; the April purchase is holdout.
    expect(history).toEqual({ customer: 'c1', x: 2, tX: 6, T: 90 / 7, monetary: 30, holdoutPurchases: 1 });
  });

  it('refuses a date it cannot read', () => {
    expect(() => dayNumber('2024-13')).toThrow('"2024-13" is not a date');
  });
});

/** `actual` within `fraction` of `expected` either way (a recovered parameter against the simulated one). */
function expectWithin(actual: number, expected: number, fraction: number): void {
  expect(actual).toBeGreaterThan(expected * (1 - fraction));
  expect(actual).toBeLessThan(expected * (1 + fraction));
}

describe('BG/NBD', () => {
  it('recovers the parameters customers were simulated with', () => {
    const truth = { r: 0.5, alpha: 3, a: 0.8, b: 2.5 };
    const fit = fitBgNbd(simulateVisits(seededRandom(7), 20_000, truth, { weeks: 52 }));
    expectWithin(fit.r, truth.r, 0.15);
    expectWithin(fit.alpha, truth.alpha, 0.2);
    expectWithin(fit.a, truth.a, 0.3);
    expectWithin(fit.b, truth.b, 0.3);
  });

  it('expects fewer visits from a guest who has been away longer, and believes them less alive', () => {
    const parameters = { r: 0.5, alpha: 3, a: 0.8, b: 2.5 };
    const recent = { x: 5, tX: 50, T: 52 };
    const lapsed = { x: 5, tX: 10, T: 52 };
    expect(probabilityAlive(parameters, recent)).toBeGreaterThan(probabilityAlive(parameters, lapsed));
    expect(expectedPurchases(parameters, recent, 52)).toBeGreaterThan(
      expectedPurchases(parameters, lapsed, 52),
    );
    expect(expectedPurchases(parameters, recent, 0)).toBe(0);
  });
});

describe('Gamma-Gamma', () => {
  it('recovers the parameters spends were simulated with', () => {
    const random = seededRandom(11);
    const truth = { p: 6, q: 4, gamma: 15 };
    const histories = Array.from({ length: 20_000 }, () => {
      const x = 1 + Math.floor(random() * 6);
      return { x, monetary: simulateAverageSpend(random, x, truth) };
    });
    const fit = fitGammaGamma(histories);
    expect(fit.repeatBuyers).toBe(20_000);
    expectWithin(fit.p, truth.p, 0.1);
    expectWithin(fit.q, truth.q, 0.15);
    expectWithin(fit.gamma, truth.gamma, 0.2);
  });

  it('pulls a guest’s spend toward the population mean, less as their visits grow', () => {
    const parameters = { p: 6, q: 4, gamma: 15 };
    const populationMean = (15 * 6) / 3;
    expect(expectedSpend(parameters, { x: 0, monetary: 0 })).toBeCloseTo(populationMean, 10);
    const once = expectedSpend(parameters, { x: 1, monetary: 60 });
    const often = expectedSpend(parameters, { x: 20, monetary: 60 });
    expect(once).toBeGreaterThan(populationMean);
    expect(once).toBeLessThan(often);
    expect(often).toBeLessThan(60);
  });
});

describe('lifetime value', () => {
  const visits = { r: 0.5, alpha: 3, a: 0.8, b: 2.5 };
  const spend = { p: 6, q: 4, gamma: 15 };
  const history = { x: 4, tX: 40, T: 52, monetary: 25 };

  it('is the next year’s expected visits times the expected spend, undiscounted over one year', () => {
    const prediction = predictGuest(visits, spend, history, { horizonYears: 1, discountRate: 0 });
    const nextYear = expectedPurchases(visits, history, WEEKS_PER_YEAR);
    expect(prediction.expectedVisitsNextYear).toBeCloseTo(nextYear, 12);
    expect(prediction.annualClv).toBeCloseTo(nextYear * expectedSpend(spend, history), 10);
    expect(prediction.clv).toBeCloseTo(prediction.annualClv, 10);
  });

  it('discounts later months: three years at 10 % is worth less than undiscounted, more than one year', () => {
    const undiscounted = predictGuest(visits, spend, history, { horizonYears: 3, discountRate: 0 });
    const discounted = predictGuest(visits, spend, history, { horizonYears: 3, discountRate: 0.1 });
    const threeYears = expectedPurchases(visits, history, 3 * WEEKS_PER_YEAR) * expectedSpend(spend, history);
    expect(undiscounted.clv).toBeCloseTo(threeYears, 10);
    expect(discounted.clv).toBeLessThan(undiscounted.clv);
    // Month by month by hand: each month's visits discounted by (1.1)^(month / 12).
    let byHand = 0;
    for (let month = 1; month <= 36; month++) {
      const grown =
        expectedPurchases(visits, history, (month * WEEKS_PER_YEAR) / 12) -
        expectedPurchases(visits, history, ((month - 1) * WEEKS_PER_YEAR) / 12);
      byHand += (grown * expectedSpend(spend, history)) / 1.1 ** (month / 12);
    }
    expect(discounted.clv).toBeCloseTo(byHand, 10);
    expect(discounted.clv).toBeGreaterThan(discounted.annualClv);
  });
});
