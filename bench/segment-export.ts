/**
 * Background segment exports (docs/segments.md, "Background exports"): a segment of about 78 % of
 * BENCH_EXPORT_GUESTS guests (200,000 on PostgreSQL, 50,000 on PGlite) exported in the background, from
 * `?trigger=1` until its status says done, then its stored file downloaded, beside the streamed export of the
 * same segment (the in-process baseline) in the same run; the two files are checked byte for byte. On a
 * scratch database (`regulars_bench_bgexport_*` on PostgreSQL), BENCH_EXPORT_RUNS (3) runs after one warm-up.
 */
import { buildAppWithServices } from '../server/app.js';
import { createUser } from '../server/repositories/users.repository.js';
import { benchCompany, envInt, openBenchDatabase, printFigure, round, type BenchDriver } from './support.js';
import { openScratchPostgres } from '../tests/support/database.js';

/** Waits a little between two looks at the export's status. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One driver's figures: p50 and max of the background export, its download and the stream. */
export async function benchSegmentExport(driver: BenchDriver): Promise<void> {
  const guests = envInt('BENCH_EXPORT_GUESTS', driver === 'postgres' ? 200_000 : 50_000);
  const runs = envInt('BENCH_EXPORT_RUNS', 3);
  const bench =
    driver === 'postgres'
      ? { driver, ...(await openScratchPostgres(process.env.BENCH_DATABASE_URL!, 'regulars_bench_bgexport')) }
      : await openBenchDatabase(driver);
  const { app, tokens } = await buildAppWithServices({
    db: bench.db,
    logLevel: 'silent',
    clientDir: null,
    segmentExports: { pollMs: 20 },
  });
  try {
    await app.ready();
    const company = await benchCompany(bench.db, 'Bench Exports');
    const scope = { companyId: company.id, userId: null, actorUserId: null };
    const user = await bench.db.tenant(company.id, (sql) =>
      createUser(sql, scope, { email: 'bench-exports@example.com', role: 'owner' }),
    );
    const headers = { authorization: `Bearer ${(await tokens.issue({ userId: user.id })).access_token}` };
    await bench.db.owner((sql) =>
      sql.query(
        `INSERT INTO guests (company_id, pos_id, hashid, customer_name, visit_count, total_spend_cents)
         SELECT $1, 'p' || i, 'h' || i, 'Guest ' || i, i % 9, (i % 500) * 100 FROM generate_series(1, $2) i`,
        [company.id, guests],
      ),
    );
    await bench.db.owner((sql) => sql.exec('ANALYZE guests'));
    const segment = (
      await app.inject({
        method: 'POST',
        url: '/api/campaigns/segments/',
        headers,
        payload: {
          name: 'Two or more visits',
          segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 2 }] }],
        },
      })
    ).json<{ id: number }>().id;
    const stream: number[] = [];
    const background: number[] = [];
    const download: number[] = [];
    let rows = 0;
    for (let run = 0; run <= runs; run++) {
      let started = performance.now();
      const streamed = await app.inject({
        method: 'GET',
        url: `/api/campaigns/segments/${segment}/export/`,
        headers,
      });
      const streamMs = performance.now() - started;
      started = performance.now();
      const queued = (
        await app.inject({
          method: 'GET',
          url: `/api/campaigns/segments/${segment}/export/?trigger=1`,
          headers,
        })
      ).json<{ id: number }>();
      for (;;) {
        const status = (
          await app.inject({ method: 'GET', url: `/api/campaigns/segment-exports/${queued.id}/`, headers })
        ).json<{ status: string }>().status;
        if (status === 'done') break;
        if (status === 'failed') throw new Error('the bench export failed');
        await pause(10);
      }
      const backgroundMs = performance.now() - started;
      started = performance.now();
      const file = await app.inject({
        method: 'GET',
        url: `/api/campaigns/segment-exports/${queued.id}/download/`,
        headers,
      });
      const downloadMs = performance.now() - started;
      if (file.body !== streamed.body) throw new Error('the stored file differs from the stream');
      rows = streamed.body.trim().split('\n').length - 1;
      // The first run warms caches and plans.
      if (run === 0) continue;
      stream.push(streamMs);
      background.push(backgroundMs);
      download.push(downloadMs);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    printFigure({
      bench: 'segment-export-background',
      driver,
      guests,
      rows,
      runs,
      background_p50_ms: round(median(background), 0),
      background_max_ms: round(Math.max(...background), 0),
      download_p50_ms: round(median(download), 0),
      stream_p50_ms: round(median(stream), 0),
      ratio_background_to_stream: round(median(background) / median(stream), 2),
    });
  } finally {
    await app.close();
    await bench.drop();
  }
}
