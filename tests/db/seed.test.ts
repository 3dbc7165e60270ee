import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../server/auth/passwords.js';
import type { Database } from '../../server/db/database.js';
import { csvField } from '../../server/seed/csv.js';
import { seededHashid } from '../../server/seed/hashid.js';
import { loadDemoData, type DemoSummary } from '../../server/seed/load.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

const UNTIL = new Date('2025-06-01T00:00:00Z');
const SEED = 42;

/** Haversine distance in metres. */
function metresBetween(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

/** One number from a query that returns a single `n` column. */
async function scalar(db: Database, text: string, params: unknown[] = []): Promise<number> {
  return db.platform(async (sql) => {
    const { rows } = await sql.query<{ n: number }>(text, params);
    return Number(rows[0]!.n);
  });
}

/**
 * md5 of the ordered content of the generated tables, keyed by slugs, names and POS ids rather than
 * database ids so two databases can be compared.
 */
async function fingerprints(db: Database): Promise<Record<string, string>> {
  const queries: Record<string, string> = {
    guests: `SELECT md5(string_agg(concat_ws('|', c.slug, g.pos_id, g.hashid, g.customer_name, g.last_four_digits,
                       g.visit_count, g.total_spend_cents, extract(epoch FROM g.first_visit_at)), ','
                       ORDER BY c.slug, g.pos_id))
             FROM guests g JOIN companies c ON c.id = g.company_id`,
    pos_checks: `SELECT md5(string_agg(concat_ws('|', c.slug, l.name, k.check_number, k.total_cents, k.tip_cents,
                           extract(epoch FROM k.closed_at), g.pos_id, r.name), ','
                           ORDER BY c.slug, l.name, k.check_number))
                 FROM pos_checks k JOIN companies c ON c.id = k.company_id JOIN locations l ON l.id = k.location_id
                 JOIN revenue_centers r ON r.id = k.revenue_center_id LEFT JOIN guests g ON g.id = k.guest_id`,
    pos_check_lines: `SELECT md5(string_agg(concat_ws('|', l.name, k.check_number, m.name, x.quantity, x.amount_cents), ','
                               ORDER BY l.name, k.check_number, m.name))
                      FROM pos_check_lines x JOIN pos_checks k ON k.id = x.check_id
                      JOIN locations l ON l.id = k.location_id JOIN menu_items m ON m.id = x.menu_item_id`,
    subscribers: `SELECT md5(string_agg(concat_ws('|', c.slug, s.hashid, s.email, s.first_name, s.last_name, s.phone,
                            s.zip, s.birthday, s.subscribed, s.pos_id, extract(epoch FROM s.consent_at)), ','
                            ORDER BY c.slug, s.hashid))
                  FROM subscribers s JOIN companies c ON c.id = s.company_id`,
    competitors: `SELECT md5(string_agg(concat_ws('|', l.name, x.name, x.latitude, x.longitude, x.rating), ','
                            ORDER BY l.name, x.name))
                  FROM competitors x JOIN locations l ON l.id = x.location_id`,
  };
  const result: Record<string, string> = {};
  for (const [table, text] of Object.entries(queries)) {
    result[table] = await db.platform(async (sql) => {
      const { rows } = await sql.query<{ md5: string }>(text);
      return rows[0]!.md5;
    });
  }
  return result;
}

describe('demo data pieces', () => {
  it('quotes CSV fields so names with commas and quotes survive, and keeps empty apart from NULL', () => {
    expect(csvField(null)).toBe('');
    expect(csvField('')).toBe('""');
    expect(csvField('Salt, Fat & Smoke')).toBe('"Salt, Fat & Smoke"');
    expect(csvField('the "best" pie')).toBe('"the ""best"" pie"');
    expect(csvField(true)).toBe('t');
    expect(csvField(1895)).toBe('1895');
  });

  it('gives distinct, stable, 10-character base62 hashids per key', () => {
    const ids = Array.from({ length: 50_000 }, (_, index) => seededHashid(12345, index));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[0-9A-Za-z]{10}$/.test(id))).toBe(true);
    expect(seededHashid(12345, 7)).toBe(ids[7]);
    expect(seededHashid(54321, 7)).not.toBe(ids[7]);
  });
});

describe('demo data set (tiny)', () => {
  let test: TestDatabase;
  let db: Database;
  let summary: DemoSummary;
  let harbor: number;
  let kettle: number;

  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
    summary = await loadDemoData(db, { scale: 'tiny', seed: SEED, until: UNTIL });
    harbor = summary.companies[0]!.id;
    kettle = summary.companies[1]!.id;
  });
  afterAll(() => test.drop());

  it('loads both companies with expected counts and owners whose demo password verifies', async () => {
    expect(
      summary.companies.map((company) => [company.name, company.ownerEmail, company.ownerPassword]),
    ).toEqual([
      ['Harbor & Vine Restaurant Group', 'owner@harborvine.example', 'regulars-demo'],
      ['Copper Kettle Diner', 'owner@copperkettle.example', 'regulars-demo'],
    ]);
    const { counts } = summary;
    expect(counts).toMatchObject({
      companies: 2,
      users: 2,
      account_settings: 2,
      locations: 8,
      location_groups: 2,
      location_group_members: 6,
      guests: 360,
      subscribers: 130,
      subscriber_lists: 2,
      competitors: 8 * 12,
      company_features: 2 * ALL_FEATURES.length,
    });
    expect(counts.menu_items).toBeGreaterThanOrEqual(80);
    expect(counts.pos_checks).toBeGreaterThan(2000);
    expect(counts.pos_checks).toBeLessThan(3200);
    expect(counts.pos_check_lines).toBeGreaterThan(counts.pos_checks! * 1.5);
    expect(counts.pos_check_lines).toBeLessThanOrEqual(counts.pos_checks! * 5);
    expect(counts.subscriber_list_members).toBe(20);

    const owners = await db.platform(async (sql) => {
      const { rows } = await sql.query<{
        company_id: number;
        email: string;
        password_hash: string;
        role: string;
      }>('SELECT company_id, email, password_hash, role FROM users WHERE NOT is_staff ORDER BY company_id');
      return rows;
    });
    expect(owners.map((owner) => [owner.company_id, owner.email, owner.role])).toEqual([
      [harbor, 'owner@harborvine.example', 'owner'],
      [kettle, 'owner@copperkettle.example', 'owner'],
    ]);
    for (const owner of owners) {
      expect(owner.password_hash.startsWith('$argon2id$')).toBe(true);
      expect(await verifyPassword(owner.password_hash, 'regulars-demo')).toBe(true);
      expect(await verifyPassword(owner.password_hash, 'regulars-dem0')).toBe(false);
    }
  });

  it('adds the support company with one staff member who signs in with the demo password', async () => {
    expect(summary.support).toMatchObject({
      name: 'Regulars Support',
      staffEmail: 'support@regulars.example',
      staffPassword: 'regulars-demo',
    });
    const staff = await db.platform(async (sql) => {
      const { rows } = await sql.query<{
        company_id: number;
        email: string;
        password_hash: string;
        role: string;
      }>('SELECT company_id, email, password_hash, role FROM users WHERE is_staff');
      return rows;
    });
    expect(staff.map((user) => [user.company_id, user.email, user.role])).toEqual([
      [summary.support.id, 'support@regulars.example', 'owner'],
    ]);
    expect(await verifyPassword(staff[0]!.password_hash, 'regulars-demo')).toBe(true);
  });

  it('refuses to load the demo a second time into the same database', async () => {
    await expect(loadDemoData(db, { scale: 'tiny', seed: SEED, until: UNTIL })).rejects.toThrow(
      /already loaded/,
    );
    // The two demo companies and the support company.
    expect(await scalar(db, 'SELECT count(*)::int AS n FROM companies')).toBe(3);
  });

  it(
    'gives the same rows for the same seed and different rows for another seed',
    { timeout: 120_000 },
    async () => {
      const mine = await fingerprints(db);
      const twin = await openTestDatabase();
      const other = await openTestDatabase();
      try {
        await loadDemoData(twin.db, { scale: 'tiny', seed: SEED, until: UNTIL });
        await loadDemoData(other.db, { scale: 'tiny', seed: SEED + 1, until: UNTIL });
        expect(await fingerprints(twin.db)).toEqual(mine);
        const different = await fingerprints(other.db);
        for (const table of ['guests', 'pos_checks', 'pos_check_lines', 'subscribers', 'competitors']) {
          expect(different[table], table).not.toBe(mine[table]);
        }
      } finally {
        await twin.drop();
        await other.drop();
      }
    },
  );

  it('has weekly and daily seasonality in local time and nothing at night', async () => {
    const byWeekday = await db.platform(async (sql) => {
      const { rows } = await sql.query<{ dow: number; n: number }>(
        `SELECT extract(dow FROM c.opened_at AT TIME ZONE l.time_zone)::int AS dow, count(*)::int AS n
         FROM pos_checks c JOIN locations l ON l.id = c.location_id
         WHERE c.company_id = $1 GROUP BY 1`,
        [harbor],
      );
      return new Map(rows.map((row) => [row.dow, row.n]));
    });
    const count = (dow: number) => byWeekday.get(dow) ?? 0;
    expect(count(5) + count(6)).toBeGreaterThan((count(1) + count(2)) * 1.3);

    const byHour = await db.platform(async (sql) => {
      const { rows } = await sql.query<{ hour: number; n: number }>(
        `SELECT extract(hour FROM c.opened_at AT TIME ZONE l.time_zone)::int AS hour, count(*)::int AS n
         FROM pos_checks c JOIN locations l ON l.id = c.location_id
         WHERE c.company_id = $1 GROUP BY 1`,
        [harbor],
      );
      return new Map(rows.map((row) => [row.hour, row.n]));
    });
    const hour = (h: number) => byHour.get(h) ?? 0;
    for (const closed of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 23]) expect(hour(closed), `${closed}:00`).toBe(0);
    expect(hour(12)).toBeGreaterThan(hour(15) * 2); // lunch peak
    expect(hour(18) + hour(19)).toBeGreaterThan((hour(15) + hour(16)) * 2); // dinner peak

    // The diner opens for breakfast and closes mid-afternoon, in its own (Mountain) time zone.
    const dinerHours = await db.platform(async (sql) => {
      const { rows } = await sql.query<{ first: number; last: number }>(
        `SELECT min(extract(hour FROM opened_at AT TIME ZONE 'America/Denver'))::int AS first,
                max(extract(hour FROM opened_at AT TIME ZONE 'America/Denver'))::int AS last
         FROM pos_checks WHERE company_id = $1`,
        [kettle],
      );
      return rows[0]!;
    });
    expect(dinerHours).toEqual({ first: 7, last: 14 });

    const window = await db.platform(async (sql) => {
      const { rows } = await sql.query<{ first: Date; last: Date }>(
        'SELECT min(closed_at) AS first, max(closed_at) AS last FROM pos_checks',
      );
      return rows[0]!;
    });
    expect(window.last.getTime()).toBeLessThan(UNTIL.getTime());
    expect(window.last.getTime() - window.first.getTime()).toBeGreaterThan(700 * 86_400_000);
  });

  it('mixes regulars with many one- and two-time guests, and some checks without a guest', async () => {
    const visits = await db.platform(async (sql) => {
      const { rows } = await sql.query<{ regulars: number; rare: number; total: number; most: number }>(
        `SELECT count(*) FILTER (WHERE visit_count >= 10)::int AS regulars,
                count(*) FILTER (WHERE visit_count <= 2)::int AS rare,
                count(*)::int AS total, max(visit_count) AS most
         FROM guests WHERE company_id = $1`,
        [harbor],
      );
      return rows[0]!;
    });
    expect(visits.regulars).toBeGreaterThanOrEqual(10);
    expect(visits.rare).toBeGreaterThan(visits.total / 2);
    expect(visits.most).toBeGreaterThanOrEqual(25);

    const withoutGuest = await scalar(
      db,
      'SELECT avg((guest_id IS NULL)::int)::float8 AS n FROM pos_checks WHERE company_id = $1',
      [harbor],
    );
    expect(withoutGuest).toBeGreaterThan(0.1);
    expect(withoutGuest).toBeLessThan(0.2);
  });

  it('adds up every check: lines sum to the subtotal, and total = subtotal - discount + tax + tip', async () => {
    const wrongLines = await scalar(
      db,
      `SELECT count(*)::int AS n FROM pos_checks c
       LEFT JOIN (SELECT check_id, sum(amount_cents) AS amount, count(*) AS lines FROM pos_check_lines GROUP BY check_id) x
         ON x.check_id = c.id
       WHERE x.amount IS DISTINCT FROM c.subtotal_cents OR x.lines NOT BETWEEN 1 AND 5`,
    );
    expect(wrongLines).toBe(0);
    expect(
      await scalar(
        db,
        `SELECT count(*)::int AS n FROM pos_checks
         WHERE total_cents <> subtotal_cents - discount_cents + tax_cents + tip_cents
            OR discount_cents > subtotal_cents OR closed_at < opened_at`,
      ),
    ).toBe(0);
    expect(
      await scalar(
        db,
        'SELECT count(*)::int AS n FROM pos_check_lines WHERE amount_cents <> quantity * unit_price_cents',
      ),
    ).toBe(0);
    // Tax is about 8% of what was charged before the tip.
    const taxRate = await scalar(
      db,
      'SELECT sum(tax_cents)::float8 / sum(subtotal_cents - discount_cents) AS n FROM pos_checks WHERE company_id = $1',
      [harbor],
    );
    expect(taxRate).toBeCloseTo(0.08, 3);
  });

  it('keeps each guest running totals equal to the aggregates of their checks', async () => {
    const mismatches = await scalar(
      db,
      `SELECT count(*)::int AS n FROM guests g
       LEFT JOIN (SELECT guest_id, count(*)::int AS visits, sum(total_cents) AS spend,
                         min(closed_at) AS first_at, max(closed_at) AS last_at
                  FROM pos_checks WHERE guest_id IS NOT NULL GROUP BY guest_id) a ON a.guest_id = g.id
       WHERE g.visit_count IS DISTINCT FROM a.visits OR g.total_spend_cents IS DISTINCT FROM a.spend
          OR g.first_visit_at IS DISTINCT FROM a.first_at OR g.last_visit_at IS DISTINCT FROM a.last_at`,
    );
    expect(mismatches).toBe(0);
    const firstLocationWrong = await scalar(
      db,
      `SELECT count(*)::int AS n FROM guests g
       WHERE g.first_location_id IS DISTINCT FROM (
         SELECT c.location_id FROM pos_checks c WHERE c.guest_id = g.id ORDER BY c.closed_at, c.id LIMIT 1)`,
    );
    expect(firstLocationWrong).toBe(0);
  });

  it('writes POS-style guests and believable, unique subscribers', async () => {
    const badGuests = await scalar(
      db,
      `SELECT count(*)::int AS n FROM guests
       WHERE pos_id !~ '^G[0-9]{6}$' OR hashid !~ '^[0-9A-Za-z]{10}$' OR last_four_digits !~ '^[0-9]{4}$'
          OR customer_name <> upper(customer_name) OR customer_name !~ '^[^ ]+ [^ ]+$'`,
    );
    expect(badGuests).toBe(0);

    const subscribers = await db.platform(async (sql) => {
      const { rows } = await sql.query<{
        total: number;
        distinct_emails: number;
        matched: number;
        subscribed: number;
        bad_phones: number;
        with_birthday: number;
      }>(
        `SELECT count(*)::int AS total,
                count(DISTINCT (company_id, lower(email)))::int AS distinct_emails,
                count(*) FILTER (WHERE guest_id IS NOT NULL)::int AS matched,
                count(*) FILTER (WHERE subscribed)::int AS subscribed,
                count(*) FILTER (WHERE phone <> '' AND phone !~ '^\\+1[0-9]{3}555[0-9]{4}$')::int AS bad_phones,
                count(*) FILTER (WHERE birthday IS NOT NULL)::int AS with_birthday
         FROM subscribers`,
      );
      return rows[0]!;
    });
    expect(subscribers.distinct_emails).toBe(subscribers.total);
    expect(subscribers.matched).toBeGreaterThan(subscribers.total * 0.4);
    expect(subscribers.matched).toBeLessThan(subscribers.total * 0.8);
    expect(subscribers.subscribed).toBeGreaterThan(subscribers.total * 0.8);
    expect(subscribers.bad_phones).toBe(0);
    expect(subscribers.with_birthday).toBeGreaterThan(0);

    // A subscriber who is also a guest carries the guest's POS id and name, in the same company.
    const wrongMatches = await scalar(
      db,
      `SELECT count(*)::int AS n FROM subscribers s JOIN guests g ON g.id = s.guest_id
       WHERE s.pos_id IS DISTINCT FROM g.pos_id OR upper(s.first_name || ' ' || s.last_name) <> g.customer_name
          OR s.company_id <> g.company_id OR s.consent_at IS NULL`,
    );
    expect(wrongMatches).toBe(0);
  });

  it('places a dozen competitors within about 2 km of every location', async () => {
    const rows = await db.platform(async (sql) => {
      const result = await sql.query<{
        location_id: number;
        lat: number;
        lon: number;
        x_lat: number;
        x_lon: number;
      }>(
        `SELECT l.id AS location_id, l.latitude AS lat, l.longitude AS lon, x.latitude AS x_lat, x.longitude AS x_lon
         FROM competitors x JOIN locations l ON l.id = x.location_id AND l.company_id = x.company_id`,
      );
      return result.rows;
    });
    expect(rows).toHaveLength(96);
    const perLocation = new Map<number, number>();
    for (const row of rows) {
      perLocation.set(row.location_id, (perLocation.get(row.location_id) ?? 0) + 1);
      const metres = metresBetween({ lat: row.lat, lon: row.lon }, { lat: row.x_lat, lon: row.x_lon });
      expect(metres).toBeLessThan(2100);
      expect(metres).toBeGreaterThan(100);
    }
    expect([...perLocation.values()]).toEqual(Array(8).fill(12));
  });

  it("never shows company 2's rows to company 1, and never links rows across companies", async () => {
    const seenByHarbor = await db.tenant(harbor, async (sql) => {
      const theirs = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM guests WHERE company_id = $1',
        [kettle],
      );
      const companies = await sql.query<{ company_id: number }>('SELECT DISTINCT company_id FROM guests');
      const checks = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM pos_checks');
      return {
        theirs: theirs.rows[0]!.n,
        companies: companies.rows.map((row) => row.company_id),
        checks: checks.rows[0]!.n,
      };
    });
    expect(seenByHarbor.theirs).toBe(0);
    expect(seenByHarbor.companies).toEqual([harbor]);
    expect(seenByHarbor.checks).toBe(
      await scalar(db, 'SELECT count(*)::int AS n FROM pos_checks WHERE company_id = $1', [harbor]),
    );
    expect(await scalar(db, 'SELECT count(*)::int AS n FROM guests WHERE company_id = $1', [kettle])).toBe(
      60,
    );

    const crossLinks = await scalar(
      db,
      `SELECT (SELECT count(*) FROM pos_checks c JOIN guests g ON g.id = c.guest_id WHERE g.company_id <> c.company_id)
            + (SELECT count(*) FROM pos_checks c JOIN locations l ON l.id = c.location_id WHERE l.company_id <> c.company_id)
            + (SELECT count(*) FROM pos_checks c JOIN revenue_centers r ON r.id = c.revenue_center_id
               WHERE r.company_id <> c.company_id OR r.location_id <> c.location_id)
            + (SELECT count(*) FROM pos_check_lines x JOIN pos_checks c ON c.id = x.check_id WHERE c.company_id <> x.company_id)
            + (SELECT count(*) FROM pos_check_lines x JOIN menu_items m ON m.id = x.menu_item_id WHERE m.company_id <> x.company_id)
            + (SELECT count(*) FROM subscriber_list_members m JOIN subscribers s ON s.id = m.subscriber_id
               WHERE s.company_id <> m.company_id) AS n`,
    );
    expect(crossLinks).toBe(0);
  });
});
