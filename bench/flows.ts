/**
 * The flow engine (docs/flows.md) on PostgreSQL (BENCH_DATABASE_URL): BENCH_FLOW_PEOPLE (100,000) people in a flow,
 * all due at once, worked by two runners in parallel (as two processes would), in enrolments and steps per second
 * (each enrolment sends an email through a mail run, then starts a wait); and the due-to-done latency of
 * BENCH_FLOW_LATENCY_PEOPLE (5,000) enrolments falling due over 10 real seconds while a runner runs on its normal
 * timer (p50, p95, max: from the step's due time to its mail run's creation), then the same for
 * BENCH_FLOW_SUSTAINED_PEOPLE (500, 50 a second: below what the shared 2-core machine moves; docs/flows.md "Speed").
 */
import { systemClock, testClock } from '../server/flows/clock.js';
import { DEFAULT_FLOW_RUNNER_SETTINGS, flowRunner } from '../server/jobs/flow-runner.js';
import type { Database } from '../server/db/database.js';
import type { FlowGraphItem } from '../src/schemas/flows.js';
import { makeFlowCompany, makeLiveFlow } from '../tests/support/flow-fixture.js';
import { envInt, openBenchDatabase, printFigure, round } from './support.js';

const silentLog = { error: () => undefined };
const at = { x: 0, y: 0 };

function graph(templateId: number): FlowGraphItem[] {
  return [
    {
      key: 't',
      kind: 'trigger',
      settings: { type: 'new_subscriber' },
      position: at,
      next_key: 'a',
      no_key: null,
    },
    {
      key: 'a',
      kind: 'action',
      settings: {
        type: 'send_email',
        template_id: templateId,
        sender_id: null,
        subject: 'Hello',
        preheader: '',
      },
      position: at,
      next_key: 'w',
      no_key: null,
    },
    {
      key: 'w',
      kind: 'delay',
      settings: { type: 'wait', amount: 1, unit: 'days' },
      position: at,
      next_key: null,
      no_key: null,
    },
  ];
}

/** `people` subscribers enrolled at step `a` of the flow, due from `from` spread over `spreadMs`. */
async function enrolPeople(
  db: Database,
  companyId: number,
  flow: { flowId: number; versionId: number },
  people: number,
  tag: string,
  from: Date,
  spreadMs: number,
): Promise<void> {
  await db.owner(async (sql) => {
    await sql.query(
      `INSERT INTO subscribers (company_id, email, hashid, first_name)
       SELECT $1, $2 || g || '@bench.example', $2 || g, 'P' || g FROM generate_series(1, $3::int) g`,
      [companyId, tag, people],
    );
    await sql.query(
      `INSERT INTO flow_enrolments (company_id, flow_id, flow_version_id, subscriber_id, entry_no, current_key,
                                    next_run_at, entered_at)
       SELECT $1, $2, $3, s.id, 1, 'a',
              $5::timestamptz + make_interval(secs => (row_number() OVER (ORDER BY s.id)) * $6::double precision / $7),
              $5::timestamptz
       FROM subscribers s WHERE s.company_id = $1 AND s.hashid LIKE $4 || '%'`,
      [companyId, flow.flowId, flow.versionId, tag, from, spreadMs / 1000, people],
    );
    await sql.query('ANALYZE flow_enrolments');
  });
}

/**
 * Due-to-done latency of `people` enrolments falling due over 10 real seconds from 2 seconds on, one runner on its
 * timer and the real clock: from a step's due time to its mail run's creation (p50, p95, max).
 */
async function latencyOf(
  db: Database,
  companyId: number,
  flow: { flowId: number; versionId: number },
  people: number,
  tag: string,
): Promise<{ done: number; p50_ms: number; p95_ms: number; max_ms: number }> {
  await enrolPeople(db, companyId, flow, people, tag, new Date(Date.now() + 2_000), 10_000);
  const live = flowRunner(
    db,
    { clock: systemClock, domain: 'bench.example', log: silentLog },
    DEFAULT_FLOW_RUNNER_SETTINGS,
  );
  live.start();
  const deadline = Date.now() + 120_000;
  let latencies: number[] = [];
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    latencies = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ ms: number }>(
        `SELECT extract(epoch FROM r.created_at - st.entered_at) * 1000 AS ms
         FROM flow_enrolment_steps st JOIN mail_runs r ON r.id = st.mail_run_id
         WHERE st.flow_id = $1 AND st.key = 'a'`,
        [flow.flowId],
      );
      return rows.map((row) => Math.max(0, Number(row.ms))).sort((a, b) => a - b);
    });
    if (latencies.length >= people) break;
  }
  await live.stop();
  const quantile = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return {
    done: latencies.length,
    p50_ms: round(quantile(0.5)),
    p95_ms: round(quantile(0.95)),
    max_ms: round(latencies.at(-1) ?? NaN),
  };
}

/**
 * A fixed-offset zone where it is about 13:00 now: the runs last minutes, far from quiet hours (21:00–08:00), which
 * would otherwise hold every email (a bench started at night in the fixture's zone sent none).
 */
function middayZone(now = new Date()): string {
  const offset = ((13 - now.getUTCHours() + 36) % 24) - 12;
  // POSIX sign: Etc/GMT-10 is ten hours ahead of UTC.
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** Prints the throughput and the latency figures. */
export async function benchFlows(): Promise<void> {
  if (!process.env.BENCH_DATABASE_URL) return;
  const people = envInt('BENCH_FLOW_PEOPLE', 100_000);
  const latencyPeople = envInt('BENCH_FLOW_LATENCY_PEOPLE', 5_000);
  const sustainedPeople = envInt('BENCH_FLOW_SUSTAINED_PEOPLE', 500);
  const bench = await openBenchDatabase('postgres');
  try {
    const { db } = bench;
    const company = await makeFlowCompany(db, 'Bench Flows');
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [company.companyId, middayZone()]),
    );
    const flow = await makeLiveFlow(db, company.companyId, graph(company.templateId));
    const start = new Date(Date.now() - 60_000);
    await enrolPeople(db, company.companyId, flow, people, 'fb', start, 1_000);
    const clock = testClock(new Date(start.getTime() + 5_000));
    const runners = [0, 1].map(() =>
      flowRunner(db, { clock, domain: 'bench.example', log: silentLog }, DEFAULT_FLOW_RUNNER_SETTINGS),
    );
    const began = performance.now();
    await Promise.all(runners.map((runner) => runner.tick()));
    const seconds = (performance.now() - began) / 1000;
    const steps = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ n: number; sent: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE outcome = 'sent')::int AS sent
         FROM flow_enrolment_steps WHERE flow_id = $1`,
        [flow.flowId],
      );
      return rows[0]!;
    });
    printFigure({
      bench: 'flows-throughput',
      driver: 'postgres',
      people,
      runners: runners.length,
      seconds: round(seconds),
      enrolments_per_second: round(people / seconds),
      steps_per_second: round(steps.n / seconds),
      emails_sent: steps.sent,
    });

    // Latency at the arrival (BENCH_FLOW_LATENCY_PEOPLE over 10 s, above what a 2-core machine moves:
    // it measures the backlog), then at a sustainable one (BENCH_FLOW_SUSTAINED_PEOPLE over 10 s).
    for (const [arrival, count] of [
      ['default', latencyPeople],
      ['sustained', sustainedPeople],
    ] as const) {
      const flowOf = await makeLiveFlow(db, company.companyId, graph(company.templateId));
      const figures = await latencyOf(db, company.companyId, flowOf, count, `l${arrival[0]}`);
      printFigure({
        bench: 'flows-latency',
        driver: 'postgres',
        arrival,
        people: count,
        per_second: count / 10,
        every_ms: DEFAULT_FLOW_RUNNER_SETTINGS.everyMs,
        ...figures,
      });
    }
  } finally {
    await bench.drop();
  }
}
