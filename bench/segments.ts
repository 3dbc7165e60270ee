/**
 * The segment list (docs/segments.md): `GET /api/campaigns/segments/` through the whole HTTP stack in-process,
 * a page of 25 of BENCH_SEGMENTS (200) saved segments each with its cached figures, p50/p95 beside the same two
 * statements' SQL run directly in one transaction (the count, the page with its groups, the page's caches).
 * The list reads segments and their caches only, so the company's guests do not change its cost: a scratch
 * database with one company is enough. BENCH_SEGMENT_ITERATIONS (200) the timed loop.
 */
import { buildApp } from '../server/app.js';
import {
  benchCompany,
  envInt,
  openBenchDatabase,
  printFigure,
  round,
  timeLoop,
  type BenchDriver,
} from './support.js';

const PAGE_SIZE = 25;

// The list's statements (server/repositories/segments.repository.ts `listSegments`, segment-cache.repository.ts
// `listSegmentCaches`); keep in step with them so the two figures compare like with like.
const COUNT_SQL = `SELECT count(*)::int AS count FROM segments s WHERE s.company_id = $1`;
const PAGE_SQL = `
  SELECT s.id, s.company_id, s.name, s.description, s.segment_type, s.location_ids, s.group_ids, s.created_by,
         s.created_at, s.updated_at,
         coalesce((SELECT jsonb_agg(jsonb_build_object('id', g.id, 'position', g.position,
                                                        'segment_rules', g.segment_rules)
                                    ORDER BY g.position, g.id)
                   FROM segment_groups g WHERE g.company_id = $1 AND g.segment_id = s.id), '[]'::jsonb) AS segment_groups
  FROM segments s WHERE s.company_id = $1 ORDER BY lower(s.name), s.id LIMIT $2 OFFSET 0`;
const CACHES_SQL = `SELECT * FROM segment_cache WHERE company_id = $1 AND segment_id = ANY($2::bigint[])`;

/** The segment list with BENCH_SEGMENTS segments, through the API and as its SQL alone. */
export async function benchSegments(driver: BenchDriver): Promise<void> {
  const segments = envInt('BENCH_SEGMENTS', 200);
  const loop = { warmup: 20, iterations: envInt('BENCH_SEGMENT_ITERATIONS', 200) };
  const bench = await openBenchDatabase(driver);
  // The saves below come faster than a marketer's: the preview limit (which guards the POST) is lifted.
  const app = await buildApp({
    db: bench.db,
    logLevel: 'silent',
    clientDir: null,
    imports: { runJobs: false },
    rateLimits: { preview: { max: 1_000_000, windowSeconds: 60 } },
  });
  try {
    await app.ready();
    const company = await benchCompany(bench.db, 'Bench Segments');
    // Saved through the API, as a marketer would: each with two groups and its figures cached.
    for (let n = 0; n < segments; n++) {
      const saved = await app.inject({
        method: 'POST',
        url: '/api/campaigns/segments/',
        headers: company.headers,
        payload: {
          name: `Segment ${String(n).padStart(3, '0')}`,
          segment_groups: [
            {
              segment_rules: [{ type: 'visit_count', operator: 'gte', value: 1 + (n % 5), window_days: 90 }],
            },
            { segment_rules: [{ type: 'days_since_last_visit', operator: 'lte', value: 30 + n }] },
          ],
        },
      });
      if (saved.statusCode !== 201)
        throw new Error(`saving a segment answered ${saved.statusCode}: ${saved.body}`);
    }
    const url = `/api/campaigns/segments/?page=1&page_size=${PAGE_SIZE}`;
    const probe = await app.inject({ method: 'GET', url, headers: company.headers });
    const body = probe.json<{ count: number; results: { segmentcache: { computed_at: string | null } }[] }>();
    if (
      probe.statusCode !== 200 ||
      body.count !== segments ||
      body.results.some((row) => !row.segmentcache.computed_at)
    ) {
      throw new Error(`${url} answered ${probe.statusCode} with ${body.count} segments`);
    }

    const endpoint = await timeLoop(async () => {
      const response = await app.inject({ method: 'GET', url, headers: company.headers });
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
    }, loop);
    const direct = await timeLoop(
      () =>
        bench.db.tenant(company.id, async (sql) => {
          await sql.query(COUNT_SQL, [company.id]);
          const page = await sql.query<{ id: number }>(PAGE_SQL, [company.id, PAGE_SIZE]);
          await sql.query(CACHES_SQL, [company.id, page.rows.map((row) => row.id)]);
        }),
      loop,
    );
    printFigure({
      bench: 'segments.list',
      driver,
      segments,
      page_size: PAGE_SIZE,
      endpoint_p50_ms: round(endpoint.p50Ms, 2),
      endpoint_p95_ms: round(endpoint.p95Ms, 2),
      direct_sql_p50_ms: round(direct.p50Ms, 2),
      direct_sql_p95_ms: round(direct.p95Ms, 2),
      direct_to_endpoint_p95: round(direct.p95Ms / endpoint.p95Ms, 3),
      requests: loop.iterations,
    });
  } finally {
    await app.close();
    await bench.drop();
  }
}
