import type { CompanyId, Sql } from '../db/database.js';
import {
  addChecksToBasketRollups,
  clearBasketRollups,
  fillBasketRollups,
  monthsFromFirstCheck,
  rebuildBasketRollups,
  removeChecksFromBasketRollups,
} from './basket-rollups.repository.js';
import {
  addGuestPresence,
  clearGuestPresence,
  guestsOfChecks,
  guestsWithChecks,
  moveBatchItemPresence,
  rebuildGuestPresence,
  subtractGuestPresence,
} from './guest-presence.repository.js';

/**
 * The daily rollups of the POS checks (migration 0018), kept by increments in the transaction that stores or
 * removes checks: per location and day (revenue, checks, covers), per revenue center and day, per menu item and
 * day (units, line revenue, checks with the item), one row per guest, location and day chained to the guest's
 * previous days (migration 0021), and per location, day, opening weekday and hour, and day part (migration 0037).
 * A day is the local date of the closing time in the company's time zone.
 * The figures always equal those counted from pos_checks (tests/db/pos-rollups.test.ts). Each guest's visits
 * (migration 0038: one row per guest and day, numbered, with the next visit) are worked out again from their
 * guest-day rows wherever those change, and so are the distinct-guest rows of `pos_guest_presence` (migration
 * 0042; guest-presence.repository.ts): the batch's guests' rows subtracted before and added after. The basket
 * rollups (migration 0041, basket-rollups.repository.ts) move with the same checks.
 */

// The checks of a batch (`which`: the condition naming them) with their local day; the company's zone read once.
const batchOf = (which: string) => `batch AS MATERIALIZED (
  SELECT c.id, c.location_id, c.revenue_center_id, c.guest_id, c.total_cents, c.guest_count,
         (c.closed_at AT TIME ZONE co.time_zone)::date AS day,
         extract(isodow FROM c.opened_at AT TIME ZONE co.time_zone)::smallint AS weekday,
         extract(hour FROM c.opened_at AT TIME ZONE co.time_zone)::smallint AS hour,
         day_part(c.opened_at, loc.time_zone) AS day_part
  FROM pos_checks c JOIN companies co ON co.id = $1 JOIN locations loc ON loc.id = c.location_id
  WHERE c.company_id = $1 AND ${which})`;
const BATCH = batchOf('c.id = ANY($2::bigint[])');
// Every check of one location ($2), read on the server (a location's time-zone change).
const LOCATION_BATCH = batchOf('c.location_id = $2::bigint');

// The batch's checks by location, day, opening weekday and hour (company's zone) and day part (location's zone),
// for the hourly rollup pos_location_hours (migration 0037).
const BATCH_HOURS = `SELECT location_id, day, weekday, hour, day_part,
         count(*) AS checks, sum(total_cents) AS revenue, sum(guest_count) AS covers,
         count(*) FILTER (WHERE guest_count = 1) AS p1, count(*) FILTER (WHERE guest_count = 2) AS p2,
         count(*) FILTER (WHERE guest_count = 3) AS p3, count(*) FILTER (WHERE guest_count = 4) AS p4,
         count(*) FILTER (WHERE guest_count = 5) AS p5, count(*) FILTER (WHERE guest_count >= 6) AS p6
  FROM batch GROUP BY 1, 2, 3, 4, 5`;

// Works out again the chain columns of the guests `touched` selects (as `guest_id`) from all their rows: the
// previous day (by day, then location), the previous day at the row's location and the first day. Rows added by
// the same batch, a late older check and rows taken away all move them; only rows that change are written.
const rechainGuestsOf = (touched: string) => `
  WITH touched AS MATERIALIZED (${touched}),
  chain AS MATERIALIZED (
    SELECT d.location_id, d.day, d.guest_id,
           lag(d.day) OVER (PARTITION BY d.guest_id ORDER BY d.day, d.location_id) AS prev_day,
           lag(d.day) OVER (PARTITION BY d.guest_id, d.location_id ORDER BY d.day) AS prev_day_here,
           min(d.day) OVER (PARTITION BY d.guest_id) AS first_day
    FROM touched t JOIN pos_guest_days d ON d.company_id = $1 AND d.guest_id = t.guest_id)
  UPDATE pos_guest_days d SET prev_day = c.prev_day, prev_day_here = c.prev_day_here, first_day = c.first_day
  FROM chain c
  WHERE d.company_id = $1 AND d.day = c.day AND d.location_id = c.location_id AND d.guest_id = c.guest_id
    AND (d.prev_day, d.prev_day_here, d.first_day) IS DISTINCT FROM (c.prev_day, c.prev_day_here, c.first_day)`;

// The batch's guests: rows taken away leave the next rows pointing at them.
const RECHAIN_BATCH_GUESTS = rechainGuestsOf(`
    SELECT DISTINCT guest_id FROM pos_checks
    WHERE company_id = $1 AND id = ANY($2::bigint[]) AND guest_id IS NOT NULL`);

// The batch's guests with a row after one of the batch's days: only a row added before another (of the same batch
// or stored) leaves a chain to mend. Checks arriving in order, the usual case, touch almost none.
const RECHAIN_GUESTS_ADDED_BEFORE_LATER_ROWS = rechainGuestsOf(`
    SELECT DISTINCT b.guest_id
    FROM (SELECT c.guest_id, c.location_id,
                 (c.closed_at AT TIME ZONE (SELECT time_zone FROM companies WHERE id = $1))::date AS day
          FROM pos_checks c WHERE c.company_id = $1 AND c.id = ANY($2::bigint[]) AND c.guest_id IS NOT NULL) b
    WHERE EXISTS (SELECT 1 FROM pos_guest_days d
                  WHERE d.company_id = $1 AND d.guest_id = b.guest_id AND (d.day, d.location_id) > (b.day, b.location_id))`);

// Works out again the visits (migration 0038) of the guests `touched` selects (as `guest_id`) from their guest-day
// rows: a day is one visit, at its first location by id; numbered by day, each pointing at the next. Only rows
// that change are written, and days no longer visited are removed.
const revisitGuestsOf = (touched: string) => `
  WITH touched AS MATERIALIZED (${touched}),
  visits AS MATERIALIZED (
    SELECT guest_id, day, location_id,
           row_number() OVER w AS visit_number, lead(day) OVER w AS next_day, lead(location_id) OVER w AS next_location_id
    FROM (SELECT d.guest_id, d.day, min(d.location_id) AS location_id
          FROM touched t JOIN pos_guest_days d ON d.company_id = $1 AND d.guest_id = t.guest_id
          GROUP BY 1, 2) d
    WINDOW w AS (PARTITION BY guest_id ORDER BY day)),
  gone AS (
    DELETE FROM pos_guest_visits v USING touched t
    WHERE v.company_id = $1 AND v.guest_id = t.guest_id
      AND NOT EXISTS (SELECT 1 FROM visits n WHERE n.guest_id = v.guest_id AND n.day = v.day))
  INSERT INTO pos_guest_visits AS v (company_id, guest_id, day, location_id, visit_number, next_day, next_location_id)
  SELECT $1, guest_id, day, location_id, visit_number, next_day, next_location_id FROM visits
  ON CONFLICT (company_id, day, guest_id) DO UPDATE
  SET location_id = excluded.location_id, visit_number = excluded.visit_number, next_day = excluded.next_day,
      next_location_id = excluded.next_location_id
  WHERE (v.location_id, v.visit_number, v.next_day, v.next_location_id)
    IS DISTINCT FROM (excluded.location_id, excluded.visit_number, excluded.next_day, excluded.next_location_id)`;

// The batch's guests, for their visits.
const REVISIT_BATCH_GUESTS = revisitGuestsOf(`
    SELECT DISTINCT guest_id FROM pos_checks
    WHERE company_id = $1 AND id = ANY($2::bigint[]) AND guest_id IS NOT NULL`);

/**
 * Works out the chain columns again (previous days, first day) of guests whose rows were taken away by a cascade
 * (a location's deletion takes its guest-day rows), in the caller's transaction. Their presence rows are the
 * caller's: subtracted before the cascade, added after (guest-presence.repository.ts).
 */
export async function rechainGuestDays(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
): Promise<void> {
  if (guestIds.length === 0) return;
  await sql.query(rechainGuestsOf('SELECT DISTINCT unnest($2::bigint[]) AS guest_id'), [companyId, guestIds]);
  await sql.query(revisitGuestsOf('SELECT DISTINCT unnest($2::bigint[]) AS guest_id'), [companyId, guestIds]);
}

/**
 * Adds stored checks (by id, with their lines already in) to the rollups: two statements whatever the batch.
 * A new guest-day row takes its chain from the guest's stored rows; the chains of the batch's guests with a row
 * after one of the batch's are then worked out again, which settles rows of the same batch and a late older
 * check. Call it once for each batch, right after its checks are stored (each check in one batch only).
 */
export async function addChecksToRollups(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  const guests = await guestsOfChecks(sql, companyId, checkIds);
  // The item presence rows are moved by what the batch changes alone (below), not taken out and put back.
  await subtractGuestPresence(sql, companyId, guests, 'all but items');
  await sql.query(
    `WITH ${BATCH},
     locations AS (
       INSERT INTO pos_location_days AS t (company_id, location_id, day, revenue_cents, checks, covers)
       SELECT $1, location_id, day, sum(total_cents), count(*), sum(guest_count) FROM batch GROUP BY 2, 3
       ON CONFLICT (company_id, location_id, day) DO UPDATE
       SET revenue_cents = t.revenue_cents + excluded.revenue_cents, checks = t.checks + excluded.checks,
           covers = t.covers + excluded.covers),
     centers AS (
       INSERT INTO pos_revenue_center_days AS t (company_id, location_id, revenue_center_id, day, revenue_cents, checks)
       SELECT $1, location_id, revenue_center_id, day, sum(total_cents), count(*) FROM batch
       WHERE revenue_center_id IS NOT NULL GROUP BY 2, 3, 4
       ON CONFLICT (company_id, location_id, day, revenue_center_id) DO UPDATE
       SET revenue_cents = t.revenue_cents + excluded.revenue_cents, checks = t.checks + excluded.checks),
     items AS (
       INSERT INTO pos_menu_item_days AS t (company_id, location_id, menu_item_id, day, units, revenue_cents, checks)
       SELECT $1, b.location_id, l.menu_item_id, b.day, sum(l.quantity), sum(l.amount_cents), count(DISTINCT b.id)
       FROM batch b JOIN pos_check_lines l ON l.company_id = $1 AND l.check_id = b.id
       GROUP BY 2, 3, 4
       ON CONFLICT (company_id, location_id, day, menu_item_id) DO UPDATE
       SET units = t.units + excluded.units, revenue_cents = t.revenue_cents + excluded.revenue_cents,
           checks = t.checks + excluded.checks),
     hours AS (
       INSERT INTO pos_location_hours AS t (company_id, location_id, day, weekday, hour, day_part, checks,
                                           revenue_cents, covers, party_1, party_2, party_3, party_4, party_5,
                                           party_6_plus)
       SELECT $1, h.location_id, h.day, h.weekday, h.hour, h.day_part, h.checks, h.revenue, h.covers,
              h.p1, h.p2, h.p3, h.p4, h.p5, h.p6
       FROM (${BATCH_HOURS}) h
       ON CONFLICT (company_id, day, location_id, weekday, hour, day_part) DO UPDATE
       SET checks = t.checks + excluded.checks, revenue_cents = t.revenue_cents + excluded.revenue_cents,
           covers = t.covers + excluded.covers, party_1 = t.party_1 + excluded.party_1,
           party_2 = t.party_2 + excluded.party_2, party_3 = t.party_3 + excluded.party_3,
           party_4 = t.party_4 + excluded.party_4, party_5 = t.party_5 + excluded.party_5,
           party_6_plus = t.party_6_plus + excluded.party_6_plus)
     INSERT INTO pos_guest_days AS t (company_id, location_id, day, guest_id, checks, prev_day, prev_day_here, first_day)
     SELECT $1, g.location_id, g.day, g.guest_id, g.checks,
            (SELECT p.day FROM pos_guest_days p
             WHERE p.company_id = $1 AND p.guest_id = g.guest_id AND (p.day, p.location_id) < (g.day, g.location_id)
             ORDER BY p.day DESC, p.location_id DESC LIMIT 1),
            (SELECT max(p.day) FROM pos_guest_days p
             WHERE p.company_id = $1 AND p.guest_id = g.guest_id AND p.location_id = g.location_id AND p.day < g.day),
            least(g.day, (SELECT min(p.day) FROM pos_guest_days p WHERE p.company_id = $1 AND p.guest_id = g.guest_id))
     FROM (SELECT location_id, day, guest_id, count(*) AS checks FROM batch WHERE guest_id IS NOT NULL
           GROUP BY 1, 2, 3) g
     ON CONFLICT (company_id, location_id, day, guest_id) DO UPDATE SET checks = t.checks + excluded.checks`,
    [companyId, checkIds],
  );
  await sql.query(RECHAIN_GUESTS_ADDED_BEFORE_LATER_ROWS, [companyId, checkIds]);
  await sql.query(REVISIT_BATCH_GUESTS, [companyId, checkIds]);
  await addChecksToBasketRollups(sql, companyId, checkIds);
  await moveBatchItemPresence(sql, companyId, checkIds, 1);
  await addGuestPresence(sql, companyId, guests, 'all but items');
}

/**
 * Takes stored checks (by id) out of the rollups again, for a void or refund path: call it while the checks and
 * their lines are still stored, then delete or change them. Rows that reach no check are removed, and the
 * guests' chains are worked out again.
 */
export async function removeChecksFromRollups(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  await removeChecksFromBasketRollups(sql, companyId, checkIds);
  const guests = await guestsOfChecks(sql, companyId, checkIds);
  await moveBatchItemPresence(sql, companyId, checkIds, -1);
  await subtractGuestPresence(sql, companyId, guests, 'all but items');
  await sql.query(
    `WITH ${BATCH},
     locations AS (
       UPDATE pos_location_days t
       SET revenue_cents = t.revenue_cents - b.revenue, checks = t.checks - b.checks, covers = t.covers - b.covers
       FROM (SELECT location_id, day, sum(total_cents) AS revenue, count(*) AS checks, sum(guest_count) AS covers
             FROM batch GROUP BY 1, 2) b
       WHERE t.company_id = $1 AND t.location_id = b.location_id AND t.day = b.day),
     centers AS (
       UPDATE pos_revenue_center_days t SET revenue_cents = t.revenue_cents - b.revenue, checks = t.checks - b.checks
       FROM (SELECT location_id, revenue_center_id, day, sum(total_cents) AS revenue, count(*) AS checks
             FROM batch WHERE revenue_center_id IS NOT NULL GROUP BY 1, 2, 3) b
       WHERE t.company_id = $1 AND t.location_id = b.location_id AND t.day = b.day
         AND t.revenue_center_id = b.revenue_center_id),
     items AS (
       UPDATE pos_menu_item_days t
       SET units = t.units - b.units, revenue_cents = t.revenue_cents - b.revenue, checks = t.checks - b.checks
       FROM (SELECT b.location_id, l.menu_item_id, b.day, sum(l.quantity) AS units, sum(l.amount_cents) AS revenue,
                    count(DISTINCT b.id) AS checks
             FROM batch b JOIN pos_check_lines l ON l.company_id = $1 AND l.check_id = b.id GROUP BY 1, 2, 3) b
       WHERE t.company_id = $1 AND t.location_id = b.location_id AND t.day = b.day
         AND t.menu_item_id = b.menu_item_id),
     hours AS (
       UPDATE pos_location_hours t
       SET checks = t.checks - h.checks, revenue_cents = t.revenue_cents - h.revenue, covers = t.covers - h.covers,
           party_1 = t.party_1 - h.p1, party_2 = t.party_2 - h.p2, party_3 = t.party_3 - h.p3,
           party_4 = t.party_4 - h.p4, party_5 = t.party_5 - h.p5, party_6_plus = t.party_6_plus - h.p6
       FROM (${BATCH_HOURS}) h
       WHERE t.company_id = $1 AND t.location_id = h.location_id AND t.day = h.day AND t.weekday = h.weekday
         AND t.hour = h.hour AND t.day_part = h.day_part)
     UPDATE pos_guest_days t SET checks = t.checks - b.checks
     FROM (SELECT location_id, day, guest_id, count(*) AS checks FROM batch WHERE guest_id IS NOT NULL
           GROUP BY 1, 2, 3) b
     WHERE t.company_id = $1 AND t.location_id = b.location_id AND t.day = b.day AND t.guest_id = b.guest_id`,
    [companyId, checkIds],
  );
  // The rows emptied now (only those the checks touched), in one statement.
  await sql.query(
    `WITH ${BATCH},
     keys AS MATERIALIZED (SELECT DISTINCT location_id, day FROM batch),
     locations AS (
       DELETE FROM pos_location_days t USING keys k
       WHERE t.company_id = $1 AND t.location_id = k.location_id AND t.day = k.day AND t.checks = 0),
     centers AS (
       DELETE FROM pos_revenue_center_days t USING keys k
       WHERE t.company_id = $1 AND t.location_id = k.location_id AND t.day = k.day AND t.checks = 0),
     items AS (
       DELETE FROM pos_menu_item_days t USING keys k
       WHERE t.company_id = $1 AND t.location_id = k.location_id AND t.day = k.day AND t.checks = 0),
     hours AS (
       DELETE FROM pos_location_hours t USING keys k
       WHERE t.company_id = $1 AND t.location_id = k.location_id AND t.day = k.day AND t.checks = 0)
     DELETE FROM pos_guest_days t USING keys k
     WHERE t.company_id = $1 AND t.location_id = k.location_id AND t.day = k.day AND t.checks = 0`,
    [companyId, checkIds],
  );
  await sql.query(RECHAIN_BATCH_GUESTS, [companyId, checkIds]);
  await sql.query(REVISIT_BATCH_GUESTS, [companyId, checkIds]);
  await addGuestPresence(sql, companyId, guests, 'all but items');
}

/**
 * Counts a location's hours again after its time zone changed (a check's day part is the location's): its rows are
 * taken out and its checks counted back, in the caller's transaction. The statement triggers of migration 0043 carry
 * both to the company hours.
 */
export async function recountLocationHours(
  sql: Sql,
  companyId: CompanyId,
  locationId: number,
): Promise<void> {
  await sql.query('DELETE FROM pos_location_hours WHERE company_id = $1 AND location_id = $2', [
    companyId,
    locationId,
  ]);
  await sql.query(
    `WITH ${LOCATION_BATCH}
     INSERT INTO pos_location_hours (company_id, location_id, day, weekday, hour, day_part, checks, revenue_cents,
                                     covers, party_1, party_2, party_3, party_4, party_5, party_6_plus)
     SELECT $1, h.location_id, h.day, h.weekday, h.hour, h.day_part, h.checks, h.revenue, h.covers,
            h.p1, h.p2, h.p3, h.p4, h.p5, h.p6
     FROM (${BATCH_HOURS}) h`,
    [companyId, locationId],
  );
}

/**
 * Refills a company's rollups from its checks (SQL functions `pos_rollups_rebuild`, migrations 0018, 0021,
 * 0037 and 0045, `pos_guest_visits_rebuild`, migration 0038, which also refills the visits' own rollups of
 * migrations 0043 and 0049, `pos_basket_rollups_rebuild`, migration 0041, and `pos_guest_presence_rebuild`,
 * migrations 0042 and 0051): after a bulk load that bypassed the increments, and after the company's time zone changes
 * (every day moves). `rollupRebuildSteps` does the same in steps.
 */
export async function rebuildRollups(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('SELECT pos_rollups_rebuild($1)', [companyId]);
  await refillCompanyHours(sql, companyId);
  await sql.query('SELECT pos_guest_visits_rebuild($1)', [companyId]);
  await rebuildBasketRollups(sql, companyId);
  await rebuildGuestPresence(sql, companyId);
}

/** The functions `pos_rollups_rebuild` calls, one per table, in its order (migration 0045). */
const DAILY_ROLLUP_REBUILDS = [
  'pos_location_days_rebuild',
  'pos_revenue_center_days_rebuild',
  'pos_menu_item_days_rebuild',
  'pos_guest_days_rebuild',
  'pos_location_hours_rebuild',
] as const;

/** One step of a rollup rebuild cut into steps, run in a transaction of its own; `label` names it in logs. */
export type RollupStep = ((sql: Sql) => Promise<void>) & { label?: string };

/** A step with the name the demo load's log gives it when it is the longest. */
export function labelledStep(label: string, run: (sql: Sql) => Promise<void>): RollupStep {
  return Object.assign(run, { label });
}

/** The visits' refill and their rollups' (migrations 0038, 0043, 0049), in `pos_guest_visits_rebuild`'s order. */
const VISIT_REBUILDS = [
  'pos_guest_visits_refill',
  'pos_return_gaps_rebuild',
  'pos_journey_gaps_rebuild',
] as const;

/** A step that calls one of the rebuild functions above for the company, named after it. */
const rebuildStep = (
  rebuild: (typeof DAILY_ROLLUP_REBUILDS | typeof VISIT_REBUILDS)[number],
  companyId: CompanyId,
) => labelledStep(rebuild, (step) => step.query(`SELECT ${rebuild}($1)`, [companyId]).then(() => undefined));

// Guests whose presence, frequency, spread and item presence rows one step puts back: about a second's work for
// the demo on PGlite (measured before the spread and item rows: 1.5 to 2 s for 200 guests, ≈150 rows each).
const PRESENCE_GUESTS_PER_STEP = 100;

/**
 * The same refill as `rebuildRollups` cut into steps, each meant for a transaction of its own: the daily rollups,
 * a table per step; the hours; the visits and each of their rollups; the basket and presence rows cleared; a month
 * of basket rollups per step; a hundred guests' presence rows per step (about a second each for the demo on PGlite,
 * whose work holds the server's thread: between two transactions the server answers). The whole sequence can run
 * again after a stop partway. The caller keeps the company's checks unchanged meanwhile (`lockCompanyIngestion`
 * refuses changes during a demo load). Same rows as `rebuildRollups` (tests/db/demo-load.test.ts).
 */
export async function rollupRebuildSteps(
  sql: Sql,
  companyId: CompanyId,
  // The company's guests with a check, when the caller has read them already.
  known?: readonly number[],
): Promise<RollupStep[]> {
  const months = await monthsFromFirstCheck(sql, companyId);
  const guests = known ?? (await guestsWithChecks(sql, companyId));
  const steps: RollupStep[] = [
    // pos_rollups_rebuild's tables one at a time (migration 0045): together they held PGlite for about 13 s.
    ...DAILY_ROLLUP_REBUILDS.map((rebuild) => rebuildStep(rebuild, companyId)),
    labelledStep('company hours', (step) => refillCompanyHours(step, companyId)),
    // The visits and each of their rollups a step apiece (with the hours, the visits held the demo's server for 6.6 s;
    // with both of their rollups, 5.8 s).
    ...VISIT_REBUILDS.map((rebuild) => rebuildStep(rebuild, companyId)),
    // The later steps add their rows, so a sequence run again starts from none.
    labelledStep('basket and presence rows cleared', async (step) => {
      await clearBasketRollups(step, companyId);
      await clearGuestPresence(step, companyId);
    }),
  ];
  // The first month is open below and the last above, so no check falls outside the steps.
  months.forEach((month, index) => {
    const from = index === 0 ? null : month;
    const to = months[index + 1] ?? null;
    steps.push(
      labelledStep(`basket rollups, month ${index + 1} of ${months.length}`, (step) =>
        fillBasketRollups(step, companyId, from, to),
      ),
    );
  });
  for (let start = 0; start < guests.length; start += PRESENCE_GUESTS_PER_STEP) {
    const some = guests.slice(start, start + PRESENCE_GUESTS_PER_STEP);
    steps.push(
      labelledStep(`presence of guests ${start + 1}–${start + some.length}`, (step) =>
        addGuestPresence(step, companyId, some),
      ),
    );
  }
  return steps;
}

/**
 * Refills a company's every-location hours (`pos_company_hours`, migration 0043) from its location hours. Statement
 * triggers keep them in step with every change; the rebuild refills them as well, so a bulk fill that ran without
 * triggers (a restore, the bench's replica mode) leaves them right too.
 */
async function refillCompanyHours(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('DELETE FROM pos_company_hours WHERE company_id = $1', [companyId]);
  await sql.query(
    `INSERT INTO pos_company_hours (company_id, day, weekday, hour, day_part, checks, revenue_cents, covers, party_1,
                                    party_2, party_3, party_4, party_5, party_6_plus)
     SELECT company_id, day, weekday, hour, day_part, sum(checks), sum(revenue_cents), sum(covers), sum(party_1),
            sum(party_2), sum(party_3), sum(party_4), sum(party_5), sum(party_6_plus)
     FROM pos_location_hours WHERE company_id = $1 GROUP BY 1, 2, 3, 4, 5`,
    [companyId],
  );
}
