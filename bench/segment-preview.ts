/**
 * The preview count of each starter segment (docs/segments.md "Starter segments"): `POST
 * /api/campaigns/segments/?preview=1` through the whole HTTP stack in-process (`app.inject`), p50/p95 over
 * BENCH_PREVIEW_ITERATIONS (5) runs after one warm-up, beside a hand-written SQL statement for the same rule
 * (written as one would by hand: joins, EXISTS, a window function) run directly in one tenant transaction, in
 * the same run; the two answers must agree, and the ratio of the p95s is printed.
 *
 * PostgreSQL only (the targets are for 1M guests): one company with BENCH_PREVIEW_GUESTS (1,000,000) guests,
 * BENCH_PREVIEW_CHECKS (10,000,000) checks over the two years before the day it is built, every other guest
 * linked to a subscriber with a birthday, and a CLV prediction for every guest who visited, in the database
 * BENCH_PREVIEW_DATABASE (`regulars_bench_starters_i14_starters`) on the BENCH_DATABASE_URL server, generated
 * by INSERT … SELECT and kept for the next run. (`regulars_bench_load` holds guests and subscribers but no
 * checks, birthdays or predictions, which five of the seven starters read.)
 */
import { buildApp } from '../server/app.js';
import type { Database, Sql } from '../server/db/database.js';
import { STARTER_RULES, type StarterKey } from '../server/segments/starter-segments.js';
import { makeLocation } from '../tests/support/factories.js';
import {
  benchCompany,
  benchToken,
  envInt,
  keptCompanyRows,
  openKeptDatabase,
  printFigure,
  round,
  timeLoop,
  type BenchDriver,
} from './support.js';

const DATABASE = process.env.BENCH_PREVIEW_DATABASE ?? 'regulars_bench_starters_i14_starters';
const SLUG = 'bench-starters';
const LOCATIONS = 10;
const DAYS = 730;

// ───────────────────────────── the same counts by hand ─────────────────────────────

// $1 the company. `co`: its zone and local date; each statement's `members` are the segment's guests.
const TODAY = `co AS (SELECT time_zone AS tz, (now() AT TIME ZONE time_zone)::date AS today
                      FROM companies WHERE id = $1)`;
const COUNTS = `SELECT count(*)::int AS "all",
  (count(*) FILTER (WHERE EXISTS (SELECT 1 FROM subscribers s
                                  WHERE s.company_id = $1 AND s.guest_id = m.id AND s.subscribed)))::int AS marketable,
  (count(*) FILTER (WHERE m.visit_count > 0
                      AND (m.pos_id <> m.hashid OR (m.customer_name <> '' AND m.last_four_digits <> ''))))::int
    AS trackable
  FROM members m`;
const GUEST = `g.id, g.visit_count, g.pos_id, g.hashid, g.customer_name, g.last_four_digits`;

/** Each starter's hand-written statement: its members, then the three counts. */
const BY_HAND: Record<StarterKey, string> = {
  new_guests: `WITH ${TODAY}, members AS (
      SELECT ${GUEST} FROM guests g, co
      WHERE g.company_id = $1 AND g.first_visit_at >= (co.today - 29)::timestamp AT TIME ZONE co.tz)
    ${COUNTS}`,
  regulars: `WITH ${TODAY}, members AS (
      SELECT ${GUEST} FROM guests g
      JOIN (SELECT c.guest_id FROM pos_checks c, co
            WHERE c.company_id = $1 AND c.guest_id IS NOT NULL
              AND c.closed_at >= (co.today - 89)::timestamp AT TIME ZONE co.tz
            GROUP BY c.guest_id HAVING count(*) >= 4) r ON r.guest_id = g.id
      WHERE g.company_id = $1)
    ${COUNTS}`,
  lapsed_regulars: `WITH ${TODAY}, members AS (
      SELECT ${GUEST} FROM guests g, co
      WHERE g.company_id = $1 AND g.visit_count >= 4
        AND g.last_visit_at < (co.today - 59)::timestamp AT TIME ZONE co.tz)
    ${COUNTS}`,
  big_spenders: `WITH members AS (
      SELECT * FROM (SELECT ${GUEST}, rank() OVER (ORDER BY g.total_spend_cents DESC) AS place,
                            count(*) OVER () AS n
                     FROM guests g WHERE g.company_id = $1 AND g.visit_count > 0) ranked
      WHERE (place - 1) * 100 < n * 10)
    ${COUNTS}`,
  birthdays_this_month: `WITH ${TODAY}, members AS (
      SELECT ${GUEST} FROM guests g, co
      WHERE g.company_id = $1 AND EXISTS (
        SELECT 1 FROM subscribers s WHERE s.company_id = $1 AND s.guest_id = g.id
          AND extract(month FROM s.birthday) = extract(month FROM co.today)))
    ${COUNTS}`,
  at_risk: `WITH members AS (
      SELECT ${GUEST} FROM guests g JOIN guest_predictions p ON p.company_id = $1 AND p.guest_id = g.id
      WHERE g.company_id = $1 AND p.probability_alive <= 0.3 AND g.visit_count >= 3)
    ${COUNTS}`,
  not_subscribed: `WITH members AS (
      SELECT ${GUEST} FROM guests g
      WHERE g.company_id = $1
        AND NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.company_id = $1 AND s.guest_id = g.id))
    ${COUNTS}`,
};

// ───────────────────────────── the data ─────────────────────────────

/**
 * One company: guests, checks over the two years up to yesterday (six in seven with a guest; in the last 30 days
 * one in five goes to the newest 2 % of the guests, who have no check before, so "new guests" is not empty), the
 * guests' running totals, subscribers for every other guest (two in three subscribed, birthdays over the year)
 * and a prediction for every guest who visited.
 */
async function generate(db: Database, guests: number, checks: number): Promise<number> {
  const company = await benchCompany(db, 'Bench Starters');
  const companyId = company.id;
  await db.owner((sql) =>
    sql.query(`UPDATE companies SET time_zone = 'America/Los_Angeles' WHERE id = $1`, [companyId]),
  );
  const locations: number[] = [];
  for (let i = 1; i <= LOCATIONS; i++) {
    locations.push((await makeLocation(db, companyId, `Starter Bistro ${String(i).padStart(2, '0')}`)).id);
  }
  const step = (label: string, started: number) =>
    process.stderr.write(
      `segment-preview bench: ${label} in ${round((performance.now() - started) / 1000, 1)} s\n`,
    );
  const owner = <T>(fn: (sql: Sql) => Promise<T>) =>
    db.owner(async (sql) => {
      // Generated consistent, so the per-row foreign-key triggers are skipped (superuser only), as a restore does.
      await sql.exec(
        `SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'; SET LOCAL session_replication_role = replica`,
      );
      return fn(sql);
    });
  let started = performance.now();
  const firstGuest = await owner(async (sql) => {
    const made = await sql.query<{ first: number }>(
      `WITH g AS (INSERT INTO guests (company_id, pos_id, hashid, first_location_id)
                  SELECT $1, 'SG' || i, 'sg' || i, ($2::bigint[])[1 + i % ${LOCATIONS}]
                  FROM generate_series(1, $3::int) i RETURNING id)
       SELECT min(id)::bigint AS first FROM g`,
      [companyId, locations, guests],
    );
    return Number(made.rows[0]!.first);
  });
  step(`${guests} guests`, started);
  const older = Math.floor(guests * 0.98);
  const chunk = 1_000_000;
  for (let start = 0; start < checks; start += chunk) {
    started = performance.now();
    await owner((sql) =>
      sql.query(
        `INSERT INTO pos_checks (company_id, location_id, guest_id, check_number, opened_at, closed_at, guest_count,
                                 subtotal_cents, total_cents)
         SELECT $1, ($2::bigint[])[1 + i % ${LOCATIONS}],
                CASE WHEN i % 7 = 0 THEN NULL
                     WHEN at >= $9::timestamptz - interval '30 days' AND i % 5 = 0
                       THEN $3::bigint + $4::bigint + (i * 2654435761) % ($5::bigint - $4::bigint)
                     ELSE $3::bigint + (i * 2654435761) % $4::bigint END,
                'S' || i, at - interval '40 minutes', at, 1 + i % 4, 1000 + (i * 7919) % 9000, 1000 + (i * 7919) % 9000
         FROM generate_series($6::bigint, $7::bigint) AS i,
              LATERAL (SELECT $9::timestamptz - interval '${DAYS} days'
                              + make_interval(secs => ((i * ${DAYS}.0 * 86400 / $8::bigint) + (i * 104729) % 3600)::double precision)) AS t(at)`,
        [
          companyId,
          locations,
          firstGuest,
          older,
          guests,
          start,
          Math.min(checks, start + chunk) - 1,
          checks,
          // Yesterday's end: the history is recent whenever the data is built.
          new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000).toISOString(),
        ],
      ),
    );
    step(`checks ${Math.min(checks, start + chunk)}`, started);
  }
  started = performance.now();
  await owner(async (sql) => {
    await sql.query(
      `UPDATE guests g SET visit_count = t.n, total_spend_cents = t.spend, first_visit_at = t.first,
                           last_visit_at = t.last
       FROM (SELECT guest_id, count(*) AS n, sum(total_cents) AS spend, min(closed_at) AS first,
                    max(closed_at) AS last
             FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL GROUP BY guest_id) t
       WHERE g.company_id = $1 AND g.id = t.guest_id`,
      [companyId],
    );
    await sql.query(
      `INSERT INTO guest_locations (company_id, guest_id, location_id, visits)
       SELECT $1, guest_id, location_id, count(*) FROM pos_checks
       WHERE company_id = $1 AND guest_id IS NOT NULL GROUP BY guest_id, location_id`,
      [companyId],
    );
  });
  step('guest totals', started);
  started = performance.now();
  await owner(async (sql) => {
    await sql.query(
      `INSERT INTO subscribers (company_id, email, pos_id, hashid, guest_id, subscribed, birthday)
       SELECT $1, 'starter' || g.id || '@example.com', g.pos_id, g.hashid, g.id, g.id % 3 <> 0,
              date '1960-01-01' + ((g.id * 7919) % 14000)::int
       FROM guests g WHERE g.company_id = $1 AND g.id % 2 = 0`,
      [companyId],
    );
    await sql.query(
      `INSERT INTO guest_predictions (company_id, guest_id, probability_alive, expected_visits_next_year,
                                      expected_spend_per_visit_cents, annual_clv_cents, clv_cents)
       SELECT $1, g.id, ((g.id * 7919) % 1000) / 1000.0, 4, 3000, 12000, 30000
       FROM guests g WHERE g.company_id = $1 AND g.visit_count > 0`,
      [companyId],
    );
  });
  step('subscribers and predictions', started);
  return companyId;
}

// ───────────────────────────── the bench ─────────────────────────────

/** Each starter segment's preview through the API beside its hand-written SQL, p95 and ratio. */
export async function benchSegmentPreview(driver: BenchDriver): Promise<void> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (driver !== 'postgres' || !serverUrl) return;
  const guests = envInt('BENCH_PREVIEW_GUESTS', 1_000_000);
  const checks = envInt('BENCH_PREVIEW_CHECKS', 10_000_000);
  const loop = { warmup: 1, iterations: envInt('BENCH_PREVIEW_ITERATIONS', 5) };
  const { db, buildSeconds } = await openKeptDatabase(
    serverUrl,
    DATABASE,
    async (kept) => {
      const counted = await keptCompanyRows(kept, SLUG, ['guests', 'pos_checks']);
      return counted.guests === guests && counted.pos_checks === checks;
    },
    (empty) => generate(empty, guests, checks),
  );
  if (buildSeconds !== null) {
    printFigure({ bench: 'segment-preview.generate', driver, guests, checks, seconds: buildSeconds });
  }
  const app = await buildApp({
    db,
    logLevel: 'silent',
    clientDir: null,
    imports: { runJobs: false },
    rateLimits: { preview: { max: 1_000_000, windowSeconds: 60 } },
  });
  try {
    await app.ready();
    const { companyId } = await keptCompanyRows(db, SLUG, []);
    const headers = await benchToken(db, companyId);
    for (const starter of STARTER_RULES) {
      const preview = async () => {
        const answer = await app.inject({
          method: 'POST',
          url: '/api/campaigns/segments/?preview=1',
          headers,
          payload: { segment_groups: [{ segment_rules: starter.rules }] },
        });
        if (answer.statusCode !== 200) {
          throw new Error(`${starter.key}: the preview answered ${answer.statusCode}: ${answer.body}`);
        }
        const body = answer.json<Record<string, number>>();
        return {
          all: body.all_customers!,
          marketable: body.marketable_customers!,
          trackable: body.trackable_customers!,
        };
      };
      const byHand = () =>
        db.tenant(companyId, async (sql) => {
          const { rows } = await sql.query<{ all: number; marketable: number; trackable: number }>(
            BY_HAND[starter.key],
            [companyId],
          );
          return rows[0]!;
        });
      const [api, sql] = [await preview(), await byHand()];
      if (JSON.stringify(api) !== JSON.stringify(sql)) {
        throw new Error(`${starter.key}: the preview ${JSON.stringify(api)} and SQL ${JSON.stringify(sql)}`);
      }
      const endpoint = await timeLoop(preview, loop);
      const direct = await timeLoop(byHand, loop);
      printFigure({
        bench: 'segment-preview',
        driver,
        segment: starter.key,
        guests,
        checks,
        count: api.all,
        iterations: loop.iterations,
        p50Ms: endpoint.p50Ms,
        p95Ms: endpoint.p95Ms,
        sqlP50Ms: direct.p50Ms,
        sqlP95Ms: direct.p95Ms,
        ratio: round(endpoint.p95Ms / direct.p95Ms),
      });
    }
  } finally {
    await app.close();
    await db.close();
  }
}
