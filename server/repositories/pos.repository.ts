import type { CompanyId, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { addChecksToCohorts } from './cohort-rollups.repository.js';
import { addChecksToRollups } from './pos-rollups.repository.js';
import { assertOwned, UnknownReferenceError } from './references.js';
import type { WriteScope } from './scope.js';

/** A menu category. */
export interface MenuCategoryRow {
  id: number;
  company_id: number;
  name: string;
}

/** A menu item with its category name; `location_id` null means it is sold at every location. */
export interface MenuItemRow {
  id: number;
  company_id: number;
  category_id: number;
  category_name: string;
  location_id: number | null;
  name: string;
  price_cents: number;
  is_active: boolean;
}

/** What creating a menu item takes. */
export interface NewMenuItem {
  category_id: number;
  location_id?: number | null;
  name: string;
  price_cents: number;
  is_active?: boolean;
}

/** Filters of the menu item list; a location shows its own items and those sold everywhere. */
export interface MenuItemFilter {
  locationId?: number | undefined;
  categoryId?: number | undefined;
  includeInactive?: boolean;
}

/** A revenue center (bar, dining room, patio…) of a location. */
export interface RevenueCenterRow {
  id: number;
  company_id: number;
  location_id: number;
  name: string;
}

/** One line of a check, with the item's name. */
export interface PosCheckLineRow {
  id: number;
  menu_item_id: number;
  name: string;
  quantity: number;
  unit_price_cents: number;
  amount_cents: number;
}

/** A check (one visit) with its lines. */
export interface PosCheckRow {
  id: number;
  company_id: number;
  location_id: number;
  revenue_center_id: number | null;
  guest_id: number | null;
  check_number: string;
  opened_at: Date;
  closed_at: Date;
  guest_count: number;
  subtotal_cents: number;
  discount_cents: number;
  tax_cents: number;
  tip_cents: number;
  total_cents: number;
  lines: PosCheckLineRow[];
}

/** A guest's visit: the check plus the location's name. */
export interface GuestVisitRow extends PosCheckRow {
  location_name: string;
}

/** One line of a check to insert; the amount defaults to quantity × unit price. */
export interface NewCheckLine {
  menu_item_id: number;
  quantity: number;
  unit_price_cents: number;
  amount_cents?: number;
}

/** A check to insert, as the POS reports it. */
export interface NewCheck {
  location_id: number;
  revenue_center_id?: number | null;
  guest_id?: number | null;
  check_number: string;
  opened_at: Date;
  closed_at: Date;
  guest_count?: number;
  subtotal_cents: number;
  discount_cents?: number;
  tax_cents?: number;
  tip_cents?: number;
  total_cents: number;
  lines: NewCheckLine[];
}

const SELECT_CHECK = `
  SELECT c.id, c.company_id, c.location_id, c.revenue_center_id, c.guest_id, c.check_number, c.opened_at,
         c.closed_at, c.guest_count, c.subtotal_cents, c.discount_cents, c.tax_cents, c.tip_cents, c.total_cents,
         coalesce((SELECT jsonb_agg(jsonb_build_object(
                     'id', l.id, 'menu_item_id', l.menu_item_id, 'name', i.name, 'quantity', l.quantity,
                     'unit_price_cents', l.unit_price_cents, 'amount_cents', l.amount_cents) ORDER BY l.id)
                   FROM pos_check_lines l
                   JOIN menu_items i ON i.company_id = $1 AND i.id = l.menu_item_id
                   WHERE l.company_id = $1 AND l.check_id = c.id), '[]'::jsonb) AS lines`;

async function findChecksByIds(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
): Promise<PosCheckRow[]> {
  const { rows } = await sql.query<PosCheckRow>(
    `${SELECT_CHECK} FROM pos_checks c WHERE c.company_id = $1 AND c.id = ANY($2::bigint[]) ORDER BY c.id`,
    [companyId, ids],
  );
  return rows;
}

/** The company's menu categories by name. */
export async function listMenuCategories(sql: Sql, companyId: CompanyId): Promise<MenuCategoryRow[]> {
  const { rows } = await sql.query<MenuCategoryRow>(
    'SELECT id, company_id, name FROM menu_categories WHERE company_id = $1 ORDER BY lower(name), id',
    [companyId],
  );
  return rows;
}

/** Creates a menu category (names are unique per company). */
export async function createMenuCategory(
  sql: Sql,
  scope: WriteScope,
  name: string,
): Promise<MenuCategoryRow> {
  const { rows } = await sql.query<MenuCategoryRow>(
    'INSERT INTO menu_categories (company_id, name) VALUES ($1, $2) RETURNING id, company_id, name',
    [scope.companyId, name],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'menu_category',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** The company's menu items by category and name, active ones only unless asked. */
export async function listMenuItems(
  sql: Sql,
  companyId: CompanyId,
  filter: MenuItemFilter = {},
): Promise<MenuItemRow[]> {
  const { rows } = await sql.query<MenuItemRow>(
    `SELECT i.id, i.company_id, i.category_id, k.name AS category_name, i.location_id, i.name, i.price_cents,
            i.is_active
     FROM menu_items i
     JOIN menu_categories k ON k.company_id = $1 AND k.id = i.category_id
     WHERE i.company_id = $1
       AND ($2::bigint IS NULL OR i.location_id = $2 OR i.location_id IS NULL)
       AND ($3::bigint IS NULL OR i.category_id = $3)
       AND ($4::boolean OR i.is_active)
     ORDER BY lower(k.name), lower(i.name), i.id`,
    [companyId, filter.locationId ?? null, filter.categoryId ?? null, filter.includeInactive ?? false],
  );
  return rows;
}

/** Creates a menu item; throws UnknownReferenceError for a category or location of another company. */
export async function createMenuItem(sql: Sql, scope: WriteScope, input: NewMenuItem): Promise<MenuItemRow> {
  await assertOwned(sql, scope.companyId, 'menu_categories', 'category_id', [input.category_id]);
  await assertOwned(sql, scope.companyId, 'locations', 'location_id', [input.location_id]);
  const { rows } = await sql.query<MenuItemRow>(
    `INSERT INTO menu_items (company_id, category_id, location_id, name, price_cents, is_active)
     VALUES ($1, $2, $3, $4, $5, $6)
     RETURNING id, company_id, category_id,
               (SELECT name FROM menu_categories WHERE company_id = $1 AND id = $2) AS category_name,
               location_id, name, price_cents, is_active`,
    [
      scope.companyId,
      input.category_id,
      input.location_id ?? null,
      input.name,
      input.price_cents,
      input.is_active ?? true,
    ],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'menu_item',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** The company's revenue centers, of one location when given, by location and name. */
export async function listRevenueCenters(
  sql: Sql,
  companyId: CompanyId,
  filter: { locationId?: number | undefined } = {},
): Promise<RevenueCenterRow[]> {
  const { rows } = await sql.query<RevenueCenterRow>(
    `SELECT id, company_id, location_id, name FROM revenue_centers
     WHERE company_id = $1 AND ($2::bigint IS NULL OR location_id = $2)
     ORDER BY location_id, lower(name), id`,
    [companyId, filter.locationId ?? null],
  );
  return rows;
}

/** Creates a revenue center; throws UnknownReferenceError for a location of another company. */
export async function createRevenueCenter(
  sql: Sql,
  scope: WriteScope,
  input: { location_id: number; name: string },
): Promise<RevenueCenterRow> {
  await assertOwned(sql, scope.companyId, 'locations', 'location_id', [input.location_id]);
  const { rows } = await sql.query<RevenueCenterRow>(
    `INSERT INTO revenue_centers (company_id, location_id, name) VALUES ($1, $2, $3)
     RETURNING id, company_id, location_id, name`,
    [scope.companyId, input.location_id, input.name],
  );
  const created = rows[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'revenue_center',
    entityId: created.id,
    after: created,
  });
  return created;
}

/** Checks every id a batch of checks names belongs to the company (and each revenue center to its location). */
async function assertCheckReferences(
  sql: Sql,
  companyId: CompanyId,
  checks: readonly NewCheck[],
): Promise<void> {
  await assertOwned(
    sql,
    companyId,
    'locations',
    'location_id',
    checks.map((check) => check.location_id),
  );
  await assertOwned(
    sql,
    companyId,
    'guests',
    'guest_id',
    checks.map((check) => check.guest_id),
  );
  await assertOwned(
    sql,
    companyId,
    'menu_items',
    'menu_item_id',
    checks.flatMap((check) => check.lines.map((line) => line.menu_item_id)),
  );
  const centerIds = checks
    .map((check) => check.revenue_center_id)
    .filter((id): id is number => typeof id === 'number');
  if (centerIds.length === 0) return;
  const { rows } = await sql.query<{ id: number; location_id: number }>(
    'SELECT id, location_id FROM revenue_centers WHERE company_id = $1 AND id = ANY($2::bigint[])',
    [companyId, [...new Set(centerIds)]],
  );
  const locationOf = new Map(rows.map((row) => [row.id, row.location_id]));
  // A center of another location would put the sale in the wrong place, so it counts as unknown.
  const wrong = checks
    .filter((check) => typeof check.revenue_center_id === 'number')
    .filter((check) => locationOf.get(check.revenue_center_id!) !== check.location_id)
    .map((check) => check.revenue_center_id!);
  if (wrong.length > 0) throw new UnknownReferenceError('revenue_center_id', [...new Set(wrong)]);
}

/**
 * Each guest's figures over checks `c` joined to their locations `loc`, grouped by `c.guest_id`: the select
 * list shared by the running update below and the demo loader's count in bulk, so both count alike.
 */
export const GUEST_CHECK_FIGURES = `
  c.guest_id, count(*)::int AS visits, sum(c.total_cents)::bigint AS spend,
  min(c.closed_at) AS first_at, max(c.closed_at) AS last_at,
  (array_agg(c.location_id ORDER BY c.closed_at, c.id))[1] AS first_location_id,
  count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'breakfast')::int AS breakfast,
  count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'lunch')::int AS lunch,
  count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'dinner')::int AS dinner,
  count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'late')::int AS late`;

/**
 * Visits, spend and the first and last visit per guest and location over company `$1`'s checks (group by
 * `company_id, guest_id, location_id`): the columns of `guest_locations`, shared with the demo loader.
 */
export const GUEST_LOCATION_FIGURES = `company_id, guest_id, location_id, count(*)::int, sum(total_cents)::bigint,
  min(closed_at), max(closed_at)`;

/**
 * Units and checks per guest and menu item over the lines `l` of company `$1`'s checks `c` (group by
 * `c.company_id, c.guest_id, l.menu_item_id`), shared with the demo loader like `GUEST_CHECK_FIGURES`.
 */
export const GUEST_ITEM_FIGURES = `
  c.company_id, c.guest_id, l.menu_item_id, sum(l.quantity)::bigint AS quantity, count(DISTINCT c.id)::bigint AS checks
  FROM pos_check_lines l
  JOIN pos_checks c ON c.company_id = $1 AND c.id = l.check_id`;

/**
 * Adds stored checks (with their lines) to their guests' running metrics, in the caller's transaction: visits
 * (checks), spend, first and last visit, the first location when the guest had none, visits by day part (in
 * the location's time zone), visits and spend at each location, and units of each menu item. Increments
 * rather than recounts, so a batch costs the same at the millionth guest as at the first.
 */
export async function addChecksToGuests(
  sql: Sql,
  companyId: CompanyId,
  checkIds: readonly number[],
): Promise<void> {
  if (checkIds.length === 0) return;
  // One statement per batch keeps the totals right when several checks belong to the same guest.
  await sql.query(
    // The batch's figures are worked out once (MATERIALIZED): planned as a join instead, PGlite rescanned the
    // checks for every guest once the table held a few thousand (40 s for a 1,000-check batch).
    `WITH n AS MATERIALIZED (
       SELECT ${GUEST_CHECK_FIGURES}
       FROM pos_checks c
       JOIN locations loc ON loc.company_id = $1 AND loc.id = c.location_id
       WHERE c.company_id = $1 AND c.id = ANY($2::bigint[]) AND c.guest_id IS NOT NULL
       GROUP BY c.guest_id
     )
     UPDATE guests g
     SET visit_count = g.visit_count + n.visits,
         total_spend_cents = g.total_spend_cents + n.spend,
         first_visit_at = least(g.first_visit_at, n.first_at),
         last_visit_at = greatest(g.last_visit_at, n.last_at),
         first_location_id = coalesce(g.first_location_id, n.first_location_id),
         breakfast_visits = g.breakfast_visits + n.breakfast,
         lunch_visits = g.lunch_visits + n.lunch,
         dinner_visits = g.dinner_visits + n.dinner,
         late_visits = g.late_visits + n.late,
         updated_at = now()
     FROM n
     WHERE g.company_id = $1 AND g.id = n.guest_id`,
    [companyId, checkIds],
  );
  await sql.query(
    `INSERT INTO guest_locations (company_id, guest_id, location_id, visits, spend_cents, first_visit_at,
                                  last_visit_at)
     SELECT ${GUEST_LOCATION_FIGURES} FROM pos_checks
     WHERE company_id = $1 AND id = ANY($2::bigint[]) AND guest_id IS NOT NULL
     GROUP BY company_id, guest_id, location_id
     ON CONFLICT (company_id, guest_id, location_id) DO UPDATE
       SET visits = guest_locations.visits + excluded.visits,
           spend_cents = guest_locations.spend_cents + excluded.spend_cents,
           -- A late check can be the earliest or not the latest; least/greatest skip a row's NULLs.
           first_visit_at = least(guest_locations.first_visit_at, excluded.first_visit_at),
           last_visit_at = greatest(guest_locations.last_visit_at, excluded.last_visit_at)`,
    [companyId, checkIds],
  );
  await sql.query(
    `INSERT INTO guest_menu_items (company_id, guest_id, menu_item_id, quantity, checks)
     SELECT ${GUEST_ITEM_FIGURES}
     WHERE l.company_id = $1 AND l.check_id = ANY($2::bigint[]) AND c.guest_id IS NOT NULL
     GROUP BY c.company_id, c.guest_id, l.menu_item_id
     ON CONFLICT (company_id, guest_id, menu_item_id) DO UPDATE
       SET quantity = guest_menu_items.quantity + excluded.quantity,
           checks = guest_menu_items.checks + excluded.checks`,
    [companyId, checkIds],
  );
}

/** The guests with a check at the location (whose figures change when the location and its checks go). */
export async function guestsWithChecksAt(
  sql: Sql,
  companyId: CompanyId,
  locationId: number,
): Promise<number[]> {
  const { rows } = await sql.query<{ guest_id: number }>(
    `SELECT DISTINCT guest_id FROM pos_checks
     WHERE company_id = $1 AND location_id = $2 AND guest_id IS NOT NULL`,
    [companyId, locationId],
  );
  return rows.map((row) => row.guest_id);
}

/**
 * Sets the running metrics of some guests again from the checks they have now (after checks were taken away):
 * the same figures `addChecksToGuests` keeps, counted over each guest's own checks only, so the cost is the
 * guests' visits, never the company's. Only takes away: every location row a guest still has a check at is
 * already there. A guest left with no check keeps their record (and locations) with zero visits.
 */
export async function recountGuests(
  sql: Sql,
  companyId: CompanyId,
  guestIds: readonly number[],
): Promise<void> {
  if (guestIds.length === 0) return;
  await sql.query(
    `WITH a AS MATERIALIZED (
       SELECT ${GUEST_CHECK_FIGURES}
       FROM pos_checks c
       JOIN locations loc ON loc.company_id = $1 AND loc.id = c.location_id
       WHERE c.company_id = $1 AND c.guest_id = ANY($2::bigint[])
       GROUP BY c.guest_id
     )
     UPDATE guests g
     SET visit_count = coalesce(a.visits, 0), total_spend_cents = coalesce(a.spend, 0),
         first_visit_at = a.first_at, last_visit_at = a.last_at,
         first_location_id = coalesce(a.first_location_id, g.first_location_id),
         breakfast_visits = coalesce(a.breakfast, 0), lunch_visits = coalesce(a.lunch, 0),
         dinner_visits = coalesce(a.dinner, 0), late_visits = coalesce(a.late, 0), updated_at = now()
     FROM guests target LEFT JOIN a ON a.guest_id = target.id
     WHERE target.company_id = $1 AND target.id = ANY($2::bigint[]) AND g.company_id = $1 AND g.id = target.id`,
    [companyId, guestIds],
  );
  // Rows stay: a guest added or imported at a location belongs to it without a visit.
  await sql.query(
    `UPDATE guest_locations gl
     SET (visits, spend_cents, first_visit_at, last_visit_at) =
           (SELECT count(*)::int, coalesce(sum(c.total_cents), 0)::bigint, min(c.closed_at), max(c.closed_at)
            FROM pos_checks c
            WHERE c.company_id = $1 AND c.guest_id = gl.guest_id AND c.location_id = gl.location_id)
     WHERE gl.company_id = $1 AND gl.guest_id = ANY($2::bigint[])`,
    [companyId, guestIds],
  );
  await sql.query('DELETE FROM guest_menu_items WHERE company_id = $1 AND guest_id = ANY($2::bigint[])', [
    companyId,
    guestIds,
  ]);
  await sql.query(
    `INSERT INTO guest_menu_items (company_id, guest_id, menu_item_id, quantity, checks)
     SELECT ${GUEST_ITEM_FIGURES}
     WHERE l.company_id = $1 AND c.guest_id = ANY($2::bigint[])
     GROUP BY c.company_id, c.guest_id, l.menu_item_id`,
    [companyId, guestIds],
  );
}

/**
 * Inserts checks with their lines and adds them to their guests' running totals (visits, spend, first and
 * last visit, and the first location when the guest had none) and locations visited, all in the caller's transaction: a bad
 * check leaves nothing behind. Throws UnknownReferenceError when a check names another company's rows.
 */
export async function insertChecks(
  sql: Sql,
  scope: WriteScope,
  checks: readonly NewCheck[],
): Promise<PosCheckRow[]> {
  if (checks.length === 0) return [];
  await assertCheckReferences(sql, scope.companyId, checks);
  const ids: number[] = [];
  for (const check of checks) {
    const { rows } = await sql.query<{ id: number }>(
      `INSERT INTO pos_checks (company_id, location_id, revenue_center_id, guest_id, check_number, opened_at,
                               closed_at, guest_count, subtotal_cents, discount_cents, tax_cents, tip_cents,
                               total_cents)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        scope.companyId,
        check.location_id,
        check.revenue_center_id ?? null,
        check.guest_id ?? null,
        check.check_number,
        check.opened_at,
        check.closed_at,
        check.guest_count ?? 1,
        check.subtotal_cents,
        check.discount_cents ?? 0,
        check.tax_cents ?? 0,
        check.tip_cents ?? 0,
        check.total_cents,
      ],
    );
    const checkId = rows[0]!.id;
    ids.push(checkId);
    if (check.lines.length > 0) {
      await sql.query(
        `INSERT INTO pos_check_lines (company_id, check_id, menu_item_id, quantity, unit_price_cents, amount_cents)
         SELECT $1, $2, item, quantity, unit_price, amount
         FROM unnest($3::bigint[], $4::int[], $5::int[], $6::int[]) AS line(item, quantity, unit_price, amount)`,
        [
          scope.companyId,
          checkId,
          check.lines.map((line) => line.menu_item_id),
          check.lines.map((line) => line.quantity),
          check.lines.map((line) => line.unit_price_cents),
          check.lines.map((line) => line.amount_cents ?? line.quantity * line.unit_price_cents),
        ],
      );
    }
  }
  await addChecksToGuests(sql, scope.companyId, ids);
  await addChecksToCohorts(sql, scope.companyId, ids);
  await addChecksToRollups(sql, scope.companyId, ids);
  const created = await findChecksByIds(sql, scope.companyId, ids);
  for (const check of created) {
    await recordAudit(sql, scope, {
      action: 'create',
      entity: 'pos_check',
      entityId: check.id,
      after: check,
    });
  }
  return created;
}

/** A guest's visits (checks), newest first, with lines; empty when the guest is not in this company. */
export async function guestVisits(sql: Sql, companyId: CompanyId, guestId: number): Promise<GuestVisitRow[]> {
  const { rows } = await sql.query<GuestVisitRow>(
    `${SELECT_CHECK}, loc.name AS location_name
     FROM pos_checks c
     JOIN locations loc ON loc.company_id = $1 AND loc.id = c.location_id
     WHERE c.company_id = $1 AND c.guest_id = $2
     ORDER BY c.closed_at DESC, c.id DESC`,
    [companyId, guestId],
  );
  return rows;
}

/** Unlinks a deleted guest's checks: they stay for the figures, without the guest. */
export async function unlinkChecksOfGuest(sql: Sql, companyId: CompanyId, guestId: number): Promise<void> {
  await sql.query('UPDATE pos_checks SET guest_id = NULL WHERE company_id = $1 AND guest_id = $2', [
    companyId,
    guestId,
  ]);
}
