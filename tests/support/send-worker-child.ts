import { openDatabase } from '../../server/db/open.js';
import { sendRunner } from '../../server/jobs/send-runner.js';
import { runTransport } from '../../server/sending/run-transport.js';
import { sendingSettingsFrom } from '../../server/sending/sending-settings.js';

/**
 * The kill test's worker process: the real send runner over the database named by DATABASE_URL (PostgreSQL)
 * or DATA_DIR (a PGlite directory), sending to SINK_URL, with the batch and lease the test chose. It prints
 * `sending` once it runs, and stops after its current batch on SIGTERM (the test's last, orderly stop).
 */

async function main(): Promise<void> {
  const db = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: process.env.DATA_DIR ?? '',
    poolSize: 4,
    preparedStatements: true,
  });
  const settings = sendingSettingsFrom(
    { publicUrl: 'https://mail.example.com', smtpUrl: process.env.SINK_URL },
    {
      batchSize: Number(process.env.BATCH_SIZE),
      leaseMs: Number(process.env.LEASE_MS),
      pollMs: 50,
      ratePerSecond: 1_000_000,
    },
  );
  const transport = runTransport(db, settings.transport);
  const runner = sendRunner(db, transport, { error: () => undefined }, settings.runner);
  runner.start();
  process.stdout.write('sending\n');
  process.on('SIGTERM', () => {
    void runner
      .stop()
      .then(() => transport.close())
      .then(() => db.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
