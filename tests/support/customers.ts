import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import {
  createMenuCategory,
  createMenuItem,
  insertChecks,
  type MenuItemRow,
  type NewCheck,
  type NewCheckLine,
} from '../../server/repositories/pos.repository.js';
import { systemScope } from './factories.js';

/** A menu category with the named items (prices in cents), for checks to point their lines at. */
export async function makeMenu(
  db: Database,
  companyId: number,
  items: Record<string, number>,
): Promise<Record<string, MenuItemRow>> {
  const scope = systemScope(companyId);
  const category = await db.tenant(scope.companyId, (sql) =>
    createMenuCategory(sql, scope, `Menu ${randomBytes(4).toString('hex')}`),
  );
  const made: Record<string, MenuItemRow> = {};
  for (const [name, price] of Object.entries(items)) {
    made[name] = await db.tenant(scope.companyId, (sql) =>
      createMenuItem(sql, scope, { category_id: category.id, name, price_cents: price }),
    );
  }
  return made;
}

/** One visit to record: where, when (a UTC day of January 2025), and the lines bought. */
export interface TestVisit {
  locationId: number;
  day: number;
  lines: NewCheckLine[];
  /** The total in cents; the lines' sum when omitted. */
  totalCents?: number;
}

/** Records a guest's visits as POS checks (through the real check import), returning the check ids. */
export async function recordVisits(
  db: Database,
  companyId: number,
  guestId: number | null,
  visits: readonly TestVisit[],
): Promise<number[]> {
  const checks = await db.tenant(companyId, (sql) =>
    insertChecks(
      sql,
      systemScope(companyId),
      visits.map((visit, index) => {
        const closed = new Date(Date.UTC(2025, 0, visit.day, 20));
        const sum = visit.lines.reduce((total, line) => total + line.quantity * line.unit_price_cents, 0);
        const total = visit.totalCents ?? sum;
        return {
          location_id: visit.locationId,
          guest_id: guestId,
          check_number: `T-${visit.day}-${index}`,
          opened_at: new Date(closed.getTime() - 3_600_000),
          closed_at: closed,
          subtotal_cents: total,
          total_cents: total,
          lines: visit.lines,
        };
      }),
    ),
  );
  return checks.map((check) => check.id);
}

/** A company's total check revenue in cents and check count, read as the owner so nothing filters it. */
export async function revenueOf(db: Database, companyId: number): Promise<{ cents: number; checks: number }> {
  return db.owner(async (sql) => {
    const { rows } = await sql.query<{ cents: number; checks: number }>(
      `SELECT coalesce(sum(total_cents), 0)::bigint AS cents, count(*)::int AS checks
       FROM pos_checks WHERE company_id = $1`,
      [companyId],
    );
    return rows[0]!;
  });
}

/** A POS check of 10 USD (by default) at the location, closed at 20:00 UTC on the given day of January 2024. */
export function januaryCheck(
  locationId: number,
  guestId: number | null,
  day: number,
  totalCents = 1000,
): NewCheck {
  const closed = new Date(Date.UTC(2024, 0, day, 20));
  return {
    location_id: locationId,
    guest_id: guestId,
    check_number: `C${day}`,
    opened_at: new Date(closed.getTime() - 3_600_000),
    closed_at: closed,
    subtotal_cents: totalCents,
    total_cents: totalCents,
    lines: [],
  };
}

/** Puts a message in the outbox directly (the email repositories are not under test) and answers its id. */
export async function queueTestMessage(
  db: Database,
  companyId: number,
  subscriberId: number,
  to: string,
  status = 'queued',
): Promise<number> {
  return db.owner(async (sql) => {
    const { rows } = await sql.query<{ id: number }>(
      `INSERT INTO email_messages (company_id, subscriber_id, to_address, subject, status)
       VALUES ($1, $2, $3, 'Hello', $4) RETURNING id`,
      [companyId, subscriberId, to, status],
    );
    return rows[0]!.id;
  });
}

/** A message of the outbox as stored, read past row-level security. */
export async function storedMessage(
  db: Database,
  id: number,
): Promise<{ status: string; to_address: string; subscriber_id: number | null }> {
  return db.owner(
    async (sql) =>
      (
        await sql.query<{ status: string; to_address: string; subscriber_id: number | null }>(
          'SELECT status, to_address, subscriber_id FROM email_messages WHERE id = $1',
          [id],
        )
      ).rows[0]!,
  );
}
