/**
 * The mail-run engine (docs/sending.md) at BENCH_SEND_RECIPIENTS (100,000) recipients: a run frozen from the
 * database and sent by the real send runner through nodemailer's pool to a local SMTP sink (smtp-server, in this
 * process), in messages per second (its lanes overlapping claims and writes with sending), beside a raw nodemailer pool with the same connections sending the same
 * messages, rendered beforehand, to the same sink in the same run: the ratio is the engine's cost (claims,
 * rendering, outcome writes). Also the freeze's time and the process's peak RSS after the engine's send (before
 * the baseline holds its pre-rendered messages). PGlite always; PostgreSQL too with BENCH_DATABASE_URL. Each side's
 * processor time per message too (this process's, the sink's included for both): on a shared machine the rates
 * move with other work, the processor time much less.
 */
import { createTransport } from 'nodemailer';
import { DEFAULT_SEND_RUNNER_SETTINGS, sendRunner } from '../server/jobs/send-runner.js';
import { findMailTokenSecret } from '../server/repositories/mail-outbox.repository.js';
import { findCompanyMailIdentity, findRun } from '../server/repositories/mail-runs.repository.js';
import { mailRunsService } from '../server/services/mail-runs.service.js';
import { compileRun } from '../server/sending/run-message.js';
import { runTransport } from '../server/sending/run-transport.js';
import { sendingSettingsFrom } from '../server/sending/sending-settings.js';
import { unsubscribeTokens } from '../server/sending/unsubscribe-token.js';
import { startRunSink } from '../tests/support/run-sink.js';
import { benchCompany, envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';

const CONNECTIONS = 5;
const CONTENT = {
  from: '"Bench Bistro" <news@bench.example>',
  subject: 'A table for you, {{first_name}}',
  html: '<html><body><h1>Hello {{first_name}} {{last_name}}</h1><p>New menu at {{location_name}}.</p>'.concat(
    '<p>'.concat('Seasonal dishes and a warm welcome. '.repeat(40), '</p></body></html>'),
  ),
  text: 'Hello {{first_name}} {{last_name}}\n\n'.concat('Seasonal dishes and a warm welcome. '.repeat(40)),
  tracking: false,
};

/** Processor time (user and system) of a `process.cpuUsage` difference, in milliseconds. */
function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

/** Sends the run with the engine and the same messages with a raw pool; prints one figure. */
export async function benchSending(driver: BenchDriver): Promise<void> {
  const recipients = envInt('BENCH_SEND_RECIPIENTS', 100_000);
  const batchSize = envInt('BENCH_SEND_BATCH', DEFAULT_SEND_RUNNER_SETTINGS.batchSize);
  const bench = await openBenchDatabase(driver);
  const sink = await startRunSink({ keep: false });
  try {
    const { db } = bench;
    const company = await benchCompany(db, 'Bench Sending');
    const scope = { companyId: company.id, userId: null, actorUserId: null };
    const service = mailRunsService(db, 'bench.example');
    await service.setPostalAddress(scope, '100 Main St, Portland, OR 97201');
    const ids = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        `INSERT INTO subscribers (company_id, email, hashid, first_name, last_name)
         SELECT $1, 'guest' || g || '@bench.example', 'b' || g, 'First' || g, 'Last' || g
         FROM generate_series(1, $2::int) g RETURNING id::int`,
        [company.id, recipients],
      );
      return rows.map((row) => row.id);
    });
    let started = performance.now();
    const frozen = await service.freezeRun(scope, {
      kind: 'campaign',
      sourceId: null,
      runKey: 'bench',
      content: CONTENT,
      audience: { subscriberIds: ids },
    });
    const freezeMs = performance.now() - started;

    const settings = sendingSettingsFrom(
      { publicUrl: 'https://bench.example', smtpUrl: sink.url },
      { batchSize, ratePerSecond: 1_000_000 },
    );
    const transport = runTransport(db, { ...settings.transport, maxConnections: CONNECTIONS });
    const runner = sendRunner(db, transport, { error: () => undefined }, settings.runner);
    started = performance.now();
    let cpu = process.cpuUsage();
    runner.start();
    while (sink.received.length < frozen.recipients) await new Promise((resolve) => setTimeout(resolve, 5));
    const engineSeconds = (performance.now() - started) / 1000;
    const engineCpuMs = cpuMs(process.cpuUsage(cpu));
    await runner.stop();
    await transport.close();
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    const engineReceived = sink.received.length;

    // The same messages rendered beforehand, then only the pool's work is timed.
    const rows = await db.tenant(company.id, (sql) =>
      sql.query<{ id: number; email: string; merge: Record<string, string>; message_id: string }>(
        'SELECT id::int, email, merge, message_id FROM mail_outbox WHERE run_id = $1 ORDER BY id',
        [frozen.run.id],
      ),
    );
    const run = await db.tenant(company.id, async (sql) =>
      compileRun(
        (await findRun(sql, company.id, frozen.run.id))!,
        (await findCompanyMailIdentity(sql, company.id))!,
      ),
    );
    const signer = unsubscribeTokens(await db.platform(findMailTokenSecret));
    const messages = rows.rows.map((row) => {
      const token = signer.sign({ companyId: company.id, outboxId: row.id });
      return run.render(
        {
          email: row.email,
          merge: row.merge,
          messageId: row.message_id,
          runId: frozen.run.id,
          outboxId: row.id,
        },
        {
          url: `https://bench.example/u/${token}`,
          mailto: `mailto:unsubscribe@bench.example?subject=${token}`,
          viewUrl: `https://bench.example/v/${token}`,
        },
      );
    });
    const pool = createTransport({
      url: sink.url,
      pool: true,
      maxConnections: CONNECTIONS,
      maxMessages: Infinity,
    });
    started = performance.now();
    cpu = process.cpuUsage();
    for (let at = 0; at < messages.length; at += 1000) {
      await Promise.all(messages.slice(at, at + 1000).map((message) => pool.sendMail(message)));
    }
    const rawSeconds = (performance.now() - started) / 1000;
    const rawCpuMs = cpuMs(process.cpuUsage(cpu));
    pool.close();

    const engineRate = engineReceived / engineSeconds;
    const rawRate = (sink.received.length - engineReceived) / rawSeconds;
    printFigure({
      bench: 'sending',
      driver,
      recipients,
      batch_size: batchSize,
      connections: CONNECTIONS,
      freeze_seconds: round(freezeMs / 1000),
      engine_messages_per_second: round(engineRate, 0),
      raw_pool_messages_per_second: round(rawRate, 0),
      ratio: round(engineRate / rawRate),
      engine_cpu_ms_per_message: round(engineCpuMs / engineReceived, 3),
      raw_cpu_ms_per_message: round(rawCpuMs / (sink.received.length - engineReceived), 3),
      engine_received: engineReceived,
      peak_rss_mb: round(peakRssMb, 0),
    });
  } finally {
    await sink.stop();
    await bench.drop();
  }
}
