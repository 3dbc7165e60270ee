import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { voidChecks } from '../../server/repositories/pos-voids.repository.js';
import { updateGuestTotals } from '../../server/seed/load.js';
import { locationsService } from '../../server/services/locations.service.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeGuest, makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

const ITEMS = ['Burger', 'Fries', 'Soda', 'Pie'];
const POS_IDS = ['V-1', 'V-2', 'V-3'];

/** Every figure kept with the checks for the company's guests, read as stored. */
async function keptFigures(db: Database, companyId: number) {
  return db.owner(async (sql) => ({
    guests: (
      await sql.query(
        `SELECT pos_id, visit_count, total_spend_cents::int AS spend, first_visit_at, last_visit_at,
                breakfast_visits + lunch_visits + dinner_visits + late_visits AS day_part_visits
         FROM guests WHERE company_id = $1 ORDER BY pos_id`,
        [companyId],
      )
    ).rows,
    locations: (
      await sql.query(
        `SELECT g.pos_id, gl.location_id, gl.visits, gl.spend_cents::int AS spend, gl.first_visit_at,
                gl.last_visit_at
         FROM guest_locations gl JOIN guests g ON g.id = gl.guest_id
         WHERE gl.company_id = $1 ORDER BY g.pos_id, gl.location_id`,
        [companyId],
      )
    ).rows,
    items: (
      await sql.query(
        `SELECT g.pos_id, i.name, gm.quantity::int AS quantity, gm.checks::int AS checks
         FROM guest_menu_items gm JOIN guests g ON g.id = gm.guest_id JOIN menu_items i ON i.id = gm.menu_item_id
         WHERE gm.company_id = $1 AND gm.checks > 0 ORDER BY g.pos_id, i.name`,
        [companyId],
      )
    ).rows,
    months: (
      await sql.query(
        `SELECT g.pos_id, m.location_id, to_char(m.month, 'YYYY-MM') AS month, m.checks,
                m.revenue_cents::int AS revenue
         FROM guest_location_months m JOIN guests g ON g.id = m.guest_id
         WHERE m.company_id = $1 ORDER BY 1, 2, 3`,
        [companyId],
      )
    ).rows,
    days: (
      await sql.query(
        `SELECT location_id, to_char(day, 'YYYY-MM-DD') AS day, revenue_cents::int AS revenue, checks::int AS checks
         FROM pos_location_days WHERE company_id = $1 AND checks > 0 ORDER BY 1, 2`,
        [companyId],
      )
    ).rows,
    guestDays: (
      await sql.query(
        `SELECT g.pos_id, d.location_id, to_char(d.day, 'YYYY-MM-DD') AS day, d.checks::int AS checks,
                to_char(d.first_day, 'YYYY-MM-DD') AS first_day, to_char(d.prev_day, 'YYYY-MM-DD') AS prev_day,
                to_char(d.prev_day_here, 'YYYY-MM-DD') AS prev_day_here
         FROM pos_guest_days d JOIN guests g ON g.id = d.guest_id WHERE d.company_id = $1 ORDER BY 1, 2, 3`,
        [companyId],
      )
    ).rows,
  }));
}

/** The same figures worked out here from the raw checks and lines, independently of the repositories. */
async function figuresFromRawChecks(db: Database, companyId: number) {
  return db.owner(async (sql) => ({
    guests: (
      await sql.query(
        `SELECT g.pos_id, count(c.id)::int AS visit_count, coalesce(sum(c.total_cents), 0)::int AS spend,
                min(c.closed_at) AS first_visit_at, max(c.closed_at) AS last_visit_at,
                count(c.id)::int AS day_part_visits
         FROM guests g LEFT JOIN pos_checks c ON c.guest_id = g.id
         WHERE g.company_id = $1 GROUP BY g.pos_id ORDER BY g.pos_id`,
        [companyId],
      )
    ).rows,
    locations: (
      await sql.query(
        `SELECT g.pos_id, gl.location_id, count(c.id)::int AS visits, coalesce(sum(c.total_cents), 0)::int AS spend,
                min(c.closed_at) AS first_visit_at, max(c.closed_at) AS last_visit_at
         FROM guest_locations gl JOIN guests g ON g.id = gl.guest_id
         LEFT JOIN pos_checks c ON c.guest_id = gl.guest_id AND c.location_id = gl.location_id
         WHERE gl.company_id = $1 GROUP BY g.pos_id, gl.location_id ORDER BY g.pos_id, gl.location_id`,
        [companyId],
      )
    ).rows,
    items: (
      await sql.query(
        `SELECT g.pos_id, i.name, sum(l.quantity)::int AS quantity, count(DISTINCT c.id)::int AS checks
         FROM pos_check_lines l JOIN pos_checks c ON c.id = l.check_id JOIN guests g ON g.id = c.guest_id
         JOIN menu_items i ON i.id = l.menu_item_id
         WHERE c.company_id = $1 GROUP BY g.pos_id, i.name ORDER BY g.pos_id, i.name`,
        [companyId],
      )
    ).rows,
    months: (
      await sql.query(
        `SELECT g.pos_id, c.location_id, to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM') AS month,
                count(*)::int AS checks, sum(c.total_cents)::int AS revenue
         FROM pos_checks c JOIN guests g ON g.id = c.guest_id JOIN companies co ON co.id = c.company_id
         WHERE c.company_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [companyId],
      )
    ).rows,
    days: (
      await sql.query(
        `SELECT c.location_id, to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-DD') AS day,
                sum(c.total_cents)::int AS revenue, count(*)::int AS checks
         FROM pos_checks c JOIN companies co ON co.id = c.company_id
         WHERE c.company_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [companyId],
      )
    ).rows,
    guestDays: (
      await sql.query(
        `WITH local AS (
           SELECT c.guest_id, c.location_id, (c.closed_at AT TIME ZONE co.time_zone)::date AS day
           FROM pos_checks c JOIN companies co ON co.id = c.company_id
           WHERE c.company_id = $1 AND c.guest_id IS NOT NULL)
         SELECT g.pos_id, l.location_id, to_char(l.day, 'YYYY-MM-DD') AS day, count(*)::int AS checks,
                to_char((SELECT min(f.day) FROM local f WHERE f.guest_id = l.guest_id), 'YYYY-MM-DD') AS first_day,
                to_char((SELECT max(f.day) FROM local f WHERE f.guest_id = l.guest_id
                           AND (f.day < l.day OR (f.day = l.day AND f.location_id < l.location_id))), 'YYYY-MM-DD')
                  AS prev_day,
                to_char((SELECT max(f.day) FROM local f WHERE f.guest_id = l.guest_id AND f.location_id = l.location_id
                           AND f.day < l.day), 'YYYY-MM-DD') AS prev_day_here
         FROM local l JOIN guests g ON g.id = l.guest_id GROUP BY 1, 2, 3, l.guest_id, l.day ORDER BY 1, 2, 3`,
        [companyId],
      )
    ).rows,
  }));
}

describe('voiding checks', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  const sent: IngestCheck[] = [];
  let voidedFirst = 0;

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const checkCount = (companyId: number) =>
    db.owner(
      async (sql) =>
        (
          await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM pos_checks WHERE company_id = $1', [
            companyId,
          ])
        ).rows[0]!.n,
    );

  beforeAll(async () => {
    const locations = [await makeLocation(db, companyA, 'North'), await makeLocation(db, companyA, 'South')];
    // A guest added at a location by hand belongs to it with no visit; a void must not take that away.
    const walkIn = await makeGuest(db, companyA, { pos_id: 'V-3' });
    await db.owner((sql) =>
      sql.query('INSERT INTO guest_locations (company_id, guest_id, location_id) VALUES ($1, $2, $3)', [
        companyA,
        walkIn.id,
        locations[1]!.id,
      ]),
    );
    const random = seededRandom(11);
    for (let i = 0; i < 60; i++) {
      const opened = new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 300 * 24) * 3_600_000);
      sent.push({
        location_id: locations[i % 2]!.id,
        check_number: `C-${i}`,
        opened_at: opened,
        closed_at: new Date(opened.getTime() + 40 * 60_000),
        total: 500 + Math.floor(random() * 4000),
        guest: i % 7 === 6 ? undefined : { pos_id: POS_IDS[Math.floor(random() * POS_IDS.length)]! },
        lines: [
          { menu_item: ITEMS[i % ITEMS.length]!, category: 'Food', quantity: 1 + (i % 3), amount: 900 },
        ],
      });
    }
    await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), sent));
  });

  it('keeps every figure as the checks say as they arrive, a late check too, and the bulk fill agrees', async () => {
    // A check closed long before every other, arriving last: the earliest visit moves back, the latest stays.
    const late = { ...sent[0]!, check_number: 'C-late', guest: { pos_id: 'V-1' } };
    late.opened_at = new Date(Date.UTC(2024, 5, 1, 18));
    late.closed_at = new Date(Date.UTC(2024, 5, 1, 19));
    await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), [late]));
    sent.push(late);
    const raw = await figuresFromRawChecks(db, companyA);
    expect(
      raw.locations.some(
        (row) => (row.first_visit_at as Date | null)?.getTime() === late.closed_at.getTime(),
      ),
    ).toBe(true);
    expect(await keptFigures(db, companyA)).toEqual(raw);
    // The demo loader's and the bench's bulk fill, run over the kept rows: it replaces those with visits (a
    // walk-in's row without one stays).
    await db.owner((sql) => updateGuestTotals(sql, companyA));
    expect(await keptFigures(db, companyA)).toEqual(raw);
  });

  it('takes checks away and leaves every guest figure as the remaining checks say', async () => {
    const random = seededRandom(12);
    const chosen = sent.filter(() => random() < 0.4);
    const result = await db.tenant(companyA, (sql) => voidChecks(sql, systemScope(companyA), chosen));
    expect(result).toEqual({ voided: chosen.map((_, index) => index), notFound: [] });
    voidedFirst = chosen.length;
    expect(await checkCount(companyA)).toBe(sent.length - chosen.length);
    expect(await keptFigures(db, companyA)).toEqual(await figuresFromRawChecks(db, companyA));
  });

  it("deleting a location takes its checks out of its guests' figures", async () => {
    const extra = await makeLocation(db, companyA, 'Pop-up');
    // A year before the rest: the pop-up holds its guests' first days, which must move when it goes.
    const yearEarlier = (at: Date) => new Date(at.getTime() - 365 * 86_400_000);
    const popUp = sent.slice(0, 12).map((check) => ({
      ...check,
      location_id: extra.id,
      opened_at: yearEarlier(check.opened_at),
      closed_at: yearEarlier(check.closed_at),
    }));
    await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), popUp));
    const withPopUp = await keptFigures(db, companyA);
    await locationsService(db).remove(systemScope(companyA), extra.id);
    const after = await keptFigures(db, companyA);
    expect(after).not.toEqual(withPopUp);
    expect(after).toEqual(await figuresFromRawChecks(db, companyA));
  });

  it('voids the rest, reports checks already gone as not found, and zeroes guests left without a check', async () => {
    const rest = await db.tenant(companyA, (sql) => voidChecks(sql, systemScope(companyA), sent));
    expect(rest.notFound).toHaveLength(voidedFirst);
    expect(rest.voided).toHaveLength(sent.length - voidedFirst);
    expect(await checkCount(companyA)).toBe(0);
    const figures = await keptFigures(db, companyA);
    expect(figures).toEqual(await figuresFromRawChecks(db, companyA));
    expect(figures.guests.map((guest) => guest.visit_count)).toEqual([0, 0, 0]);
    expect(figures.locations.some((row) => row.pos_id === 'V-3')).toBe(true);
    const again = await db.tenant(companyA, (sql) =>
      voidChecks(sql, systemScope(companyA), sent.slice(0, 5)),
    );
    expect(again).toEqual({ voided: [], notFound: [0, 1, 2, 3, 4] });
  });

  it("cannot void another company's checks", async () => {
    const check = { ...sent[0]!, check_number: 'B-1' };
    const otherLocation = await makeLocation(db, companyB, 'Elsewhere');
    await db.tenant(companyB, (sql) =>
      ingestChecks(sql, systemScope(companyB), [{ ...check, location_id: otherLocation.id }]),
    );
    const attempt = await db.tenant(companyA, (sql) =>
      voidChecks(sql, systemScope(companyA), [{ ...check, location_id: otherLocation.id }]),
    );
    expect(attempt).toEqual({ voided: [], notFound: [0] });
    expect(await checkCount(companyB)).toBe(1);
  });
});
