import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayPartOfHour, localHour } from '../support/day-parts.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * `day_part()` (migrations 0016 and 0056) against the day parts worked out in plain JS: every quarter hour of two
 * days in zones either side of UTC, one of them across a change of clocks.
 */
describe('day_part()', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => test.drop());

  it('gives each opening its local hour’s day part', async () => {
    const zones = ['America/Los_Angeles', 'Europe/Berlin', 'Asia/Kolkata', 'UTC'];
    // 9–10 March 2025: the clocks went forward in Los Angeles on the 9th.
    const instants = Array.from(
      { length: 2 * 24 * 4 },
      (_, n) => new Date(Date.UTC(2025, 2, 9) + n * 900_000),
    );
    const { rows } = await test.db.owner((sql) =>
      sql.query<{ at: Date; zone: string; part: string }>(
        `SELECT i.at, z.zone, day_part(i.at, z.zone) AS part
         FROM unnest($1::timestamptz[]) AS i(at) CROSS JOIN unnest($2::text[]) AS z(zone)`,
        [instants.map((at) => at.toISOString()), zones],
      ),
    );
    expect(rows).toHaveLength(instants.length * zones.length);
    const wrong = rows.filter((row) => row.part !== dayPartOfHour(localHour(new Date(row.at), row.zone)));
    expect(wrong).toEqual([]);
    // Not trivial: every day part came up.
    expect(new Set(rows.map((row) => row.part))).toEqual(new Set(['breakfast', 'lunch', 'dinner', 'late']));
  });
});
