/**
 * `npm run seed -- --scale small|medium|large|tiny [--seed N] [--until YYYY-MM-DD] [--reset]`: loads the
 * demo data set into DATABASE_URL, or into PGlite under DATA_DIR (default ./data). Refuses to run on a
 * database that already has companies unless --reset is given, which first deletes every company.
 */
import { parseArgs } from 'node:util';
import { authSettingsFrom } from '../server/auth/settings.js';
import { loadConfig } from '../server/config.js';
import { migrate } from '../server/db/migrate.js';
import { openDatabase } from '../server/db/open.js';
import { countCompanies } from '../server/repositories/companies.repository.js';
import { SCALES, type Scale } from '../server/seed/blueprints.js';
import { DEFAULT_SEED } from '../server/seed/generate.js';
import { loadDemoData } from '../server/seed/load.js';

const USAGE =
  'usage: npm run seed -- --scale tiny|small|medium|large [--seed N] [--until YYYY-MM-DD] [--reset]';

/** The command line, checked; a bad value names its flag. */
function readArguments(): { scale: Scale; seed: number; until: Date | undefined; reset: boolean } {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: 'small' },
      seed: { type: 'string' },
      until: { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const scale = values.scale as Scale;
  if (!SCALES.includes(scale)) {
    throw new Error(`--scale must be one of ${SCALES.join(', ')}; got '${values.scale}'`);
  }
  const seed = values.seed === undefined ? DEFAULT_SEED : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new Error(`--seed must be a non-negative integer; got '${values.seed}'`);
  }
  let until: Date | undefined;
  if (values.until !== undefined) {
    until = new Date(`${values.until}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.until) || Number.isNaN(until.getTime())) {
      throw new Error(`--until must be a date like 2025-06-01; got '${values.until}'`);
    }
  }
  return { scale, seed, until, reset: values.reset };
}

async function main(): Promise<void> {
  const args = readArguments();
  const started = performance.now();
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.DATA_DIR ?? './data',
  });
  try {
    await migrate(db);
    const existing = await db.platform((sql) => countCompanies(sql));
    if (existing > 0 && !args.reset) {
      console.error(
        `The database already has ${existing} ${existing === 1 ? 'company' : 'companies'}; ` +
          'run again with --reset to delete every company and load the demo data.',
      );
      process.exitCode = 1;
      return;
    }
    if (existing > 0) {
      await db.owner((sql) => sql.exec('TRUNCATE companies CASCADE'));
      console.log(`deleted ${existing} existing ${existing === 1 ? 'company' : 'companies'}`);
    }

    const summary = await loadDemoData(db, {
      scale: args.scale,
      seed: args.seed,
      until: args.until,
      // The starter templates' images point at the installation's public address, as the first start's load does.
      installationUrl: authSettingsFrom(loadConfig()).publicUrl,
      log: (message) => console.log(message),
    });

    console.log(`\nloaded scale '${summary.scale}' (seed ${summary.seed}, history up to ${summary.until})`);
    for (const [table, count] of Object.entries(summary.counts)) {
      console.log(`  ${table.padEnd(26)} ${count.toLocaleString('en-US').padStart(12)}`);
    }
    console.log('\nsign in with:');
    for (const company of summary.companies) {
      // Published demo credentials, printed on purpose.
      console.log(`  ${company.name}: ${company.ownerEmail} / ${company.ownerPassword}`);
    }
    const { support } = summary;
    console.log(
      `  ${support.name} (platform staff, /hijack): ${support.staffEmail} / ${support.staffPassword}`,
    );
    console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
