import { buildApp } from './app.js';
import { sharedTestClock, testClockEnabled } from './flows/clock.js';
import { webhookSettingsFrom } from './flows/webhook.js';
import { authSettingsFrom } from './auth/settings.js';
import { loadConfig, rateLimitsOf, sendingConfigOf } from './config.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { countCompanies } from './repositories/companies.repository.js';
import { loadDemoAccounts, loadDemoHistory } from './seed/load.js';
import { requestDueClvRefreshes } from './services/clv-jobs.service.js';
import { giveOwedStarterSegments } from './services/starter-segments.service.js';

/** Starts the whole product in one process: migrations, demo data on an empty database, API and app. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    preparedStatements: config.DATABASE_PREPARE,
  });
  const applied = await migrate(db);
  let demoSignIns: string[] = [];
  const auth = authSettingsFrom(config);
  const app = await buildApp({
    db,
    logLevel: config.LOG_LEVEL,
    auth,
    brandName: config.BRAND_NAME,
    trustProxyHops: config.TRUST_PROXY,
    // PGlite is one process's database: its jobs can only run in the API process.
    imports: { maxBytes: config.UPLOAD_MAX_BYTES, runJobs: config.RUN_JOBS || db.kind === 'pglite' },
    mail: { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM },
    sending: sendingConfigOf(config),
    corsOrigins: config.CORS_ORIGINS,
    rateLimits: rateLimitsOf(config),
    listCounts: { exactUpTo: config.LIST_EXACT_COUNT_UP_TO, cacheMs: config.LIST_COUNT_CACHE_SECONDS * 1000 },
    flows: {
      webhooks: webhookSettingsFrom(config),
      // Refused (an error at start) with NODE_ENV=production.
      testClock: testClockEnabled({ ...config, NODE_ENV: process.env.NODE_ENV }) ? sharedTestClock(db) : null,
    },
  });
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');

  if (config.SEED_ON_START && (await db.platform((sql) => countCompanies(sql))) === 0) {
    app.log.info({ scale: config.SEED_SCALE }, 'empty database: loading the demo accounts');
    const accounts = await loadDemoAccounts(db, {
      scale: config.SEED_SCALE,
      installationUrl: auth.publicUrl,
      log: (message) => app.log.info(message),
    });
    demoSignIns = [
      // Demo accounts only: these are the published demo credentials, not personal data.
      ...accounts.companies.map(
        (company) => `${company.name}: ${company.ownerEmail} / ${company.ownerPassword}`,
      ),
      `${accounts.support.name} (platform staff, /hijack): ${accounts.support.staffEmail} / ${accounts.support.staffPassword}`,
    ];
  }

  const stopping = new AbortController();
  let demoHistory: Promise<unknown> = Promise.resolve();
  let starters: Promise<unknown> = Promise.resolve();
  const shutdown = async (signal: string) => {
    if (stopping.signal.aborted) return;
    stopping.abort();
    app.log.info({ signal }, 'shutting down');
    await app.close();
    // The demo loader stops between two batches; the database closes after it.
    await demoHistory;
    await starters;
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ url: auth.publicUrl }, 'ready');
  printWelcome(config.BRAND_NAME, auth.publicUrl, demoSignIns);

  // Companies from before the starter segments (migration 0022) get theirs once, while the server answers.
  starters = giveOwedStarterSegments(db, stopping.signal).then(
    (given) => {
      if (given.length > 0) app.log.info({ companies: given.length }, 'starter segments given');
    },
    (error: unknown) => {
      if (!stopping.signal.aborted) app.log.error({ err: error }, 'giving the starter segments failed');
    },
  );

  // The demo's POS history (or the rest of an interrupted load) loads while the server already answers;
  // the app shows a banner meanwhile (GET /api/demo/status/).
  demoHistory = loadDemoHistory(db, {
    log: (message) => app.log.info(message),
    signal: stopping.signal,
  }).then(
    async (loaded) => {
      if (!loaded) return;
      app.log.info('demo data loaded');
      // The demo companies' CLV is fitted now rather than at the next scheduler tick (docs/clv.md).
      await requestDueClvRefreshes(db).catch((error: unknown) =>
        app.log.error({ code: (error as { code?: string }).code }, 'CLV refresh not asked for'),
      );
    },
    (error: unknown) => {
      if (stopping.signal.aborted) app.log.info('demo data loading paused: the next start resumes it');
      else app.log.error({ err: error }, 'loading the demo data failed');
    },
  );
}

/** One plain-text paragraph for the person who ran `npm start`: where to open the app, and the demo sign-ins. */
function printWelcome(brand: string, url: string, demoSignIns: readonly string[]): void {
  const lines = [``, `${brand} is running at ${url}`];
  if (demoSignIns.length > 0) lines.push(`Demo sign-ins:`, ...demoSignIns.map((line) => `  ${line}`));
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
