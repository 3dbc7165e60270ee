import {
  sql as rawSql,
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { anyId, queryBuilder, runQuery } from '../db/query-builder.js';
import type { GuestsTable, Tables } from '../db/tables.js';
import type { EmailConsent } from '../../src/schemas/guests.js';
import { recordAudit } from './audit.repository.js';
import { newHashid } from './hashid.js';
import { likePattern } from './like-pattern.js';
import { guestEmailConsent, linkedSubscribers } from './email-consent.js';
import { assertOwned } from './references.js';
import type { WriteScope } from './scope.js';

/** A guest as the POS knows them, with the running totals kept by the check import. */
export type GuestRow = GuestsTable;

/** What creating a guest takes; the hashid is generated. */
export interface NewGuest {
  pos_id: string;
  customer_name?: string;
  last_four_digits?: string;
  first_location_id?: number | null;
}

/** The three values that together name a guest in a link: all must match or the guest is not found. */
export interface GuestKey {
  id: number;
  hashid: string;
  pos_id: string;
}

/**
 * Filters of the guest list. A guest is at a location when they have a check there or it is their first
 * location; `groupIds` means at any location of those groups. Location and group filters both apply.
 * Ids of another company's locations or groups match no guest.
 */
export interface GuestFilter {
  q?: string | undefined;
  locationIds?: number[];
  groupIds?: number[];
  /** True: only guests a subscriber is linked to; false: only those without; undefined: both. */
  isSubscriber?: boolean | undefined;
}

/** A page window of a guest list; `oldestFirst` orders by id ascending (stable for big-data paging). */
export interface GuestWindow {
  limit: number;
  offset: number;
  oldestFirst?: boolean;
}

/** A guest with whether a subscriber is linked to them and their email consent (one rule, email-consent.ts). */
export interface GuestListRow extends GuestRow {
  is_subscriber: boolean;
  email_consent: EmailConsent;
}

/** What a guest file of the big-data download holds per guest. */
export interface GuestFileRow {
  customer_name: string;
  last_four_digits: string;
  pos_id: string;
}

/** Guests sharing a lower-cased name and card digits: probably one person seen twice by the POS. */
export interface DuplicateGuestGroup {
  name_key: string;
  last_four_digits: string;
  guest_ids: number[];
  guest_count: number;
}

const SELECT_GUEST = `
  SELECT g.id, g.company_id, g.pos_id, g.hashid, g.customer_name, g.last_four_digits, g.first_location_id,
         g.visit_count, g.total_spend_cents, g.first_visit_at, g.last_visit_at, g.created_at, g.updated_at
  FROM guests g`;

/** Fetches guests by id within a transaction; ids of other companies are simply absent. */
export async function findGuestsByIds(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
): Promise<GuestRow[]> {
  const { rows } = await sql.query<GuestRow>(
    `${SELECT_GUEST} WHERE g.company_id = $1 AND g.id = ANY($2::bigint[]) ORDER BY g.id`,
    [companyId, ids],
  );
  return rows;
}

/** The location ids of some groups (none for no groups); ids of another company's groups give none. */
async function locationsOfGroups(
  sql: Sql,
  companyId: CompanyId,
  groupIds: readonly number[],
): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const rows = await runQuery(
    sql,
    queryBuilder
      .selectFrom('location_group_members')
      .select('location_id')
      .distinct()
      .where('company_id', '=', companyId)
      .where('group_id', '=', anyId(groupIds)),
  );
  return rows.map((row) => row.location_id);
}

type GuestExpressions = ExpressionBuilder<Tables & { g: Tables['guests'] }, 'g'>;

/** True when a subscriber is linked to guest `g` (uses the subscribers_guest index). */
function hasSubscriber(eb: GuestExpressions, companyId: CompanyId) {
  return eb.exists(subscriberOf(companyId, 'g.id'));
}

/** The subscribers linked to the guest whose id is in `guestId` of the enclosing query. */
function subscriberOf(companyId: CompanyId, guestId: 'g.id' | 'p.id') {
  return linkedSubscribers(companyId, guestId).select(rawSql.lit(1).as('one'));
}

/**
 * The conditions of a guest list. Groups are turned into their location ids first (`locationsOfGroups`),
 * so both filters are the same flat test: guest_locations holds each guest's first location and every
 * location they have a check at. Only the filters given are in the statement.
 */
function guestConditions(companyId: CompanyId, filter: GuestFilter, groupLocationIds: readonly number[]) {
  return (eb: GuestExpressions) => {
    const atLocations = (ids: readonly number[]) =>
      eb.exists(
        eb
          .selectFrom('guest_locations as gl')
          .select(eb.lit(1).as('one'))
          .where('gl.company_id', '=', companyId)
          .whereRef('gl.guest_id', '=', 'g.id')
          .where('gl.location_id', '=', anyId(ids)),
      );
    const conditions: Expression<SqlBool>[] = [eb('g.company_id', '=', companyId)];
    if (filter.q) {
      const pattern = likePattern(filter.q);
      conditions.push(
        eb.or([
          eb('g.customer_name', 'ilike', pattern),
          eb('g.pos_id', 'ilike', pattern),
          eb('g.last_four_digits', 'ilike', pattern),
        ]),
      );
    }
    if ((filter.locationIds ?? []).length > 0) conditions.push(atLocations(filter.locationIds ?? []));
    // Groups that hold no location of the company match no guest.
    if ((filter.groupIds ?? []).length > 0) conditions.push(atLocations(groupLocationIds));
    if (filter.isSubscriber !== undefined) {
      conditions.push(
        filter.isSubscriber ? hasSubscriber(eb, companyId) : eb.not(hasSubscriber(eb, companyId)),
      );
    }
    return eb.and(conditions);
  };
}

/** The guests matching a filter, as a query to narrow further (order, window, columns). */
async function matchingGuests(sql: Sql, companyId: CompanyId, filter: GuestFilter) {
  const groupLocationIds = await locationsOfGroups(sql, companyId, filter.groupIds ?? []);
  return {
    guests: queryBuilder
      .selectFrom('guests as g')
      .where(guestConditions(companyId, filter, groupLocationIds)),
    groupLocationIds,
  };
}

const GUEST_COLUMNS = [
  'g.id',
  'g.company_id',
  'g.pos_id',
  'g.hashid',
  'g.customer_name',
  'g.last_four_digits',
  'g.first_location_id',
  'g.visit_count',
  'g.total_spend_cents',
  'g.first_visit_at',
  'g.last_visit_at',
  'g.created_at',
  'g.updated_at',
] as const;

/** A window of guests with `is_subscriber`, computed for the window's rows only (after the limit). */
function withSubscriberFlag(
  companyId: CompanyId,
  window: SelectQueryBuilder<Tables & { g: Tables['guests'] }, 'g', GuestRow>,
  order: 'asc' | 'desc',
) {
  return queryBuilder
    .selectFrom(window.as('p'))
    .selectAll('p')
    .select((eb) => eb.exists(subscriberOf(companyId, 'p.id')).$castTo<boolean>().as('is_subscriber'))
    .select(guestEmailConsent(companyId, 'p.id').as('email_consent'))
    .orderBy('p.id', order);
}

/** Guests by id (those of the company only), oldest first, each with `is_subscriber` and its email consent. */
export function guestListRowsByIds(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
): Promise<GuestListRow[]> {
  const rows = queryBuilder
    .selectFrom('guests as g')
    .select(GUEST_COLUMNS)
    .where('g.company_id', '=', companyId)
    .where('g.id', '=', anyId(ids));
  return runQuery(sql, withSubscriberFlag(companyId, rows, 'asc'));
}

/**
 * Where a guest page starts: an offset, or keyset by id — after (`afterId`) or before (`beforeId`) a row in
 * the list's order, read straight from the guests_page index however deep.
 */
export interface GuestKeyset extends GuestWindow {
  afterId?: number | undefined;
  beforeId?: number | undefined;
}

/** One page of guests matching a filter, each with `is_subscriber`, in the list's order. */
async function selectGuestPage(
  sql: Sql,
  companyId: CompanyId,
  filter: GuestFilter,
  window: GuestKeyset,
): Promise<GuestListRow[]> {
  const { guests } = await matchingGuests(sql, companyId, filter);
  const descending = !window.oldestFirst;
  // Before a row, the page is read backwards from it and turned round.
  const backwards = window.beforeId !== undefined;
  const order = descending !== backwards ? 'desc' : 'asc';
  let page = guests.select(GUEST_COLUMNS).orderBy('g.id', order).limit(window.limit);
  if (window.afterId !== undefined) page = page.where('g.id', descending ? '<' : '>', window.afterId);
  else if (window.beforeId !== undefined) page = page.where('g.id', descending ? '>' : '<', window.beforeId);
  else page = page.offset(window.offset);
  const rows = await runQuery(sql, withSubscriberFlag(companyId, page, order));
  return backwards ? rows.reverse() : rows;
}

/** One page of guests (offset or keyset, see `GuestKeyset`) without a count; each row with `is_subscriber`. */
export function guestPage(
  sql: Sql,
  companyId: CompanyId,
  filter: GuestFilter,
  window: GuestKeyset,
): Promise<GuestListRow[]> {
  return selectGuestPage(sql, companyId, filter, window);
}

/** How many guests match a filter, counting no further than `atMost` (a bounded scan for large lists). */
export async function countGuestsUpTo(
  sql: Sql,
  companyId: CompanyId,
  filter: GuestFilter,
  atMost: number,
): Promise<number> {
  const { guests } = await matchingGuests(sql, companyId, filter);
  const [row] = await runQuery(
    sql,
    queryBuilder
      .selectFrom(guests.select(rawSql.lit(1).as('one')).limit(atMost).as('m'))
      .select((eb) => eb.fn.countAll<number>().as('count')),
  );
  return Number(row?.count ?? 0);
}

/** How many guests match a filter. */
async function countGuestsWhere(sql: Sql, companyId: CompanyId, filter: GuestFilter): Promise<number> {
  const { guests, groupLocationIds } = await matchingGuests(sql, companyId, filter);
  const locationIds = filter.locationIds ?? [];
  const exactlyOneOfLocationOrGroup = locationIds.length > 0 !== (filter.groupIds ?? []).length > 0;
  const byLocationOnly = !filter.q && filter.isSubscriber === undefined && exactlyOneOfLocationOrGroup;
  if (byLocationOnly) {
    // Only places asked for: count guest_locations itself, not every guest probing it (5x faster at 1M).
    const ids = locationIds.length > 0 ? locationIds : groupLocationIds;
    const places = queryBuilder
      .selectFrom('guest_locations')
      .where('company_id', '=', companyId)
      .where('location_id', '=', anyId(ids));
    // One row per guest and location, so one location needs no DISTINCT.
    const [row] = await runQuery(
      sql,
      places.select((eb) =>
        (ids.length === 1 ? eb.fn.countAll<number>() : eb.fn.count<number>('guest_id').distinct()).as(
          'count',
        ),
      ),
    );
    return Number(row?.count ?? 0);
  }
  const [row] = await runQuery(
    sql,
    guests.select((eb) => eb.fn.countAll<number>().as('count')),
  );
  return Number(row?.count ?? 0);
}

/**
 * One page of a company's guests, newest first (or oldest first), searched by name, POS id or card digits,
 * with the total count; each row says whether a subscriber is linked.
 */
export async function listGuests(
  sql: Sql,
  companyId: CompanyId,
  filter: GuestFilter & GuestWindow,
): Promise<{ count: number; rows: GuestListRow[] }> {
  return {
    count: await countGuestsWhere(sql, companyId, filter),
    rows: await selectGuestPage(sql, companyId, filter, filter),
  };
}

/** How many of a company's guests match a filter. */
export function countGuests(sql: Sql, companyId: CompanyId, filter: GuestFilter): Promise<number> {
  return countGuestsWhere(sql, companyId, filter);
}

/**
 * The next batch of guests matching a filter with an id above `afterId`, oldest first: keyset paging for
 * exports, so a million guests stream in constant memory and constant time per batch.
 */
export async function guestsAfter(
  sql: Sql,
  companyId: CompanyId,
  filter: GuestFilter,
  afterId: number,
  limit: number,
): Promise<GuestListRow[]> {
  const { guests } = await matchingGuests(sql, companyId, filter);
  const batch = guests.select(GUEST_COLUMNS).where('g.id', '>', afterId).orderBy('g.id', 'asc').limit(limit);
  return runQuery(sql, withSubscriberFlag(companyId, batch, 'asc'));
}

/** The rows of one big-data guest file: guests matching a filter, oldest first, `limit` from `offset`. */
export async function guestFileRows(
  sql: Sql,
  companyId: CompanyId,
  filter: GuestFilter,
  window: { limit: number; offset: number },
): Promise<GuestFileRow[]> {
  const { guests } = await matchingGuests(sql, companyId, filter);
  return runQuery(
    sql,
    guests
      .select(['g.customer_name', 'g.last_four_digits', 'g.pos_id'])
      .orderBy('g.id', 'asc')
      .limit(window.limit)
      .offset(window.offset),
  );
}

/** Which of these POS ids already belong to a guest of the company. */
export async function existingGuestPosIds(
  sql: Sql,
  companyId: CompanyId,
  posIds: readonly string[],
): Promise<string[]> {
  const { rows } = await sql.query<{ pos_id: string }>(
    `SELECT DISTINCT pos_id FROM guests WHERE company_id = $1 AND pos_id = ANY($2::text[]) ORDER BY pos_id`,
    [companyId, [...new Set(posIds)]],
  );
  return rows.map((row) => row.pos_id);
}

/** The id of the company's guest with this POS id when exactly one has it; null otherwise. */
export async function findGuestIdByPosId(
  sql: Sql,
  companyId: CompanyId,
  posId: string,
): Promise<number | null> {
  const { rows } = await sql.query<{ id: number }>(
    'SELECT id FROM guests WHERE company_id = $1 AND pos_id = $2 ORDER BY id LIMIT 2',
    [companyId, posId],
  );
  return rows.length === 1 ? rows[0]!.id : null;
}

/** The guest with this id, hashid and POS id; null when any of them does not match in this company. */
export async function getGuest(sql: Sql, companyId: CompanyId, key: GuestKey): Promise<GuestRow | null> {
  const { rows } = await sql.query<GuestRow>(
    `${SELECT_GUEST} WHERE g.company_id = $1 AND g.id = $2 AND g.hashid = $3 AND g.pos_id = $4`,
    [companyId, key.id, key.hashid, key.pos_id],
  );
  return rows[0] ?? null;
}

/** Creates a guest with a new hashid; throws UnknownReferenceError for a first location of another company. */
export async function createGuest(sql: Sql, scope: WriteScope, input: NewGuest): Promise<GuestRow> {
  await assertOwned(sql, scope.companyId, 'locations', 'first_location_id', [input.first_location_id]);
  const { rows } = await sql.query<{ id: number }>(
    `INSERT INTO guests (company_id, pos_id, hashid, customer_name, last_four_digits, first_location_id)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      scope.companyId,
      input.pos_id,
      newHashid(),
      input.customer_name ?? '',
      input.last_four_digits ?? '',
      input.first_location_id ?? null,
    ],
  );
  if (input.first_location_id) {
    await sql.query('INSERT INTO guest_locations (company_id, guest_id, location_id) VALUES ($1, $2, $3)', [
      scope.companyId,
      rows[0]!.id,
      input.first_location_id,
    ]);
  }
  const created = (await findGuestsByIds(sql, scope.companyId, [rows[0]!.id]))[0]!;
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'guest',
    entityId: created.id,
    after: created,
  });
  return created;
}

/**
 * One page of groups of likely duplicate guests: the same name (any case) and card digits. Guests with no
 * name or no digits are left out, as blanks would match everyone.
 */
export async function findDuplicateGuests(
  sql: Sql,
  companyId: CompanyId,
  paging: { limit: number; offset: number },
): Promise<{ count: number; rows: DuplicateGuestGroup[] }> {
  const groups = `
    SELECT lower(customer_name) AS name_key, last_four_digits, array_agg(id ORDER BY id) AS guest_ids,
           count(*)::int AS guest_count, min(id) AS first_id
    FROM guests
    WHERE company_id = $1 AND btrim(customer_name) <> '' AND last_four_digits <> ''
    GROUP BY lower(customer_name), last_four_digits
    HAVING count(*) > 1`;
  const total = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM (${groups}) d`, [
    companyId,
  ]);
  const page = await sql.query<DuplicateGuestGroup>(
    `SELECT name_key, last_four_digits, guest_ids, guest_count FROM (${groups}) d
     ORDER BY first_id LIMIT $2 OFFSET $3`,
    [companyId, paging.limit, paging.offset],
  );
  return { count: total.rows[0]?.count ?? 0, rows: page.rows };
}

/** The other guests that look like this one (same name, any case, and card digits); null when not found. */
export async function findGuestDuplicatesOf(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<GuestRow[] | null> {
  const guest = (await findGuestsByIds(sql, companyId, [guestId]))[0];
  if (!guest) return null;
  if (guest.customer_name.trim() === '' || guest.last_four_digits === '') return [];
  const { rows } = await sql.query<GuestRow>(
    `${SELECT_GUEST}
     WHERE g.company_id = $1 AND lower(g.customer_name) = lower($2) AND g.last_four_digits = $3 AND g.id <> $4
     ORDER BY g.id`,
    [companyId, guest.customer_name, guest.last_four_digits, guest.id],
  );
  return rows;
}

/**
 * Deletes a guest's row with their locations and records it in the audit log. The rows that point at the guest
 * (checks, subscribers, notes, cards) are the caller's to clear first: the guests service does it in the same
 * transaction.
 */
export async function deleteGuest(sql: Sql, scope: WriteScope, before: GuestRow): Promise<void> {
  const params = [scope.companyId, before.id];
  await sql.query('DELETE FROM guest_locations WHERE company_id = $1 AND guest_id = $2', params);
  await sql.query('DELETE FROM guests WHERE company_id = $1 AND id = $2', params);
  await recordAudit(sql, scope, { action: 'delete', entity: 'guest', entityId: before.id, before });
}
