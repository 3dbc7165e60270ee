import { authSettingsFrom } from './auth/settings.js';
import { loadConfig, sendingConfigOf } from './config.js';
import { createMailer } from './mail/create-mailer.js';
import { sharedTestClock, testClockEnabled } from './flows/clock.js';
import { webhookSettingsFrom } from './flows/webhook.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { jobWorkers, startWorkers, stopWorkers, type JobWorkerLog } from './jobs/workers.js';
import { sendingSettingsFrom } from './sending/sending-settings.js';

/**
 * `npm run worker`: the background job workers (server/jobs/workers.ts) as a process of their own, beside API
 * processes started with RUN_JOBS=false, all on one PostgreSQL database (DATABASE_URL). Run as many as the
 * work needs: each job is claimed by one of them at a time. PGlite is one process's database, so there the
 * workers run inside the API process (`npm start`) and this command refuses to start.
 */

/** One JSON log line on standard output, shaped like the API's (level, time, msg). */
function logLine(level: 'info' | 'error', details: object, message: string): void {
  const levels = { info: 30, error: 50 };
  process.stdout.write(
    `${JSON.stringify({ level: levels[level], time: Date.now(), ...details, msg: message })}\n`,
  );
}

const log: JobWorkerLog = { error: (details, message) => logLine('error', details, message) };

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    throw new Error(
      'npm run worker needs DATABASE_URL (PostgreSQL); on the embedded database the jobs run inside npm start',
    );
  }
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    preparedStatements: config.DATABASE_PREPARE,
  });
  // Replicas starting together apply migrations once (an advisory lock serialises them).
  await migrate(db);
  // Finished segment exports are mailed from here as from the API process: same mailer, links and From.
  const publicUrl = authSettingsFrom(config).publicUrl;
  const mailer = createMailer(db, { smtpUrl: config.SMTP_URL });
  const from = config.MAIL_FROM ?? `"${config.BRAND_NAME}" <no-reply@${new URL(publicUrl).hostname}>`;
  const sending = sendingSettingsFrom({ publicUrl, smtpUrl: config.SMTP_URL, ...sendingConfigOf(config) });
  const workers = jobWorkers(
    db,
    log,
    {},
    {},
    {
      mail: { mailer, publicUrl, brandName: config.BRAND_NAME, from },
    },
    sending,
    {
      webhooks: webhookSettingsFrom(config),
      mail: { mailer, from },
      // The same shared test clock as the API process's (its offset is in the database); refused in production.
      ...(testClockEnabled({ ...config, NODE_ENV: process.env.NODE_ENV })
        ? { clock: sharedTestClock(db) }
        : {}),
    },
  );
  startWorkers(workers);
  logLine('info', { workers: workers.all.map((worker) => worker.name), pid: process.pid }, 'workers ready');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logLine('info', { signal }, 'workers stopping after their current batch');
    await stopWorkers(workers);
    await mailer.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
