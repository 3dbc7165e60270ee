import type { CompanyId, Sql } from '../db/database.js';
import { refreshProfileDays, removeProfileDays } from './profile-days.repository.js';

/**
 * The distinct-guest rollup `pos_guest_presence` (migration 0042; docs/dashboards.md "Distinct guests from the
 * presence rollup"): per scope (the company, a location, a location group), day and the guest's previous day in
 * that scope, the guests of that day and their checks. A range's distinct guests are its rows whose previous day
 * is before the range, so every read sums rows of the range's days, never guest-days. Kept in the transaction
 * that changes `pos_guest_days`: the touched guests' rows are subtracted before the change and added after. The
 * frequency rows (`pos_guest_frequency`, guests by checks in a range) and the spread rows (`pos_guest_spread`,
 * migration 0051: guests at one location only in a range) and the item presence rows (`pos_item_presence`, migration
 * 0055: the same sums per item, from the guests' checks and lines, for "guests who ordered X"; since migration 0057
 * at each day part too, with item 0 for any check at a day part) are kept the same way, with them.
 */

/** Which presence rows a figure reads: the whole company, one location or one location group. */
export type PresenceScope =
  { kind: 'company' } | { kind: 'location'; id: number } | { kind: 'group'; id: number };

const KIND = { company: 0, location: 1, group: 2 } as const;

/** The scope's kind and id as the table keeps them. */
const keyOf = (scope: PresenceScope): [number, number] => [
  KIND[scope.kind],
  scope.kind === 'company' ? 0 : scope.id,
];

/**
 * The presence scope whose rows count exactly the guests of `locations` (null: every location): the company,
 * one location, or the one location group asked for alone; null when the locations are another set (their
 * guests are then counted from the guest-day rows).
 */
export function presenceScopeOf(
  locations: readonly number[] | null,
  query: { location_id: readonly number[]; location_group_id: readonly number[] },
): PresenceScope | null {
  if (locations === null) return { kind: 'company' };
  if (locations.length === 1) return { kind: 'location', id: locations[0]! };
  const groups = new Set(query.location_group_id);
  if (query.location_id.length === 0 && groups.size === 1) return { kind: 'group', id: [...groups][0]! };
  return null;
}

// Adds (sign 1) or subtracts (-1) the presence rows of the guests $2 (null: all) from their guest-day rows.
const APPLY = `INSERT INTO pos_guest_presence AS t (company_id, scope_kind, scope_id, day, prev_day, first_day, guests, checks)
  SELECT $1, r.scope_kind, r.scope_id, r.day, r.prev_day, r.first_day, $3::int * r.guests, $3::int * r.checks
  FROM pos_guest_presence_rows($1, $2::bigint[], NULL) r
  ON CONFLICT (company_id, scope_kind, scope_id, day, prev_day, first_day) DO UPDATE
  SET guests = t.guests + excluded.guests, checks = t.checks + excluded.checks`;
// The same for their frequency rows (guests with at least k checks, k from 2 to 10).
const APPLY_FREQUENCY = `INSERT INTO pos_guest_frequency AS t (company_id, scope_kind, scope_id, day, visits, before_day, guests)
  SELECT $1, r.scope_kind, r.scope_id, r.day, r.visits, r.before_day, $3::int * r.guests
  FROM pos_guest_frequency_rows($1, $2::bigint[], NULL) r
  ON CONFLICT (company_id, scope_kind, scope_id, day, visits, before_day) DO UPDATE
  SET guests = t.guests + excluded.guests`;
// The same for their spread rows (guests at one location only; migration 0051).
const APPLY_SPREAD = `INSERT INTO pos_guest_spread AS t (company_id, scope_kind, scope_id, day, since_day, guests)
  SELECT $1, r.scope_kind, r.scope_id, r.day, r.since_day, $3::int * r.guests
  FROM pos_guest_spread_rows($1, $2::bigint[], NULL) r
  ON CONFLICT (company_id, scope_kind, scope_id, day, since_day) DO UPDATE
  SET guests = t.guests + excluded.guests`;
// Adds $3 times the item presence rows (guests who ordered an item, at each day part; migrations 0055 and 0057) a
// function gives.
const applyItemRows = (rows: string) => `INSERT INTO pos_item_presence AS t
    (company_id, scope_kind, scope_id, menu_item_id, day_part, day, prev_day, guests)
  SELECT $1, r.scope_kind, r.scope_id, r.menu_item_id, r.day_part, r.day, r.prev_day, $3::int * r.guests FROM ${rows} r
  ON CONFLICT (company_id, scope_kind, scope_id, menu_item_id, day_part, day, prev_day) DO UPDATE
  SET guests = t.guests + excluded.guests`;
// The guests' $2 item presence rows, from their checks' lines.
const APPLY_ITEMS = applyItemRows('pos_item_presence_rows($1, $2::bigint[], NULL)');
// What the stored checks $2 change in the item presence rows.
const APPLY_BATCH_ITEMS = applyItemRows('pos_item_presence_batch($1, $2::bigint[])');
// The statements of the rollups worked out from the guests' guest-day rows.
const GUEST_DAY_STATEMENTS = [APPLY, APPLY_FREQUENCY, APPLY_SPREAD];

/** The four rollups kept per guest, each by its function of the guests' guest-day rows (or checks and lines). */
const ROLLUPS = [
  'pos_guest_presence',
  'pos_guest_frequency',
  'pos_guest_spread',
  'pos_item_presence',
] as const;

/**
 * Which of the guests' rows a subtraction and its addition move: all four rollups (a guest's or a location's
 * deletion), all but the item presence rows, when a batch of checks moves those itself (`moveBatchItemPresence`),
 * or the item presence rows alone, the only ones with day parts (a location's new time zone).
 */
export type PresenceRows = 'all' | 'all but items' | 'items';

const STATEMENTS: Record<PresenceRows, readonly string[]> = {
  all: [...GUEST_DAY_STATEMENTS, APPLY_ITEMS],
  'all but items': GUEST_DAY_STATEMENTS,
  items: [APPLY_ITEMS],
};

// Adds (sign 1) or subtracts (-1) the guests' rows of the rollups `rows` names.
async function apply(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
  sign: 1 | -1,
  rows: PresenceRows,
): Promise<void> {
  const statements = STATEMENTS[rows];
  for (const statement of statements) await sql.query(statement, [companyId, guestIds, sign]);
}

/**
 * Takes the presence, frequency, spread and item presence rows of some guests out, before their guest-day rows
 * change (a guest's or a location's deletion; for a batch of checks or a void all but the item rows, which
 * `moveBatchItemPresence` moves; the item rows alone before a location's new zone moves their day parts);
 * `addGuestPresence` puts them back from the changed rows.
 */
export async function subtractGuestPresence(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
  rows: PresenceRows = 'all',
): Promise<void> {
  if (guestIds.length === 0) return;
  await apply(sql, companyId, guestIds, -1, rows);
}

/**
 * Adds (sign 1: a batch just stored) or subtracts (-1: a batch about to be deleted) what a batch of stored checks
 * changes in the item presence rows: only the chains of its guests' items on it, worked out from one read of those
 * guests' lines (`pos_item_presence_batch`, migration 0055), so a batch writes only the rows it changes. The
 * rows it empties go with `addGuestPresence`'s.
 */
export async function moveBatchItemPresence(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
  sign: 1 | -1,
): Promise<void> {
  if (checkIds.length === 0) return;
  await sql.query(APPLY_BATCH_ITEMS, [companyId, checkIds, sign]);
}

// Rows an increment left without guests (found by the partial indexes on them).
async function dropEmpty(sql: Sql, companyId: CompanyId): Promise<void> {
  for (const table of ROLLUPS)
    await sql.query(`DELETE FROM ${table} WHERE company_id = $1 AND guests = 0`, [companyId]);
}

/**
 * Puts the presence, frequency, spread and item presence rows of some guests back (or those `rows` names) from their
 * guest-day rows (and checks), drops the rows left empty, and works the guests' profile rows out again
 * (profile-days.repository.ts) unless only the item rows moved.
 */
export async function addGuestPresence(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
  rows: PresenceRows = 'all',
): Promise<void> {
  if (guestIds.length === 0) return;
  await apply(sql, companyId, guestIds, 1, rows);
  await dropEmpty(sql, companyId);
  // The profile rows follow the guest days, which the item rows alone never move.
  if (rows !== 'items') await refreshProfileDays(sql, companyId, guestIds);
}

/**
 * Takes the four rollups' rows and the profile rows of guests about to be deleted out for good (their guest-day
 * rows go with them).
 */
export async function removeGuestPresence(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
): Promise<void> {
  if (guestIds.length === 0) return;
  await apply(sql, companyId, guestIds, -1, 'all');
  await dropEmpty(sql, companyId);
  await removeProfileDays(sql, companyId, guestIds);
}

/** The guests of a batch of stored checks, whose presence rows the batch moves. */
export async function guestsOfChecks(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<number[]> {
  const { rows } = await sql.query<{ guest_id: string }>(
    `SELECT DISTINCT guest_id FROM pos_checks
     WHERE company_id = $1 AND id = ANY($2::bigint[]) AND guest_id IS NOT NULL`,
    [companyId, checkIds],
  );
  return rows.map((row) => Number(row.guest_id));
}

/**
 * Takes out a location group's presence, frequency, spread and item presence rows (the group is gone, or they are
 * refilled).
 */
export async function removeGroupPresence(sql: Sql, companyId: CompanyId, groupId: number): Promise<void> {
  for (const table of ROLLUPS) {
    await sql.query(`DELETE FROM ${table} WHERE company_id = $1 AND scope_kind = 2 AND scope_id = $2`, [
      companyId,
      groupId,
    ]);
  }
}

/**
 * Works a location group's presence, frequency, spread and item presence rows out again from its members' guest-day
 * rows and checks (the group worker, after its members changed; group-presence.repository.ts).
 */
export async function rebuildGroupPresence(sql: Sql, companyId: CompanyId, groupId: number): Promise<void> {
  const params = [companyId, groupId];
  await removeGroupPresence(sql, companyId, groupId);
  await sql.query(
    `INSERT INTO pos_guest_presence (company_id, scope_kind, scope_id, day, prev_day, first_day, guests, checks)
     SELECT $1, r.scope_kind, r.scope_id, r.day, r.prev_day, r.first_day, r.guests, r.checks
     FROM pos_guest_presence_rows($1, NULL, $2) r`,
    params,
  );
  await sql.query(
    `INSERT INTO pos_guest_frequency (company_id, scope_kind, scope_id, day, visits, before_day, guests)
     SELECT $1, r.scope_kind, r.scope_id, r.day, r.visits, r.before_day, r.guests
     FROM pos_guest_frequency_rows($1, NULL, $2) r`,
    params,
  );
  await sql.query(
    `INSERT INTO pos_guest_spread (company_id, scope_kind, scope_id, day, since_day, guests)
     SELECT $1, r.scope_kind, r.scope_id, r.day, r.since_day, r.guests
     FROM pos_guest_spread_rows($1, NULL, $2) r`,
    params,
  );
  await sql.query(
    `INSERT INTO pos_item_presence (company_id, scope_kind, scope_id, menu_item_id, day_part, day, prev_day, guests)
     SELECT $1, r.scope_kind, r.scope_id, r.menu_item_id, r.day_part, r.day, r.prev_day, r.guests
     FROM pos_item_presence_rows($1, NULL, $2) r`,
    params,
  );
}

/**
 * Takes out every presence, frequency, spread and item presence row of a company, before `addGuestPresence` puts
 * them back guest by guest.
 */
export async function clearGuestPresence(sql: Sql, companyId: CompanyId): Promise<void> {
  for (const table of ROLLUPS) await sql.query(`DELETE FROM ${table} WHERE company_id = $1`, [companyId]);
}

/** The company's guests with a check, in id order. */
export async function guestsWithChecks(sql: Sql, companyId: CompanyId): Promise<number[]> {
  const { rows } = await sql.query<{ guest_id: string }>(
    'SELECT DISTINCT guest_id FROM pos_checks WHERE company_id = $1 AND guest_id IS NOT NULL ORDER BY 1',
    [companyId],
  );
  return rows.map((row) => Number(row.guest_id));
}

/**
 * Refills a company's presence, frequency, spread, item presence and profile rows from its guest-day rows and checks
 * (the bulk rebuild), every group's included: its groups are marked ready first, so a save of a group's members
 * meanwhile waits and marks it again.
 */
export async function rebuildGuestPresence(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('UPDATE location_groups SET presence_ready = true WHERE company_id = $1', [companyId]);
  await sql.query('SELECT pos_guest_presence_rebuild($1)', [companyId]);
  await refreshProfileDays(sql, companyId, null);
}

/** Distinct guests of a range, those new to the company in it (first day in the range), and their checks. */
export interface PresenceTotals {
  guests: number;
  new_guests: number;
  visits: number;
}

// A presence row is its guests' first in the range [$4, …]: no previous day in the scope, or one before $4 (null:
// open, so only first days ever). New: a first day in the scope whose first day at the company is in the range.
const FIRST_IN_RANGE = `(prev_day = '-infinity' OR prev_day < $4::date)`;
const NEW_IN_RANGE = `(prev_day = '-infinity' AND ($4::date IS NULL OR first_day >= $4::date))`;
// $2 and $3 the scope's kind and id, $4 and $5 the range's ends (null: open).
const IN_RANGE = `company_id = $1 AND scope_kind = $2 AND scope_id = $3
  AND ($4::date IS NULL OR day >= $4::date) AND ($5::date IS NULL OR day <= $5::date)`;

/** A range's distinct guests in the scope, the new ones among them and their checks: one sum over its rows. */
export async function presenceTotals(
  sql: Sql,
  companyId: CompanyId,
  scope: PresenceScope,
  range: { from: string | null; to: string | null },
): Promise<PresenceTotals> {
  const { rows } = await sql.query<PresenceTotals>(
    `SELECT coalesce(sum(guests) FILTER (WHERE ${FIRST_IN_RANGE}), 0)::bigint AS guests,
            coalesce(sum(guests) FILTER (WHERE ${NEW_IN_RANGE}), 0)::bigint AS new_guests,
            coalesce(sum(checks), 0)::bigint AS visits
     FROM pos_guest_presence WHERE ${IN_RANGE}`,
    [companyId, ...keyOf(scope), range.from, range.to],
  );
  const row = rows[0]!;
  return { guests: Number(row.guests), new_guests: Number(row.new_guests), visits: Number(row.visits) };
}

/**
 * A range's guests in the scope whose every check in it was at one location (migration 0051): one sum over the
 * spread rows of its days. The scope's distinct guests less these are those seen at two or more locations.
 */
export async function oneLocationGuests(
  sql: Sql,
  companyId: CompanyId,
  scope: PresenceScope,
  range: { from: string; to: string },
): Promise<number> {
  const { rows } = await sql.query<{ guests: string }>(
    `SELECT coalesce(sum(guests), 0)::bigint AS guests FROM pos_guest_spread
     WHERE company_id = $1 AND scope_kind = $2 AND scope_id = $3 AND day BETWEEN $4::date AND $5::date
       AND since_day >= $4::date`,
    [companyId, ...keyOf(scope), range.from, range.to],
  );
  return Number(rows[0]!.guests);
}

/** One period's distinct guests in the scope and those new to the company in it. */
export interface PresencePeriodRow {
  period: string;
  guests: number;
  new_guests: number;
}

/**
 * Distinct guests per day, week (from Monday) or month of the range, every period listed: a period's guests are
 * counted from its first day inside the range as a range's are.
 */
export async function presenceByPeriod(
  sql: Sql,
  companyId: CompanyId,
  scope: PresenceScope,
  range: { from: string; to: string },
  period: 'day' | 'week' | 'month',
): Promise<PresencePeriodRow[]> {
  const { rows } = await sql.query<PresencePeriodRow>(
    `WITH rows AS (SELECT greatest(date_trunc($6, day::timestamp)::date, $4::date) AS start, prev_day, first_day,
                          guests
                   FROM pos_guest_presence WHERE ${IN_RANGE}),
     sums AS (SELECT start, sum(guests) FILTER (WHERE prev_day < start) AS guests,
                     sum(guests) FILTER (WHERE prev_day = '-infinity' AND first_day >= start) AS new_guests
              FROM rows GROUP BY start)
     SELECT to_char(p.period, 'YYYY-MM-DD') AS period, coalesce(s.guests, 0)::int AS guests,
            coalesce(s.new_guests, 0)::int AS new_guests
     FROM generate_series(date_trunc($6, $4::timestamp), $5::timestamp, ('1 ' || $6)::interval) AS p(period)
     LEFT JOIN sums s ON s.start = greatest(p.period::date, $4::date)
     ORDER BY p.period`,
    [companyId, ...keyOf(scope), range.from, range.to, period],
  );
  return rows;
}

/** One location's distinct guests of a range and the returning ones (first day at the company before it). */
export interface PresenceLocationRow {
  location_id: number;
  guests: number;
  returning_guests: number;
}

/** Distinct guests per location of the range (null locations: every location with guests). */
export async function presenceByLocation(
  sql: Sql,
  companyId: CompanyId,
  locations: readonly number[] | null,
  range: { from: string; to: string },
): Promise<PresenceLocationRow[]> {
  const { rows } = await sql.query<PresenceLocationRow>(
    `SELECT scope_id AS location_id, 
            coalesce(sum(guests) FILTER (WHERE prev_day < $3::date), 0)::bigint AS guests,
            coalesce(sum(guests) FILTER (WHERE prev_day < $3::date AND NOT (prev_day = '-infinity' AND first_day >= $3::date)), 0)::bigint
              AS returning_guests
     FROM pos_guest_presence
     WHERE company_id = $1 AND scope_kind = 1 AND ($2::bigint[] IS NULL OR scope_id = ANY($2::bigint[]))
       AND day >= $3::date AND day <= $4::date
     GROUP BY scope_id`,
    [companyId, locations, range.from, range.to],
  );
  return rows;
}

// The item presence rows' stand-in for any check (migration 0057), kept at the four day parts only.
const ANY_CHECK = 0;

// The distinct guests of a range in the scope with the item $4 at the day part $7 ('' every day part): one sum over
// the rows of its days whose previous day with the item (at that day part) is before the range.
const ITEM_GUESTS = `SELECT coalesce(sum(guests), 0)::bigint AS guests FROM pos_item_presence
  WHERE company_id = $1 AND scope_kind = $2 AND scope_id = $3 AND menu_item_id = $4 AND day_part = $7
    AND day BETWEEN $5::date AND $6::date AND prev_day < $5::date`;

// One item's (or any check's) guests of the range at a day part, from ITEM_GUESTS.
async function sumItemPresence(
  sql: Sql,
  companyId: CompanyId,
  scope: PresenceScope,
  itemId: number,
  range: { from: string; to: string },
  dayPart: string,
): Promise<number> {
  const { rows } = await sql.query<{ guests: string }>(ITEM_GUESTS, [
    companyId,
    ...keyOf(scope),
    itemId,
    range.from,
    range.to,
    dayPart,
  ]);
  return Number(rows[0]!.guests);
}

/**
 * "Guests who ordered X": the distinct guests of a range in the scope with a check holding the item, at a day part
 * (null: any), summed from the item presence rows (migrations 0055 and 0057).
 */
export async function itemPresenceGuests(
  sql: Sql,
  companyId: CompanyId,
  scope: PresenceScope,
  itemId: number,
  range: { from: string; to: string },
  dayPart: string | null = null,
): Promise<number> {
  return sumItemPresence(sql, companyId, scope, itemId, range, dayPart ?? '');
}

/**
 * The distinct guests of a range in the scope with a check at a day part (the basket's guests at a day part),
 * summed from the item presence rows of any check (migration 0057); every day part is the presence rollup's.
 */
export async function dayPartPresenceGuests(
  sql: Sql,
  companyId: CompanyId,
  scope: PresenceScope,
  range: { from: string; to: string },
  dayPart: string,
): Promise<number> {
  return sumItemPresence(sql, companyId, scope, ANY_CHECK, range, dayPart);
}

/** Guests by their number of checks in a range. */
export interface PresenceVisitsRow {
  visits: number;
  guests: number;
}

/**
 * Guests of the scope by their number of checks in the range, 1 to `top` (10 at most), the top count holding every
 * guest with at least that many; only counts with guests. Those with at least k checks are a sum of frequency
 * rows (at least 1: the distinct guests), and those with exactly k the difference of two such sums.
 */
export async function presenceVisitCounts(
  sql: Sql,
  companyId: CompanyId,
  scope: PresenceScope,
  range: { from: string; to: string },
  top: number,
): Promise<PresenceVisitsRow[]> {
  const { rows } = await sql.query<{ visits: number; guests: string }>(
    `SELECT visits::int AS visits, coalesce(sum(guests) FILTER (WHERE before_day < $4::date), 0)::bigint AS guests
     FROM pos_guest_frequency WHERE ${IN_RANGE} AND visits <= $6
     GROUP BY visits`,
    [companyId, ...keyOf(scope), range.from, range.to, top],
  );
  const atLeast = new Map(rows.map((row) => [row.visits, Number(row.guests)]));
  atLeast.set(1, (await presenceTotals(sql, companyId, scope, range)).guests);
  const counts: PresenceVisitsRow[] = [];
  for (let visits = 1; visits <= top; visits++) {
    const guests = (atLeast.get(visits) ?? 0) - (visits < top ? (atLeast.get(visits + 1) ?? 0) : 0);
    if (guests > 0) counts.push({ visits, guests });
  }
  return counts;
}
