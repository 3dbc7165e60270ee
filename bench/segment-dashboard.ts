/**
 * The segment dashboard's distributions (docs/segments.md) at a million guests: `segmentDistributions` (the
 * compiler's member set and the one distributions statement) beside a hand-written statement answering the
 * same buckets for the same members, p50/p95 and their ratio, in tenant transactions as the call runs them.
 * Reads the kept load database `regulars_bench_load` (bench/load.ts builds it) on the BENCH_DATABASE_URL
 * server as it is, never migrating or writing it; skipped when absent. BENCH_DASHBOARD_ITERATIONS (10).
 */
import type { Database } from '../server/db/database.js';
import { openPostgres } from '../server/db/postgres.js';
import { segmentDistributions } from '../server/repositories/segment-rules.repository.js';
import { SPEND_BUCKET_STARTS_CENTS, VISIT_BUCKET_STARTS } from '../src/schemas/segment-dashboard.js';
import type { SegmentRuleSet } from '../src/schemas/segments.js';
import { databaseUrl, envInt, printFigure, round, timeLoop } from './support.js';

const LOAD_DATABASE = 'regulars_bench_load';
const LOAD_SLUG = 'bench-load';

/** The same distributions over a hand-written member set (`$1` the company, `$2`/`$3` the bucket bounds). */
const handWritten = (members: string) => `
  WITH m AS MATERIALIZED (${members}),
  pairs AS (SELECT width_bucket(visit_count, $2::int[]) AS v, width_bucket(total_spend_cents, $3::bigint[]) AS s,
                   count(*)::int AS n FROM m GROUP BY 1, 2)
  SELECT 'visits' AS kind, v::bigint AS key, NULL::text AS name, sum(n)::int AS members FROM pairs GROUP BY 2
  UNION ALL
  SELECT 'spend', s::bigint, NULL, sum(n)::int FROM pairs GROUP BY 2
  UNION ALL
  SELECT 'location', l.id, l.name, coalesce(v.members, 0) FROM locations l
  LEFT JOIN (SELECT gl.location_id, count(*)::int AS members FROM m
             JOIN guest_locations gl ON gl.company_id = $1 AND gl.guest_id = m.id WHERE gl.visits > 0
             GROUP BY 1) v ON v.location_id = l.id
  WHERE l.company_id = $1`;

/** The rule sets measured, each with its member set written by hand. */
const CASES: Array<{ name: string; ruleSet: SegmentRuleSet; members: string }> = [
  {
    name: 'every guest',
    ruleSet: { segment_groups: [] },
    members: 'SELECT id, visit_count, total_spend_cents FROM guests WHERE company_id = $1',
  },
  {
    name: '4+ visits',
    ruleSet: { segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 4 }] }] },
    members:
      'SELECT id, visit_count, total_spend_cents FROM guests WHERE company_id = $1 AND visit_count >= 4',
  },
  {
    name: '$100+ spent or 1 visit',
    ruleSet: {
      segment_groups: [
        { segment_rules: [{ type: 'total_spend', operator: 'gte', value: 100 }] },
        { segment_rules: [{ type: 'visit_count', operator: 'eq', value: 1 }] },
      ],
    },
    members: `SELECT id, visit_count, total_spend_cents FROM guests
              WHERE company_id = $1 AND (total_spend_cents >= 10000 OR visit_count = 1)`,
  },
];

/** Sorted rows as text, so the two statements' answers can be compared. */
const canonical = (rows: ReadonlyArray<{ kind: string; key: number | string; members: number }>) =>
  rows
    .map((row) => `${row.kind}:${Number(row.key)}:${row.members}`)
    .sort()
    .join(',');

/** The dashboard's distributions at a million guests beside hand-written SQL (PostgreSQL only). */
export async function benchSegmentDashboard(serverUrl: string): Promise<void> {
  let db: Database;
  try {
    db = await openPostgres({ connectionString: databaseUrl(serverUrl, LOAD_DATABASE) });
  } catch {
    printFigure({ bench: 'segment-dashboard', skipped: `no ${LOAD_DATABASE} database (run the load bench)` });
    return;
  }
  try {
    const companies = await db.platform((sql) =>
      sql.query<{ id: number }>('SELECT id FROM companies WHERE slug = $1', [LOAD_SLUG]),
    );
    const companyId = Number(companies.rows[0]?.id ?? 0);
    const guests = await db.tenant(companyId, (sql) =>
      sql.query<{ n: number }>('SELECT count(*)::int AS n FROM guests WHERE company_id = $1', [companyId]),
    );
    const loop = { warmup: 1, iterations: envInt('BENCH_DASHBOARD_ITERATIONS', 10) };
    const buckets = { visitStarts: VISIT_BUCKET_STARTS, spendStartsCents: SPEND_BUCKET_STARTS_CENTS };
    for (const entry of CASES) {
      const compiled = () =>
        db.tenant(companyId, (sql) => segmentDistributions(sql, companyId, entry.ruleSet, buckets));
      const byHand = () =>
        db.tenant(companyId, async (sql) => {
          const { rows } = await sql.query<{ kind: string; key: string; members: number }>(
            handWritten(entry.members),
            [companyId, VISIT_BUCKET_STARTS.slice(1), SPEND_BUCKET_STARTS_CENTS.slice(1)],
          );
          return rows;
        });
      // Both must answer the same before their times mean anything.
      if (canonical(await compiled()) !== canonical(await byHand())) {
        throw new Error(`segment dashboard "${entry.name}": the compiled and hand-written answers differ`);
      }
      const call = await timeLoop(compiled, loop);
      const baseline = await timeLoop(byHand, loop);
      printFigure({
        bench: 'segment-dashboard',
        driver: 'postgres',
        guests: guests.rows[0]!.n,
        segment: entry.name,
        iterations: loop.iterations,
        p50Ms: round(call.p50Ms, 1),
        p95Ms: round(call.p95Ms, 1),
        sqlP50Ms: round(baseline.p50Ms, 1),
        sqlP95Ms: round(baseline.p95Ms, 1),
        ratioP95: round(call.p95Ms / baseline.p95Ms, 2),
      });
    }
  } finally {
    await db.close();
  }
}
