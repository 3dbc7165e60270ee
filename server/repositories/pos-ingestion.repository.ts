import type { CompanyId, Sql } from '../db/database.js';
import type { WriteScope } from './scope.js';
import { recordAudit } from './audit.repository.js';
import { newHashid } from './hashid.js';
import { addChecksToGuests } from './pos.repository.js';

/**
 * Checks arriving from a POS connector, written set-wise: menu categories, items, revenue centers and guests
 * are found by name (or created), then the checks go in with `ON CONFLICT DO NOTHING` on their identity
 * (location, check number, closing time), so a check sent twice is stored once. One company's batches take
 * turns (an advisory lock for the transaction), so two batches never both create the same new item or guest.
 */

/** The category a line without one is filed under. */
export const UNCATEGORISED = 'Other';

/** A line ready to store: names as sent, amounts in cents. */
export interface IngestLine {
  menu_item: string;
  category?: string | undefined;
  quantity: number;
  amount: number;
}

/** A check ready to store (its location already known to be the company's), amounts in cents. */
export interface IngestCheck {
  location_id: number;
  check_number: string;
  opened_at: Date;
  closed_at: Date;
  total: number;
  subtotal?: number | undefined;
  tax?: number | undefined;
  tip?: number | undefined;
  discount?: number | undefined;
  guest_count?: number | undefined;
  revenue_center?: string | undefined;
  guest?:
    | {
        customer_name?: string | undefined;
        last_four_digits?: string | undefined;
        pos_id?: string | undefined;
      }
    | undefined;
  lines: IngestLine[];
}

/** Which of the checks were stored now and which were stored before (by their index in the list given). */
export interface IngestResult {
  created: number[];
  unchanged: number[];
}

// Any constant: with the company id it names the company's ingestion lock.
const INGESTION_LOCK = 730_113;

/** The ids of these locations that belong to the company. */
export async function ownedLocationIds(
  sql: Sql,
  companyId: CompanyId,
  ids: readonly number[],
): Promise<Set<number>> {
  const { rows } = await sql.query<{ id: number }>(
    'SELECT id FROM locations WHERE company_id = $1 AND id = ANY($2::bigint[])',
    [companyId, [...new Set(ids)]],
  );
  return new Set(rows.map((row) => row.id));
}

/** Category ids by lower-cased name, creating the missing ones. */
async function categoryIds(
  sql: Sql,
  companyId: CompanyId,
  names: readonly string[],
): Promise<Map<string, number>> {
  const wanted = new Map(names.map((name) => [name.toLowerCase(), name]));
  const ids = new Map<string, number>();
  if (wanted.size === 0) return ids;
  const found = await sql.query<{ id: number; key: string }>(
    `SELECT min(id) AS id, lower(name) AS key FROM menu_categories
     WHERE company_id = $1 AND lower(name) = ANY($2::text[]) GROUP BY lower(name)`,
    [companyId, [...wanted.keys()]],
  );
  for (const row of found.rows) ids.set(row.key, row.id);
  const missing = [...wanted].filter(([key]) => !ids.has(key)).map(([, name]) => name);
  if (missing.length > 0) {
    const created = await sql.query<{ id: number; name: string }>(
      `INSERT INTO menu_categories (company_id, name) SELECT $1, unnest($2::text[]) RETURNING id, name`,
      [companyId, missing],
    );
    for (const row of created.rows) ids.set(row.name.toLowerCase(), row.id);
  }
  return ids;
}

/**
 * Menu item ids by `category key|item key` (lower-cased names; an empty category key for lines without one,
 * which match the item by name in any category), creating the missing items for every location at the price
 * of the first line that sold them.
 */
async function menuItemIds(
  sql: Sql,
  companyId: CompanyId,
  lines: readonly IngestLine[],
): Promise<Map<string, number>> {
  const keyOf = (line: IngestLine) =>
    `${(line.category ?? '').toLowerCase()}|${line.menu_item.toLowerCase()}`;
  const ids = new Map<string, number>();
  const itemNames = [...new Set(lines.map((line) => line.menu_item.toLowerCase()))];
  const { rows } = await sql.query<{ id: number; category: string; item: string }>(
    `SELECT i.id, lower(c.name) AS category, lower(i.name) AS item
     FROM menu_items i JOIN menu_categories c ON c.company_id = $1 AND c.id = i.category_id
     WHERE i.company_id = $1 AND lower(i.name) = ANY($2::text[])
     ORDER BY i.id`,
    [companyId, itemNames],
  );
  for (const row of rows) {
    if (!ids.has(`${row.category}|${row.item}`)) ids.set(`${row.category}|${row.item}`, row.id);
    if (!ids.has(`|${row.item}`)) ids.set(`|${row.item}`, row.id);
  }
  const missing = new Map<string, IngestLine>();
  for (const line of lines)
    if (!ids.has(keyOf(line)) && !missing.has(keyOf(line))) missing.set(keyOf(line), line);
  if (missing.size === 0) return ids;
  const categories = await categoryIds(
    sql,
    companyId,
    [...missing.values()].map((line) => line.category ?? UNCATEGORISED),
  );
  const toCreate = [...missing.entries()].map(([key, line]) => ({
    key,
    line,
    categoryId: categories.get((line.category ?? UNCATEGORISED).toLowerCase())!,
  }));
  const created = await sql.query<{ id: number; category_id: number; item: string }>(
    `INSERT INTO menu_items (company_id, category_id, name, price_cents)
     SELECT $1, category_id, name, price FROM unnest($2::bigint[], $3::text[], $4::int[]) AS i(category_id, name, price)
     RETURNING id, category_id, lower(name) AS item`,
    [
      companyId,
      toCreate.map((item) => item.categoryId),
      toCreate.map((item) => item.line.menu_item),
      toCreate.map((item) => Math.round(item.line.amount / item.line.quantity)),
    ],
  );
  const createdId = new Map(created.rows.map((row) => [`${row.category_id}|${row.item}`, row.id]));
  for (const item of toCreate) {
    ids.set(item.key, createdId.get(`${item.categoryId}|${item.line.menu_item.toLowerCase()}`)!);
  }
  return ids;
}

/** Revenue center ids by `location id|name`, creating the missing ones. */
async function revenueCenterIds(
  sql: Sql,
  companyId: CompanyId,
  checks: readonly IngestCheck[],
): Promise<Map<string, number>> {
  const pairs = new Map<string, { location: number; name: string }>();
  for (const check of checks) {
    if (check.revenue_center)
      pairs.set(`${check.location_id}|${check.revenue_center}`, {
        location: check.location_id,
        name: check.revenue_center,
      });
  }
  if (pairs.size === 0) return new Map();
  const locations = [...pairs.values()].map((pair) => pair.location);
  const names = [...pairs.values()].map((pair) => pair.name);
  await sql.query(
    `INSERT INTO revenue_centers (company_id, location_id, name)
     SELECT $1, location_id, name FROM unnest($2::bigint[], $3::text[]) AS c(location_id, name)
     ON CONFLICT (location_id, name) DO NOTHING`,
    [companyId, locations, names],
  );
  const { rows } = await sql.query<{ id: number; location_id: number; name: string }>(
    `SELECT r.id, r.location_id, r.name FROM revenue_centers r
     JOIN unnest($2::bigint[], $3::text[]) AS c(location_id, name) ON c.location_id = r.location_id AND c.name = r.name
     WHERE r.company_id = $1`,
    [companyId, locations, names],
  );
  return new Map(rows.map((row) => [`${row.location_id}|${row.name}`, row.id]));
}

/** How a check's guest is looked up: by POS id when it has one, else by name and card digits. */
function guestKey(guest: NonNullable<IngestCheck['guest']>): string {
  return guest.pos_id !== undefined
    ? `pos|${guest.pos_id}`
    : `card|${(guest.customer_name ?? '').toLowerCase()}|${guest.last_four_digits ?? ''}`;
}

/**
 * Guest ids by `guestKey`: a POS id matches the company's guest with that POS id, or else a guest with the same
 * name and card digits (who takes the POS id when theirs was only a stand-in); a name with digits matches the
 * same name (any case) and digits. The rest are created. Returns the ids and the guests created.
 */
async function guestIds(
  sql: Sql,
  companyId: CompanyId,
  checks: readonly IngestCheck[],
): Promise<{ ids: Map<string, number>; created: number[] }> {
  const guests = new Map<string, NonNullable<IngestCheck['guest']>>();
  for (const check of checks) if (check.guest) guests.set(guestKey(check.guest), check.guest);
  const ids = new Map<string, number>();
  if (guests.size === 0) return { ids, created: [] };
  const entries = [...guests.entries()];
  const { rows } = await sql.query<{
    n: number;
    by_pos: number | null;
    by_card: number | null;
    stand_in: boolean;
  }>(
    `SELECT k.n::int AS n,
            (SELECT min(g.id) FROM guests g WHERE g.company_id = $1 AND k.pos_id <> '' AND g.pos_id = k.pos_id) AS by_pos,
            c.id AS by_card, coalesce(c.pos_id = c.hashid, false) AS stand_in
     FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS k(pos_id, name, digits, n)
     LEFT JOIN LATERAL (
       SELECT g.id, g.pos_id, g.hashid FROM guests g
       WHERE g.company_id = $1 AND k.name <> '' AND k.digits <> ''
         AND lower(g.customer_name) = lower(k.name) AND g.last_four_digits = k.digits
       ORDER BY g.id LIMIT 1
     ) c ON true`,
    [
      companyId,
      entries.map(([, guest]) => guest.pos_id ?? ''),
      entries.map(([, guest]) => guest.customer_name ?? ''),
      entries.map(([, guest]) => guest.last_four_digits ?? ''),
    ],
  );
  const adoptPosId: { id: number; pos_id: string }[] = [];
  for (const row of rows) {
    const [key, guest] = entries[row.n - 1]!;
    if (row.by_pos !== null) ids.set(key, row.by_pos);
    else if (row.by_card !== null) {
      ids.set(key, row.by_card);
      // A guest first known by card alone carries their own id as POS id until the POS names them.
      if (guest.pos_id !== undefined && row.stand_in)
        adoptPosId.push({ id: row.by_card, pos_id: guest.pos_id });
    }
  }
  if (adoptPosId.length > 0) {
    await sql.query(
      `UPDATE guests g SET pos_id = a.pos_id, updated_at = now()
       FROM unnest($2::bigint[], $3::text[]) AS a(id, pos_id) WHERE g.company_id = $1 AND g.id = a.id`,
      [companyId, adoptPosId.map((row) => row.id), adoptPosId.map((row) => row.pos_id)],
    );
  }
  const missing = entries.filter(([key]) => !ids.has(key));
  if (missing.length === 0) return { ids, created: [] };
  const hashids = missing.map(() => newHashid());
  const created = await sql.query<{ id: number; hashid: string }>(
    `INSERT INTO guests (company_id, pos_id, hashid, customer_name, last_four_digits)
     SELECT $1, coalesce(pos_id, hashid), hashid, name, digits
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS g(pos_id, hashid, name, digits)
     RETURNING id, hashid`,
    [
      companyId,
      missing.map(([, guest]) => guest.pos_id ?? null),
      hashids,
      missing.map(([, guest]) => guest.customer_name ?? ''),
      missing.map(([, guest]) => guest.last_four_digits ?? ''),
    ],
  );
  const idByHashid = new Map(created.rows.map((row) => [row.hashid, row.id]));
  missing.forEach(([key], index) => ids.set(key, idByHashid.get(hashids[index]!)!));
  return { ids, created: created.rows.map((row) => row.id) };
}

/**
 * Stores the checks that are not stored yet, with their lines, guests, items and revenue centers, adds them to
 * their guests' running totals and locations, links subscribers that share a new guest's POS id, and records
 * one audit entry for the batch; all in the caller's transaction. A check already stored (same location, check
 * number and closing time, sent before or earlier in this batch) is left as it is.
 */
export async function ingestChecks(
  sql: Sql,
  scope: WriteScope,
  checks: readonly IngestCheck[],
): Promise<IngestResult> {
  const companyId = scope.companyId;
  if (checks.length === 0) return { created: [], unchanged: [] };
  await sql.query('SELECT pg_advisory_xact_lock($1, $2::int)', [INGESTION_LOCK, companyId]);
  const items = await menuItemIds(
    sql,
    companyId,
    checks.flatMap((check) => check.lines),
  );
  const centers = await revenueCenterIds(sql, companyId, checks);
  const guests = await guestIds(sql, companyId, checks);

  const { rows } = await sql.query<{ id: number; n: number }>(
    `WITH incoming AS (
       SELECT * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::timestamptz[], $7::timestamptz[],
                            $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[])
         WITH ORDINALITY AS c(location_id, revenue_center_id, guest_id, check_number, opened_at, closed_at,
                              guest_count, subtotal, discount, tax, tip, total, n)
     ), made AS (
       INSERT INTO pos_checks (company_id, location_id, revenue_center_id, guest_id, check_number, opened_at,
                               closed_at, guest_count, subtotal_cents, discount_cents, tax_cents, tip_cents, total_cents)
       SELECT $1, location_id, revenue_center_id, guest_id, check_number, opened_at, closed_at, guest_count,
              subtotal, discount, tax, tip, total
       FROM incoming ORDER BY n
       ON CONFLICT (company_id, location_id, check_number, closed_at) DO NOTHING
       RETURNING id, location_id, check_number, closed_at
     )
     -- The first check of the batch with each identity is the one stored.
     SELECT made.id, min(incoming.n)::int AS n FROM made
     JOIN incoming USING (location_id, check_number, closed_at)
     GROUP BY made.id`,
    [
      companyId,
      checks.map((check) => check.location_id),
      checks.map((check) =>
        check.revenue_center ? centers.get(`${check.location_id}|${check.revenue_center}`)! : null,
      ),
      checks.map((check) => (check.guest ? guests.ids.get(guestKey(check.guest))! : null)),
      checks.map((check) => check.check_number),
      checks.map((check) => check.opened_at.toISOString()),
      checks.map((check) => check.closed_at.toISOString()),
      checks.map((check) => check.guest_count ?? 1),
      checks.map((check) => check.subtotal ?? check.total),
      checks.map((check) => check.discount ?? 0),
      checks.map((check) => check.tax ?? 0),
      checks.map((check) => check.tip ?? 0),
      checks.map((check) => check.total),
    ],
  );
  const created = rows.map((row) => row.n - 1).sort((a, b) => a - b);
  const checkIdAt = new Map(rows.map((row) => [row.n - 1, row.id]));
  const createdSet = new Set(created);
  const unchanged = checks.map((_, index) => index).filter((index) => !createdSet.has(index));

  const lines = created.flatMap((index) =>
    checks[index]!.lines.map((line) => ({ checkId: checkIdAt.get(index)!, line })),
  );
  if (lines.length > 0) {
    const itemKey = (line: IngestLine) =>
      `${(line.category ?? '').toLowerCase()}|${line.menu_item.toLowerCase()}`;
    await sql.query(
      `INSERT INTO pos_check_lines (company_id, check_id, menu_item_id, quantity, unit_price_cents, amount_cents)
       SELECT $1, check_id, item_id, quantity, unit_price, amount
       FROM unnest($2::bigint[], $3::bigint[], $4::int[], $5::int[], $6::int[])
         AS l(check_id, item_id, quantity, unit_price, amount)`,
      [
        companyId,
        lines.map(({ checkId }) => checkId),
        lines.map(({ line }) => items.get(itemKey(line))!),
        lines.map(({ line }) => line.quantity),
        lines.map(({ line }) => Math.round(line.amount / line.quantity)),
        lines.map(({ line }) => line.amount),
      ],
    );
  }
  const createdIds = created.map((index) => checkIdAt.get(index)!);
  await addChecksToGuests(sql, companyId, createdIds);
  if (guests.created.length > 0) {
    // Subscribers who gave their POS id before the POS had seen them are linked to the guest now.
    await sql.query(
      `UPDATE subscribers s SET guest_id = g.id, updated_at = now()
       FROM guests g
       WHERE s.company_id = $1 AND g.company_id = $1 AND g.id = ANY($2::bigint[]) AND s.guest_id IS NULL
         AND s.pos_id = g.pos_id`,
      [companyId, guests.created],
    );
  }
  await recordAudit(sql, scope, {
    action: 'create',
    entity: 'pos_check_batch',
    entityId: null,
    after: { created: created.length, unchanged: unchanged.length, guests_created: guests.created.length },
  });
  return { created, unchanged };
}
