import type { Sql } from '../db/database.js';

/** How far the demo data set's POS history has loaded, over every demo company. */
export interface DemoLoadProgress {
  /** Demo companies whose history is not finished yet. */
  unfinished: number;
  /** Demo companies whose last attempt stopped on a failure (the next start tries again). */
  failed: number;
  checksLoaded: number;
  checksTotal: number;
}

/**
 * The demo loads' progress (`demo_loads`, written by the seed). Platform-wide: call it in a platform
 * transaction. An installation without a demo has no rows and reports nothing unfinished.
 */
export async function readDemoLoadProgress(sql: Sql): Promise<DemoLoadProgress> {
  const { rows } = await sql.query<DemoLoadProgress>(
    `SELECT count(*) FILTER (WHERE finished_at IS NULL)::int AS "unfinished",
            count(*) FILTER (WHERE failure IS NOT NULL)::int AS "failed",
            coalesce(sum(CASE WHEN finished_at IS NULL THEN checks_loaded ELSE checks_total END), 0)::int
              AS "checksLoaded",
            coalesce(sum(checks_total), 0)::int AS "checksTotal"
     FROM demo_loads`,
  );
  return rows[0]!;
}
