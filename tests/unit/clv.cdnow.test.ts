import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expectedPurchases, fitBgNbd, probabilityAlive } from '../../server/clv/bg-nbd.js';
import { fitGammaGamma } from '../../server/clv/gamma-gamma.js';
import { dayNumber, summarisePurchases } from '../../server/clv/purchase-history.js';
import { readTransactionFile } from '../../server/clv/transaction-files.js';

const SAMPLE = 'tests/fixtures/cdnow/CDNOW_sample.txt';
const CALIBRATION_END = '1997-09-30';
// Weeks 40–78: the 39 weeks after the calibration period, to the end of June 1998.
const HOLDOUT_WEEKS = 39;

const histories = summarisePurchases(
  readTransactionFile(readFileSync(SAMPLE, 'utf8'), 'cdnow-sample'),
  dayNumber(CALIBRATION_END),
);

/** `value` to three significant digits, as the papers print their fits. */
const threeDigits = (value: number) => Number(value.toPrecision(3));

describe('CLV models on the CDNOW sample (Fader, Hardie & Lee 2005)', () => {
  const visits = fitBgNbd(histories);
  const spend = fitGammaGamma(histories);

  it('reproduces the published BG/NBD fit', () => {
    expect(visits.customers).toBe(2357);
    expect(threeDigits(visits.r)).toBe(0.243);
    expect(threeDigits(visits.alpha)).toBe(4.41);
    expect(threeDigits(visits.a)).toBe(0.793);
    expect(threeDigits(visits.b)).toBe(2.43);
    expect(visits.logLikelihood.toFixed(1)).toBe('-9582.4');
  });

  it('reproduces the published Gamma-Gamma fit on the 946 repeat buyers', () => {
    expect(spend.repeatBuyers).toBe(946);
    expect(threeDigits(spend.p)).toBe(6.25);
    expect(threeDigits(spend.q)).toBe(3.74);
    expect(threeDigits(spend.gamma)).toBe(15.4);
  });

  it("reproduces the paper's worked example of a conditional expectation", () => {
    // Section 4 of the paper: x = 2, t_x = 30.43, T = 38.86 expects 1.226 purchases in the next 39 weeks.
    const published = { r: 0.243, alpha: 4.414, a: 0.793, b: 2.426 };
    expect(expectedPurchases(published, { x: 2, tX: 30.43, T: 38.86 }, 39).toFixed(3)).toBe('1.226');
    // Someone who never came back is alive for sure under the model (they have not had a chance to drop).
    expect(probabilityAlive(published, { x: 0, tX: 0, T: 38.86 })).toBe(1);
  });

  it('predicts the holdout weeks 40–78 better than carrying each customer’s past rate forward', () => {
    let predictedTotal = 0;
    let actualTotal = 0;
    let modelError = 0;
    let naiveError = 0;
    for (const history of histories) {
      const predicted = expectedPurchases(visits, history, HOLDOUT_WEEKS);
      const naive = history.T > 0 ? (history.x / history.T) * HOLDOUT_WEEKS : 0;
      predictedTotal += predicted;
      actualTotal += history.holdoutPurchases;
      modelError += Math.abs(predicted - history.holdoutPurchases);
      naiveError += Math.abs(naive - history.holdoutPurchases);
    }
    // Repeat purchase days in the holdout, counted from the file (same-day lines are one purchase).
    expect(actualTotal).toBe(1882);
    expect(predictedTotal / actualTotal).toBeGreaterThan(0.85);
    expect(predictedTotal / actualTotal).toBeLessThan(1.1);
    expect(modelError).toBeLessThan(naiveError);
  });

  it('expects more holdout purchases from customers who bought more in calibration, as they did', () => {
    const byRepeats = new Map<number, { predicted: number; actual: number; count: number }>();
    for (const history of histories) {
      const bucket = Math.min(history.x, 4);
      const row = byRepeats.get(bucket) ?? { predicted: 0, actual: 0, count: 0 };
      row.predicted += expectedPurchases(visits, history, HOLDOUT_WEEKS);
      row.actual += history.holdoutPurchases;
      row.count++;
      byRepeats.set(bucket, row);
    }
    const means = [0, 1, 2, 3, 4].map((bucket) => {
      const row = byRepeats.get(bucket)!;
      return { predicted: row.predicted / row.count, actual: row.actual / row.count };
    });
    for (let bucket = 1; bucket < means.length; bucket++) {
      expect(means[bucket]!.predicted).toBeGreaterThan(means[bucket - 1]!.predicted);
      expect(means[bucket]!.actual).toBeGreaterThan(means[bucket - 1]!.actual);
    }
    // One-time buyers, two thirds of the sample: predicted within 10 % of what they did.
    expect(Math.abs(means[0]!.predicted / means[0]!.actual - 1)).toBeLessThan(0.1);
  });

  it('`npm run clv` prints the same fit as JSON', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '-s',
        'clv',
        '--',
        '--input',
        SAMPLE,
        '--format',
        'cdnow-sample',
        '--calibration-end',
        CALIBRATION_END,
      ],
      { encoding: 'utf8' },
    );
    const printed = JSON.parse(stdout) as Record<string, number>;
    expect(printed).toMatchObject({ customers: 2357, repeat_buyers: 946 });
    expect(printed.r).toBeCloseTo(visits.r, 6);
    expect(printed.log_likelihood).toBeCloseTo(visits.logLikelihood, 4);
    expect(printed.gamma).toBeCloseTo(spend.gamma, 6);
  });

  it('`npm run clv` names a malformed line and a missing option', async () => {
    const run = promisify(execFile);
    await expect(
      run('npm', [
        'run',
        '-s',
        'clv',
        '--',
        '--input',
        SAMPLE,
        '--format',
        'cdnow-master',
        '--calibration-end',
        CALIBRATION_END,
      ]),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('Line 1 is not a cdnow-master line') });
    await expect(
      run('npm', ['run', '-s', 'clv', '--', '--input', SAMPLE, '--format', 'cdnow-sample']),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--calibration-end'),
    });
  });
});
