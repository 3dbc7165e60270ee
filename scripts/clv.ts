/**
 * `npm run clv -- --input FILE --format cdnow-sample|cdnow-master|checks-csv --calibration-end YYYY-MM-DD`: fits
 * the product's BG/NBD and Gamma-Gamma models to a transaction file (a CDNOW purchase log, or a POS checks CSV
 * file as the checks upload takes it) and prints the fit as JSON, so the models can be checked against the
 * published fits (docs/clv.md).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fitBgNbd } from '../server/clv/bg-nbd.js';
import { fittedParameters } from '../server/clv/fitted-parameters.js';
import { fitGammaGamma } from '../server/clv/gamma-gamma.js';
import { dayNumber, summarisePurchases } from '../server/clv/purchase-history.js';
import {
  readPurchases,
  TRANSACTION_FILE_FORMATS,
  type TransactionFileFormat,
} from '../server/clv/transaction-files.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    input: { type: 'string' },
    format: { type: 'string' },
    'calibration-end': { type: 'string' },
  },
});
const formats: readonly string[] = TRANSACTION_FILE_FORMATS;
if (!values.input) fail('--input FILE is required');
if (!values.format || !formats.includes(values.format)) {
  fail(`--format must be one of ${TRANSACTION_FILE_FORMATS.join(', ')}`);
}
if (!values['calibration-end'] || !/^\d{4}-\d{2}-\d{2}$/.test(values['calibration-end'])) {
  fail('--calibration-end YYYY-MM-DD is required');
}

let histories;
try {
  const purchases = await readPurchases(
    readFileSync(values.input, 'utf8'),
    values.format as TransactionFileFormat,
  );
  histories = summarisePurchases(purchases, dayNumber(values['calibration-end']));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const visits = fitBgNbd(histories);
const spend = fitGammaGamma(histories);
process.stdout.write(
  `${JSON.stringify(
    {
      customers: visits.customers,
      repeat_buyers: spend.repeatBuyers,
      ...fittedParameters(visits, spend),
    },
    null,
    2,
  )}\n`,
);
