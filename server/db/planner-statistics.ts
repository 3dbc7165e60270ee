import type { Database } from './database.js';

/**
 * Planner statistics and vacuuming for PGlite, which runs no autovacuum. Without a fresh ANALYZE the planner keeps
 * believing a company has the few hundred checks it had when last analysed, and plans each batch's running updates
 * as scans of the whole company (measured: the guests' item totals went from 150 to 270 ms a batch over 15,000
 * checks). Without VACUUM no page is ever marked all-visible, so every index-only read of a rollup fetches each row
 * from the table as well (measured on the demo, 28 Nov: the guests dashboard's visit counts for 90 days read 91,132
 * rows that way, 570 ms; 110 ms once vacuumed), and the rows the rollups' upserts replace are never reused. Like
 * autovacuum's rule, the check tables are vacuumed and analysed again once the rows added since the last time pass a
 * share of what was there (on the demo, about as long as the ANALYZE alone, 3 s, once the first VACUUM is done).
 * PostgreSQL's own autovacuum does this there, so it is off for PostgreSQL.
 */

/** The tables check ingestion grows, vacuumed and analysed together. */
export const CHECK_TABLES = [
  'pos_checks',
  'pos_check_lines',
  'guests',
  'guest_locations',
  'guest_menu_items',
  'menu_items',
  'guest_location_months',
  'cohort_rollups',
  'group_cohort_rollups',
  'pos_location_days',
  'pos_revenue_center_days',
  'pos_menu_item_days',
  'pos_guest_days',
  'pos_location_hours',
  'pos_basket_checks',
  'pos_basket_items',
  'pos_basket_categories',
  'pos_basket_pairs',
  'pos_guest_presence',
  'pos_guest_frequency',
  'pos_guest_spread',
  'pos_item_presence',
  'pos_profile_days',
  'pos_guest_visits',
  'pos_company_hours',
  'pos_return_gap_bins',
  'pos_return_gaps',
  'pos_journey_gaps',
] as const;

/** When to analyse again: at least `minimumRows` added, and at least `growth` of the rows there before. */
export interface StatisticsRule {
  minimumRows: number;
  growth: number;
  /** Off by default on PostgreSQL, whose autovacuum keeps statistics itself. */
  enabled: boolean;
}

interface Upkeep {
  rule: StatisticsRule;
  /** Checks the statistics last counted; null until first read. */
  baseline: number | null;
  added: number;
  running: Promise<void> | null;
}

const upkeepOf = new WeakMap<Database, Upkeep>();

/** The rule a database gets unless told otherwise (autovacuum's 10 % with a floor of 1,000 rows). */
export function defaultStatisticsRule(db: Database): StatisticsRule {
  return { minimumRows: 1000, growth: 0.1, enabled: db.kind === 'pglite' };
}

async function checksCounted(db: Database): Promise<number> {
  const { rows } = await db.owner((sql) =>
    sql.query<{ tuples: number }>(
      "SELECT greatest(reltuples, 0)::float8 AS tuples FROM pg_class WHERE oid = 'pos_checks'::regclass",
    ),
  );
  return rows[0]?.tuples ?? 0;
}

/**
 * Notes `count` checks stored (by any company) and vacuums and analyses the check tables when enough have been
 * added since the last time. One run at a time per database; checks noted meanwhile count towards the next.
 */
export async function noteChecksStored(
  db: Database,
  count: number,
  rule: StatisticsRule = defaultStatisticsRule(db),
): Promise<void> {
  let upkeep = upkeepOf.get(db);
  if (!upkeep) {
    upkeep = { rule, baseline: null, added: 0, running: null };
    upkeepOf.set(db, upkeep);
  }
  if (!upkeep.rule.enabled || count <= 0) return;
  upkeep.added += count;
  if (upkeep.running) return;
  upkeep.baseline ??= await checksCounted(db);
  if (upkeep.added < Math.max(upkeep.rule.minimumRows, upkeep.rule.growth * upkeep.baseline)) return;
  const state = upkeep;
  state.added = 0;
  state.running = db
    .vacuum(CHECK_TABLES)
    .then(async () => {
      state.baseline = await checksCounted(db);
    })
    .finally(() => {
      state.running = null;
    });
  await state.running;
}
