import type { CompanyId, Sql } from '../db/database.js';
import type { WriteScope } from './scope.js';
import { recordAudit } from './audit.repository.js';
import { addChecksToCohorts } from './cohort-rollups.repository.js';
import { newHashid } from './hashid.js';
import { addChecksToGuests } from './pos.repository.js';
import { addChecksToRollups } from './pos-rollups.repository.js';
import { recordCheckFlowEvents } from './flow-events.repository.js';

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

/** A change to a demo company's checks or their figures while the demo load fills its rollups again. */
export class DemoStillSummingError extends Error {
  constructor() {
    super('The demo data is still being summed up; try again in a minute');
  }
}

/**
 * Takes the company's ingestion lock for the caller's transaction: every change to the checks and to the figures
 * kept with them (batches, voids, a guest's erasure, a location's deletion or zone change, a group's deletion and
 * the fill of its rows) holds it, so two never read and adjust the same running figures at once. Other companies
 * are not held up. Refused with
 * `DemoStillSummingError` while a demo company's rollups are cleared and filled again after its checks are in
 * (seed/load.ts, in steps on PGlite): a change in between would be counted twice or lost.
 */
export async function lockCompanyIngestion(sql: Sql, companyId: CompanyId): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1, $2::int)', [INGESTION_LOCK, companyId]);
  const { rows } = await sql.query(
    `SELECT 1 FROM demo_loads
     WHERE company_id = $1 AND finished_at IS NULL AND failure IS NULL AND checks_loaded >= checks_total`,
    [companyId],
  );
  if (rows.length > 0) throw new DemoStillSummingError();
}

/**
 * Takes the company's ingestion lock for the caller's transaction if no other transaction holds it, without
 * waiting: false when it is held (a batch, a void, a deletion in progress), so a background worker that already
 * holds other locks can try again later rather than wait in a lock cycle.
 */
export async function tryLockCompanyIngestion(sql: Sql, companyId: CompanyId): Promise<boolean> {
  const { rows } = await sql.query<{ locked: boolean }>(
    'SELECT pg_try_advisory_xact_lock($1, $2::int) AS locked',
    [INGESTION_LOCK, companyId],
  );
  return rows[0]?.locked === true;
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
 * The key a line's item is found by: its category and its name, lower-cased (the category '' when the line
 * names none). JSON, so no name can be read as part of the other.
 */
export function itemKey(line: Pick<IngestLine, 'category' | 'menu_item'>): string {
  return JSON.stringify([(line.category ?? '').toLowerCase(), line.menu_item.toLowerCase()]);
}

/**
 * Menu item ids by `itemKey`. A line with a category matches the item of that name in that category; a line
 * without one matches the item by name in any category. Missing items are created once each, for every
 * location, at the unit price of the first line that sold them: a line without a category files its item under
 * the category another line of the batch gives it, else under `Other`.
 */
async function menuItemIds(
  sql: Sql,
  companyId: CompanyId,
  lines: readonly IngestLine[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (lines.length === 0) return ids;
  const { rows } = await sql.query<{ id: number; category: string; item: string }>(
    `SELECT i.id, lower(c.name) AS category, lower(i.name) AS item
     FROM menu_items i JOIN menu_categories c ON c.company_id = $1 AND c.id = i.category_id
     WHERE i.company_id = $1 AND lower(i.name) = ANY($2::text[])
     ORDER BY i.id`,
    [companyId, [...new Set(lines.map((line) => line.menu_item.toLowerCase()))]],
  );
  for (const row of rows) {
    for (const category of [row.category, '']) {
      const key = itemKey({ category, menu_item: row.item });
      if (!ids.has(key)) ids.set(key, row.id);
    }
  }
  const categoryOfItem = new Map<string, string>();
  for (const line of lines) {
    if (line.category && !categoryOfItem.has(line.menu_item.toLowerCase())) {
      categoryOfItem.set(line.menu_item.toLowerCase(), line.category);
    }
  }
  // Each missing item once, by the key of the category it will be filed under; every line key that wants it.
  const toCreate = new Map<string, { category: string; line: IngestLine }>();
  const wanting: { key: string; created: string }[] = [];
  for (const line of lines) {
    const key = itemKey(line);
    if (ids.has(key)) continue;
    const category = line.category ?? categoryOfItem.get(line.menu_item.toLowerCase()) ?? UNCATEGORISED;
    const created = itemKey({ category, menu_item: line.menu_item });
    if (ids.has(created)) ids.set(key, ids.get(created)!);
    else {
      if (!toCreate.has(created)) toCreate.set(created, { category, line });
      wanting.push({ key, created });
    }
  }
  if (toCreate.size === 0) return ids;
  const items = [...toCreate.values()];
  const categories = await categoryIds(
    sql,
    companyId,
    items.map((item) => item.category),
  );
  const made = await sql.query<{ id: number; category_id: number; item: string }>(
    `INSERT INTO menu_items (company_id, category_id, name, price_cents)
     SELECT $1, category_id, name, price FROM unnest($2::bigint[], $3::text[], $4::int[]) AS i(category_id, name, price)
     RETURNING id, category_id, lower(name) AS item`,
    [
      companyId,
      items.map((item) => categories.get(item.category.toLowerCase())!),
      items.map((item) => item.line.menu_item),
      items.map((item) => Math.round(item.line.amount / item.line.quantity)),
    ],
  );
  const madeId = new Map(made.rows.map((row) => [JSON.stringify([row.category_id, row.item]), row.id]));
  for (const [created, item] of toCreate) {
    const categoryId = categories.get(item.category.toLowerCase())!;
    ids.set(created, madeId.get(JSON.stringify([categoryId, item.line.menu_item.toLowerCase()]))!);
  }
  for (const { key, created } of wanting) ids.set(key, ids.get(created)!);
  return ids;
}

/** The key a check's revenue center is found by: its location and its name, lower-cased. */
export function revenueCenterKey(check: Pick<IngestCheck, 'location_id' | 'revenue_center'>): string {
  return JSON.stringify([check.location_id, (check.revenue_center ?? '').toLowerCase()]);
}

/** Revenue center ids by `revenueCenterKey` (names in any case), creating the missing ones as first spelled. */
async function revenueCenterIds(
  sql: Sql,
  companyId: CompanyId,
  checks: readonly IngestCheck[],
): Promise<Map<string, number>> {
  const wanted = new Map<string, { location: number; name: string }>();
  for (const check of checks) {
    const key = revenueCenterKey(check);
    if (check.revenue_center && !wanted.has(key)) {
      wanted.set(key, { location: check.location_id, name: check.revenue_center });
    }
  }
  const ids = new Map<string, number>();
  if (wanted.size === 0) return ids;
  const pairs = [...wanted.values()];
  const found = await sql.query<{ id: number; location_id: number; name: string }>(
    `SELECT min(r.id) AS id, r.location_id, lower(r.name) AS name FROM revenue_centers r
     JOIN unnest($2::bigint[], $3::text[]) AS c(location_id, name)
       ON c.location_id = r.location_id AND lower(c.name) = lower(r.name)
     WHERE r.company_id = $1
     GROUP BY r.location_id, lower(r.name)`,
    [companyId, pairs.map((pair) => pair.location), pairs.map((pair) => pair.name)],
  );
  const keyOf = (location: number, name: string) =>
    revenueCenterKey({ location_id: location, revenue_center: name });
  for (const row of found.rows) ids.set(keyOf(row.location_id, row.name), row.id);
  const missing = pairs.filter((pair) => !ids.has(keyOf(pair.location, pair.name)));
  if (missing.length > 0) {
    const made = await sql.query<{ id: number; location_id: number; name: string }>(
      `INSERT INTO revenue_centers (company_id, location_id, name)
       SELECT $1, location_id, name FROM unnest($2::bigint[], $3::text[]) AS c(location_id, name)
       RETURNING id, location_id, name`,
      [companyId, missing.map((pair) => pair.location), missing.map((pair) => pair.name)],
    );
    for (const row of made.rows) ids.set(keyOf(row.location_id, row.name), row.id);
  }
  return ids;
}

type IngestGuest = NonNullable<IngestCheck['guest']>;

/** How a check's guest is found: by POS id when it has one, else by name (any case) and card digits. */
export function guestKey(guest: IngestGuest): string {
  return guest.pos_id !== undefined
    ? JSON.stringify(['pos', guest.pos_id])
    : cardKey(guest.customer_name ?? '', guest.last_four_digits ?? '');
}

function cardKey(name: string, digits: string): string {
  return JSON.stringify(['card', name.toLowerCase(), digits]);
}

/** The guests a batch names, resolved: ids by `guestKey`, and the guests created or given their POS id now. */
interface ResolvedGuests {
  ids: Map<string, number>;
  created: number[];
  /** Created, or known by card until now and given the POS id the check carries: to link to subscribers. */
  newlyIdentified: number[];
}

/**
 * Resolves the guests of a batch. A POS id matches the company's guest with that POS id; failing that, a guest
 * with the same name and card digits whose POS id was only a stand-in (their own id: known by card alone), who
 * takes the POS id now — a guest with another real POS id is another person. A name with digits matches the same
 * name (any case) and digits. The rest are created once each: those with a POS id first, so a card-only check
 * of the same batch finds them.
 */
async function guestIds(
  sql: Sql,
  companyId: CompanyId,
  checks: readonly IngestCheck[],
): Promise<ResolvedGuests> {
  const guests = new Map<string, IngestGuest>();
  for (const check of checks) if (check.guest) guests.set(guestKey(check.guest), check.guest);
  const ids = new Map<string, number>();
  if (guests.size === 0) return { ids, created: [], newlyIdentified: [] };
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
    else if (row.by_card !== null && (guest.pos_id === undefined || row.stand_in)) {
      ids.set(key, row.by_card);
      if (guest.pos_id !== undefined) adoptPosId.push({ id: row.by_card, pos_id: guest.pos_id });
    }
  }
  if (adoptPosId.length > 0) {
    await sql.query(
      `UPDATE guests g SET pos_id = a.pos_id, updated_at = now()
       FROM unnest($2::bigint[], $3::text[]) AS a(id, pos_id) WHERE g.company_id = $1 AND g.id = a.id`,
      [companyId, adoptPosId.map((row) => row.id), adoptPosId.map((row) => row.pos_id)],
    );
  }
  const created: number[] = [];
  const create = async (missing: [string, IngestGuest][]) => {
    if (missing.length === 0) return;
    const hashids = missing.map(() => newHashid());
    const made = await sql.query<{ id: number; hashid: string }>(
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
    const idByHashid = new Map(made.rows.map((row) => [row.hashid, row.id]));
    missing.forEach(([key], index) => ids.set(key, idByHashid.get(hashids[index]!)!));
    created.push(...made.rows.map((row) => row.id));
  };
  await create(entries.filter(([key, guest]) => !ids.has(key) && guest.pos_id !== undefined));
  // A card-only check finds a guest of this batch with the same name and digits, as it would a stored one.
  const byCard = new Map<string, number>();
  for (const [key, guest] of entries) {
    if (ids.has(key) && guest.customer_name && guest.last_four_digits) {
      const card = cardKey(guest.customer_name, guest.last_four_digits);
      if (!byCard.has(card)) byCard.set(card, ids.get(key)!);
    }
  }
  const cardOnly = entries.filter(([key]) => !ids.has(key));
  for (const [key] of cardOnly) if (byCard.has(key)) ids.set(key, byCard.get(key)!);
  await create(cardOnly.filter(([key]) => !ids.has(key)));
  return { ids, created, newlyIdentified: [...created, ...adoptPosId.map((row) => row.id)] };
}

/**
 * The indexes of the checks to store: not stored before (same location, check number and closing time) and
 * not a repeat of an earlier check of the batch. The rest are left alone, whatever else they carry.
 */
async function freshCheckIndexes(
  sql: Sql,
  companyId: CompanyId,
  checks: readonly IngestCheck[],
): Promise<number[]> {
  const { rows } = await sql.query<{ n: number }>(
    `SELECT k.n::int AS n
     FROM unnest($2::bigint[], $3::text[], $4::timestamptz[]) WITH ORDINALITY AS k(location_id, check_number, closed_at, n)
     WHERE EXISTS (SELECT 1 FROM pos_checks c
                   WHERE c.company_id = $1 AND c.location_id = k.location_id AND c.check_number = k.check_number
                     AND c.closed_at = k.closed_at)`,
    [
      companyId,
      checks.map((check) => check.location_id),
      checks.map((check) => check.check_number),
      checks.map((check) => check.closed_at.toISOString()),
    ],
  );
  const stored = new Set(rows.map((row) => row.n - 1));
  const seen = new Set<string>();
  const fresh: number[] = [];
  checks.forEach((check, index) => {
    const identity = JSON.stringify([check.location_id, check.check_number, check.closed_at.toISOString()]);
    if (stored.has(index) || seen.has(identity)) return;
    seen.add(identity);
    fresh.push(index);
  });
  return fresh;
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
  await lockCompanyIngestion(sql, companyId);
  // Only checks not stored yet are looked at: a check sent again creates no item, center or guest.
  const fresh = await freshCheckIndexes(sql, companyId, checks);
  const storing = fresh.map((index) => checks[index]!);
  const items = await menuItemIds(
    sql,
    companyId,
    storing.flatMap((check) => check.lines),
  );
  const centers = await revenueCenterIds(sql, companyId, storing);
  const guests = await guestIds(sql, companyId, storing);

  // Another writer without the lock (a test helper, the demo loader) could store the same check meanwhile:
  // ON CONFLICT keeps that one, and this check counts as unchanged.
  const { rows } = await sql.query<{
    id: number;
    location_id: number;
    check_number: string;
    closed_at: Date;
  }>(
    `INSERT INTO pos_checks (company_id, location_id, revenue_center_id, guest_id, check_number, opened_at, closed_at,
                             guest_count, subtotal_cents, discount_cents, tax_cents, tip_cents, total_cents)
     SELECT $1, * FROM unnest($2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::timestamptz[],
                              $7::timestamptz[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[])
     ON CONFLICT (company_id, location_id, check_number, closed_at) DO NOTHING
     RETURNING id, location_id, check_number, closed_at`,
    [
      companyId,
      storing.map((check) => check.location_id),
      storing.map((check) => (check.revenue_center ? centers.get(revenueCenterKey(check))! : null)),
      storing.map((check) => (check.guest ? guests.ids.get(guestKey(check.guest))! : null)),
      storing.map((check) => check.check_number),
      storing.map((check) => check.opened_at.toISOString()),
      storing.map((check) => check.closed_at.toISOString()),
      storing.map((check) => check.guest_count ?? 1),
      storing.map((check) => check.subtotal ?? check.total),
      storing.map((check) => check.discount ?? 0),
      storing.map((check) => check.tax ?? 0),
      storing.map((check) => check.tip ?? 0),
      storing.map((check) => check.total),
    ],
  );
  const identity = (location: number, number: string, closedAt: Date) =>
    JSON.stringify([location, number, closedAt.toISOString()]);
  const idOf = new Map(
    rows.map((row) => [identity(row.location_id, row.check_number, row.closed_at), row.id]),
  );
  const checkIdAt = new Map<number, number>();
  for (const index of fresh) {
    const check = checks[index]!;
    const id = idOf.get(identity(check.location_id, check.check_number, check.closed_at));
    if (id !== undefined) checkIdAt.set(index, id);
  }
  const created = [...checkIdAt.keys()];
  const unchanged = checks.map((_, index) => index).filter((index) => !checkIdAt.has(index));

  const lines = created.flatMap((index) =>
    checks[index]!.lines.map((line) => ({ checkId: checkIdAt.get(index)!, line })),
  );
  if (lines.length > 0) {
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
  await addChecksToGuests(sql, companyId, [...checkIdAt.values()]);
  await addChecksToCohorts(sql, companyId, [...checkIdAt.values()]);
  await addChecksToRollups(sql, companyId, [...checkIdAt.values()]);
  // Flow triggers (first/nth visit, visit at a location, spend passes) read these events (docs/flows.md).
  await recordCheckFlowEvents(sql, companyId, [...checkIdAt.values()]);
  if (guests.newlyIdentified.length > 0) {
    // Subscribers who gave their POS id before the POS named the guest are linked to the guest now.
    await sql.query(
      `UPDATE subscribers s SET guest_id = g.id, updated_at = now()
       FROM guests g
       WHERE s.company_id = $1 AND g.company_id = $1 AND g.id = ANY($2::bigint[]) AND s.guest_id IS NULL
         AND s.pos_id = g.pos_id`,
      [companyId, guests.newlyIdentified],
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
