import type { CompanyId, Database, Sql } from '../db/database.js';
import { recordAudit } from './audit.repository.js';
import { recordDeletedCustomer } from './deleted-customers.repository.js';
import { newHashid } from './hashid.js';
import { likePattern } from './locations.repository.js';
import { assertOwned } from './references.js';
import type { WriteScope } from './scope.js';

/** A guest as the POS knows them, with the running totals kept by the check import. */
export interface GuestRow {
  id: number;
  company_id: number;
  pos_id: string;
  hashid: string;
  customer_name: string;
  last_four_digits: string;
  first_location_id: number | null;
  visit_count: number;
  total_spend_cents: number;
  first_visit_at: Date | null;
  last_visit_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

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
 */
export interface GuestFilter {
  q?: string | undefined;
  locationIds?: number[];
  groupIds?: number[];
  limit: number;
  offset: number;
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

/** One page of a company's guests, newest first, searched by name, POS id or card digits. */
export function listGuests(
  db: Database,
  companyId: CompanyId,
  filter: GuestFilter,
): Promise<{ count: number; rows: GuestRow[] }> {
  return db.tenant(companyId, async (sql) => {
    const where = `g.company_id = $1
      AND ($2::text IS NULL OR g.customer_name ILIKE $2 OR g.pos_id ILIKE $2 OR g.last_four_digits ILIKE $2)
      AND (cardinality($3::bigint[]) = 0 OR g.first_location_id = ANY($3::bigint[]) OR EXISTS (
        SELECT 1 FROM pos_checks c
        WHERE c.company_id = $1 AND c.guest_id = g.id AND c.location_id = ANY($3::bigint[])))
      AND (cardinality($4::bigint[]) = 0 OR EXISTS (
        SELECT 1 FROM location_group_members m
        WHERE m.company_id = $1 AND m.group_id = ANY($4::bigint[])
          AND (m.location_id = g.first_location_id OR EXISTS (
            SELECT 1 FROM pos_checks c
            WHERE c.company_id = $1 AND c.guest_id = g.id AND c.location_id = m.location_id))))`;
    const params = [
      companyId,
      filter.q ? likePattern(filter.q) : null,
      filter.locationIds ?? [],
      filter.groupIds ?? [],
    ];
    const total = await sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM guests g WHERE ${where}`,
      params,
    );
    const page = await sql.query<GuestRow>(
      `${SELECT_GUEST} WHERE ${where} ORDER BY g.id DESC LIMIT $5 OFFSET $6`,
      [...params, filter.limit, filter.offset],
    );
    return { count: total.rows[0]?.count ?? 0, rows: page.rows };
  });
}

/** The guest with this id, hashid and POS id; null when any of them does not match in this company. */
export function getGuest(db: Database, companyId: CompanyId, key: GuestKey): Promise<GuestRow | null> {
  return db.tenant(companyId, async (sql) => {
    const { rows } = await sql.query<GuestRow>(
      `${SELECT_GUEST} WHERE g.company_id = $1 AND g.id = $2 AND g.hashid = $3 AND g.pos_id = $4`,
      [companyId, key.id, key.hashid, key.pos_id],
    );
    return rows[0] ?? null;
  });
}

/** Creates a guest with a new hashid; throws UnknownReferenceError for a first location of another company. */
export function createGuest(db: Database, scope: WriteScope, input: NewGuest): Promise<GuestRow> {
  return db.tenant(scope.companyId, async (sql) => {
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
    const created = (await findGuestsByIds(sql, scope.companyId, [rows[0]!.id]))[0]!;
    await recordAudit(sql, scope, {
      action: 'create',
      entity: 'guest',
      entityId: created.id,
      after: created,
    });
    return created;
  });
}

/**
 * One page of groups of likely duplicate guests: the same name (any case) and card digits. Guests with no
 * name or no digits are left out, as blanks would match everyone.
 */
export function findDuplicateGuests(
  db: Database,
  companyId: CompanyId,
  paging: { limit: number; offset: number },
): Promise<{ count: number; rows: DuplicateGuestGroup[] }> {
  return db.tenant(companyId, async (sql) => {
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
  });
}

/** The other guests that look like this one (same name, any case, and card digits); null when not found. */
export function findGuestDuplicatesOf(
  db: Database,
  companyId: CompanyId,
  guestId: number,
): Promise<GuestRow[] | null> {
  return db.tenant(companyId, async (sql) => {
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
  });
}

/**
 * Deletes a guest: their checks stay for the figures but lose the link, their notes and cards go, a
 * matching subscriber forgets them, and a deleted-customer record without personal data is written — all
 * in one transaction. False when the guest does not exist in this company.
 */
export function deleteGuest(db: Database, scope: WriteScope, id: number): Promise<boolean> {
  return db.tenant(scope.companyId, async (sql) => {
    const before = (await findGuestsByIds(sql, scope.companyId, [id]))[0];
    if (!before) return false;
    const params = [scope.companyId, id];
    // Done explicitly rather than left to the foreign keys so each statement is scoped to the company.
    await sql.query('UPDATE pos_checks SET guest_id = NULL WHERE company_id = $1 AND guest_id = $2', params);
    await sql.query('UPDATE subscribers SET guest_id = NULL WHERE company_id = $1 AND guest_id = $2', params);
    await sql.query('DELETE FROM notes WHERE company_id = $1 AND guest_id = $2', params);
    await sql.query('DELETE FROM profile_cards WHERE company_id = $1 AND guest_id = $2', params);
    await sql.query('DELETE FROM guests WHERE company_id = $1 AND id = $2', params);
    await recordDeletedCustomer(sql, scope, { customerType: 'guest', posId: before.pos_id, originalId: id });
    await recordAudit(sql, scope, { action: 'delete', entity: 'guest', entityId: id, before });
    return true;
  });
}
