import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Sql } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { rebuildRollups, removeChecksFromRollups } from '../../server/repositories/pos-rollups.repository.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import { locationsService } from '../../server/services/locations.service.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

// The profile rows of migration 0053 (each subscribed guest's days per location and over the company, with the
// earliest linked subscriber's birthday and zip) against the same rows worked out here in plain JS from the checks,
// subscribers and locations, after every kind of change: checks sent, subscribers linked, edited, unlinked and
// deleted, a location's zip changed, checks taken away, a guest erased, a location deleted, the bulk rebuild.

/** A profile row as compared: days as sorted `YYYY-MM-DD` lists. */
interface ProfileRow {
  location_id: number;
  guest_id: number;
  birthday: string | null;
  zip: string;
  days: string[];
  zip_days: string[];
  near_days: string[];
}

// The stored rows with each multirange spelled out day by day.
const STORED = `
  SELECT location_id::int AS location_id, guest_id::int AS guest_id, to_char(birthday, 'YYYY-MM-DD') AS birthday, zip,
         ARRAY(SELECT to_char(d, 'YYYY-MM-DD') FROM unnest(days) r, generate_series(lower(r), upper(r) - 1, '1 day') d
               ORDER BY 1) AS days,
         ARRAY(SELECT to_char(d, 'YYYY-MM-DD') FROM unnest(zip_days) r,
                      generate_series(lower(r), upper(r) - 1, '1 day') d ORDER BY 1) AS zip_days,
         ARRAY(SELECT to_char(d, 'YYYY-MM-DD') FROM unnest(near_days) r,
                      generate_series(lower(r), upper(r) - 1, '1 day') d ORDER BY 1) AS near_days
  FROM pos_profile_days WHERE company_id = $1`;

/** The rows by their definition, from the raw checks, subscribers and locations. */
async function expectedRows(sql: Sql, companyId: number): Promise<string[]> {
  const checks = (
    await sql.query<{ guest_id: number; location_id: number; day: string }>(
      `SELECT c.guest_id::int AS guest_id, c.location_id::int AS location_id,
              to_char(c.closed_at AT TIME ZONE co.time_zone, 'YYYY-MM-DD') AS day
       FROM pos_checks c JOIN companies co ON co.id = c.company_id
       WHERE c.company_id = $1 AND c.guest_id IS NOT NULL`,
      [companyId],
    )
  ).rows;
  const subscribers = (
    await sql.query<{ id: number; guest_id: number | null; birthday: string | null; zip: string }>(
      `SELECT id::int AS id, guest_id::int AS guest_id, to_char(birthday, 'YYYY-MM-DD') AS birthday, zip
       FROM subscribers WHERE company_id = $1`,
      [companyId],
    )
  ).rows;
  const zipOf = new Map(
    (
      await sql.query<{ id: number; zip: string }>(
        'SELECT id::int AS id, zip FROM locations WHERE company_id = $1',
        [companyId],
      )
    ).rows.map((row) => [row.id, row.zip]),
  );
  // The earliest linked subscriber of each guest.
  const profile = new Map<number, { birthday: string | null; zip: string; id: number }>();
  for (const subscriber of subscribers) {
    if (subscriber.guest_id === null) continue;
    const known = profile.get(subscriber.guest_id);
    if (!known || subscriber.id < known.id) profile.set(subscriber.guest_id, subscriber);
  }
  const rows = new Map<string, ProfileRow>();
  const add = (key: number, check: (typeof checks)[number]) => {
    const person = profile.get(check.guest_id)!;
    const id = `${key}/${check.guest_id}`;
    const row = rows.get(id) ?? {
      location_id: key,
      guest_id: check.guest_id,
      birthday: person.birthday,
      zip: person.zip,
      days: [],
      zip_days: [],
      near_days: [],
    };
    const place = zipOf.get(check.location_id)!;
    const once = (list: string[]) => {
      if (!list.includes(check.day)) list.push(check.day);
    };
    once(row.days);
    if (place !== '') once(row.zip_days);
    if (person.zip !== '' && place === person.zip) once(row.near_days);
    rows.set(id, row);
  };
  for (const check of checks) {
    if (!profile.has(check.guest_id)) continue;
    add(check.location_id, check);
    add(0, check);
  }
  return [...rows.values()]
    .map((row) =>
      JSON.stringify({
        ...row,
        days: row.days.sort(),
        zip_days: row.zip_days.sort(),
        near_days: row.near_days.sort(),
      }),
    )
    .sort();
}

describe('profile rows kept with the checks, subscribers and locations', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[] = [];
  const random = seededRandom(53);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** A check of one of 24 guests (or nobody) within 40 days of 2025-03-01, at one of the locations. */
  function makeCheck(number: number, at: readonly number[]): IngestCheck {
    const closed = new Date(Date.UTC(2025, 2, 1) + Math.floor(random() * 40 * 24 * 60) * 60_000);
    return {
      location_id: pick(at),
      check_number: `P-${number}`,
      opened_at: new Date(closed.getTime() - 30 * 60_000),
      closed_at: closed,
      total: 500 + Math.floor(random() * 5000),
      guest_count: 1,
      guest: random() < 0.1 ? undefined : { pos_id: `G-${Math.floor(random() * 24)}` },
      lines: [],
    };
  }

  const ingest = (companyId: number, checks: IngestCheck[]) =>
    db.tenant(companyId, (sql) => ingestChecks(sql, systemScope(companyId), checks));
  const stored = (sql: Sql, companyId: number) =>
    sql
      .query<ProfileRow>(STORED, [companyId])
      .then((result) => result.rows.map((row) => JSON.stringify(row)).sort());
  /** The stored rows equal the definition's; answers them. */
  const expectExact = async (companyId: number) => {
    const [kept, expected] = await db.tenant(companyId, async (sql) => [
      await stored(sql, companyId),
      await expectedRows(sql, companyId),
    ]);
    expect(kept).toEqual(expected);
    return kept;
  };
  const guestIds = (companyId: number) =>
    db.tenant(companyId, async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        'SELECT id::int AS id FROM guests WHERE company_id = $1 ORDER BY id',
        [companyId],
      );
      return rows.map((row) => row.id);
    });

  beforeAll(async () => {
    locations = [
      (await makeLocation(db, companyA, 'North')).id,
      (await makeLocation(db, companyA, 'South')).id,
      (await makeLocation(db, companyA, 'East')).id,
    ];
    // Two locations with a zip, one without.
    await db.owner(async (sql) => {
      await sql.query(`UPDATE locations SET zip = '10001' WHERE id = $1`, [locations[0]]);
      await sql.query(`UPDATE locations SET zip = '10002' WHERE id = $1`, [locations[1]]);
    });
  });

  it('follows checks sent before and after the subscribers, and every change to subscribers', async () => {
    await ingest(
      companyA,
      Array.from({ length: 120 }, (_, n) => makeCheck(n, locations)),
    );
    const guests = await guestIds(companyA);
    // Subscribers linked to every other guest after their checks: near home, elsewhere, no zip, no birthday.
    const zips = ['10001', '10002', '20000', ''];
    for (const [index, guest] of guests.filter((_, n) => n % 2 === 0).entries()) {
      await makeSubscriber(db, companyA, {
        guest_id: guest,
        zip: zips[index % 4]!,
        ...(index % 3 === 0 ? {} : { birthday: `19${70 + index}-0${1 + (index % 9)}-1${index % 9}` }),
      });
    }
    await expectExact(companyA);
    // More checks, some for guests known already.
    await ingest(
      companyA,
      Array.from({ length: 80 }, (_, n) => makeCheck(200 + n, locations)),
    );
    const afterChecks = await expectExact(companyA);
    const parsed = afterChecks.map((row) => JSON.parse(row) as ProfileRow);
    // Not trivial: company and location rows, days near home, at a zip elsewhere, and at the location with none.
    expect(parsed.some((row) => row.location_id === 0)).toBe(true);
    expect(parsed.some((row) => row.near_days.length > 0)).toBe(true);
    expect(
      parsed.some((row) => row.zip !== '' && row.near_days.length === 0 && row.zip_days.length > 0),
    ).toBe(true);
    expect(parsed.some((row) => row.zip_days.length < row.days.length)).toBe(true);

    const subscribers = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ id: number; guest_id: number }>(
        'SELECT id::int AS id, guest_id::int AS guest_id FROM subscribers WHERE company_id = $1 ORDER BY id',
        [companyA],
      );
      return rows;
    });
    const change = async (statement: string, params: unknown[]) => {
      await db.tenant(companyA, (sql) => sql.query(statement, params));
      await expectExact(companyA);
    };
    // A guest's zip and birthday edited.
    await change(`UPDATE subscribers SET zip = '10002', birthday = '1980-05-05' WHERE id = $1`, [
      subscribers[0]!.id,
    ]);
    // A second, later subscriber of one guest: the earliest still gives the profile; then the earliest deleted.
    const second = await makeSubscriber(db, companyA, {
      guest_id: subscribers[1]!.guest_id,
      zip: '10001',
      birthday: '2001-01-01',
    });
    await expectExact(companyA);
    await change('DELETE FROM subscribers WHERE id = $1', [subscribers[1]!.id]);
    expect(second.id).toBeGreaterThan(subscribers[1]!.id);
    // A subscriber moved to a guest without one, and another unlinked.
    const bare = guests.find((guest) => !subscribers.some((subscriber) => subscriber.guest_id === guest))!;
    await change('UPDATE subscribers SET guest_id = $2 WHERE id = $1', [subscribers[2]!.id, bare]);
    await change('UPDATE subscribers SET guest_id = NULL WHERE id = $1', [subscribers[3]!.id]);
    // An edit that changes none of guest, birthday or zip leaves the rows as they are.
    const unchanged = await expectExact(companyA);
    await change(`UPDATE subscribers SET first_name = 'Renamed' WHERE company_id = $1`, [companyA]);
    expect(await expectExact(companyA)).toEqual(unchanged);
  });

  it('follows a location’s zip, checks taken away, a guest erased, a location deleted and the bulk rebuild', async () => {
    await db.tenant(companyA, (sql) =>
      sql.query(`UPDATE locations SET zip = '20000' WHERE id = $1`, [locations[2]]),
    );
    await expectExact(companyA);
    await db.tenant(companyA, (sql) =>
      sql.query(`UPDATE locations SET zip = '' WHERE id = $1`, [locations[0]]),
    );
    await expectExact(companyA);
    const removed = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        'SELECT id::int AS id FROM pos_checks WHERE company_id = $1 ORDER BY id',
        [companyA],
      );
      return rows.map((row) => row.id).filter(() => random() < 0.25);
    });
    await db.tenant(companyA, async (sql) => {
      await removeChecksFromRollups(sql, companyA, removed);
      await sql.query('DELETE FROM pos_checks WHERE company_id = $1 AND id = ANY($2::bigint[])', [
        companyA,
        removed,
      ]);
    });
    await expectExact(companyA);
    const subscribed = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ guest_id: number }>(
        'SELECT min(guest_id)::int AS guest_id FROM pos_profile_days WHERE company_id = $1',
        [companyA],
      );
      return rows[0]!.guest_id;
    });
    await db.tenant(companyA, (sql) => eraseGuest(sql, systemScope(companyA), subscribed));
    const afterErasure = await expectExact(companyA);
    expect(afterErasure.some((row) => row.includes(`"guest_id":${subscribed},`))).toBe(false);
    await locationsService(db).remove(systemScope(companyA), locations[1]!);
    const incremental = await expectExact(companyA);
    expect(incremental.some((row) => row.includes(`"location_id":${locations[1]},`))).toBe(false);
    expect(incremental.length).toBeGreaterThan(0);
    await db.tenant(companyA, (sql) => rebuildRollups(sql, companyA));
    expect(await expectExact(companyA)).toEqual(incremental);
    // The other company has none of them, and its own guests' rows follow its own subscribers.
    const placeB = (await makeLocation(db, companyB, 'Elsewhere')).id;
    await ingest(companyB, [makeCheck(5_000, [placeB]), makeCheck(5_001, [placeB])]);
    for (const guest of await guestIds(companyB)) await makeSubscriber(db, companyB, { guest_id: guest });
    expect((await expectExact(companyB)).length).toBeGreaterThan(0);
    const seenByA = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pos_profile_days WHERE company_id = $1',
        [companyB],
      );
      return rows[0]!.n;
    });
    expect(seenByA).toBe(0);
  });

  it('waits for a subscriber’s change to a guest before a batch of that guest’s checks: the rows hold both', async () => {
    // On PostgreSQL the two transactions overlap: the link's refresh holds the guest until it commits, and the
    // batch's own refresh then reads the link. Without that, each missed the other's change (PGlite runs them in turn).
    const visit = (number: number, day: number): IngestCheck => ({
      location_id: locations[0]!,
      check_number: `race-${number}`,
      opened_at: new Date(Date.UTC(2025, 3, day, 17)),
      closed_at: new Date(Date.UTC(2025, 3, day, 18)),
      total: 1200,
      guest_count: 1,
      guest: { pos_id: 'race-guest' },
      lines: [],
    });
    await ingest(companyA, [visit(1, 2)]);
    const guest = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        `SELECT id::int AS id FROM guests WHERE company_id = $1 AND pos_id = 'race-guest'`,
        [companyA],
      );
      return rows[0]!.id;
    });
    const subscriber = await makeSubscriber(db, companyA, { zip: '20000', birthday: '1990-04-04' });
    let linked!: () => void;
    const linkedYet = new Promise<void>((resolve) => (linked = resolve));
    const linking = db.tenant(companyA, async (sql) => {
      await sql.query('UPDATE subscribers SET guest_id = $2 WHERE id = $1', [subscriber.id, guest]);
      linked();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await linkedYet;
    await Promise.all([linking, ingest(companyA, [visit(2, 9)])]);
    const rows = (await expectExact(companyA)).map((row) => JSON.parse(row) as ProfileRow);
    expect(rows.find((row) => row.guest_id === guest && row.location_id === 0)?.days).toEqual([
      '2025-04-02',
      '2025-04-09',
    ]);
  });
});
