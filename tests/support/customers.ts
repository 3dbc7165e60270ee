import { randomBytes } from 'node:crypto';
import type { Database } from '../../server/db/database.js';
import {
  createMenuCategory,
  createMenuItem,
  insertChecks,
  type MenuItemRow,
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
