import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { createLocationGroup } from '../../server/repositories/location-groups.repository.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { analyticsSummaryService } from '../../server/services/analytics-summary.service.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

// The Summary/Overview figures from the rollups against the same figures counted here in plain JS from the
// checks generated: local days by Intl in the company's zone, guests by POS id, periods by walking the calendar.

const ZONE = 'America/Los_Angeles';
const localDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(at);

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The first day of the day's period, Monday-started weeks counted back one day at a time. */
function periodStart(day: string, interval: string): string {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  let start = day;
  while (new Date(`${start}T00:00:00Z`).getUTCDay() !== 1) {
    const date = new Date(`${start}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() - 1);
    start = date.toISOString().slice(0, 10);
  }
  return start;
}

/** Everything the call answers, by hand. */
function expected(
  checks: IngestCheck[],
  names: Map<number, string>,
  locations: number[] | null,
  from: string,
  to: string,
  previous: { from: string; to: string } | null,
  interval: string,
) {
  const firstDay = new Map<string, string>();
  for (const check of checks) {
    const id = check.guest?.pos_id;
    if (!id) continue;
    const day = localDay(check.closed_at);
    if (!firstDay.has(id) || day < firstDay.get(id)!) firstDay.set(id, day);
  }
  const pick = (at: number[] | null, a: string, b: string) =>
    checks.filter((check) => {
      const day = localDay(check.closed_at);
      return (at === null || at.includes(check.location_id)) && day >= a && day <= b;
    });
  const totals = (a: string, b: string) => {
    const chosen = pick(locations, a, b);
    const cents = chosen.reduce((sum, check) => sum + check.total, 0);
    const guests = new Set(chosen.flatMap((check) => (check.guest?.pos_id ? [check.guest.pos_id] : [])));
    const fresh = [...guests].filter((id) => firstDay.get(id)! >= a && firstDay.get(id)! <= b).length;
    return {
      revenue: cents / 100,
      checks: chosen.length,
      guests: guests.size,
      average_check: chosen.length === 0 ? null : Math.round(cents / chosen.length) / 100,
      new_guests: fresh,
      returning_guests: guests.size - fresh,
    };
  };
  const periods: string[] = [];
  for (let day = from; day <= to; day = nextDay(day)) {
    const start = periodStart(day, interval);
    if (!periods.includes(start)) periods.push(start);
  }
  const inPeriod = (check: IngestCheck, period: string) =>
    periodStart(localDay(check.closed_at), interval) === period;
  const current = pick(locations, from, to);
  const ids = [...names.keys()].filter((id) => locations === null || locations.includes(id));
  return {
    range: { from, to },
    previous,
    interval,
    totals: totals(from, to),
    previous_totals: previous ? totals(previous.from, previous.to) : null,
    series: periods.map((period) => {
      const these = current.filter((check) => inPeriod(check, period));
      return {
        period,
        revenue: these.reduce((sum, check) => sum + check.total, 0) / 100,
        checks: these.length,
      };
    }),
    locations: ids
      .sort((a, b) => names.get(a)!.toLowerCase().localeCompare(names.get(b)!.toLowerCase()))
      .map((id) => {
        const here = current.filter((check) => check.location_id === id);
        const cents = here.reduce((sum, check) => sum + check.total, 0);
        const before = previous
          ? pick([id], previous.from, previous.to).reduce((sum, check) => sum + check.total, 0)
          : null;
        return {
          location_id: id,
          name: names.get(id),
          revenue: cents / 100,
          checks: here.length,
          guests: new Set(here.flatMap((check) => (check.guest?.pos_id ? [check.guest.pos_id] : []))).size,
          average_check: here.length === 0 ? null : Math.round(cents / here.length) / 100,
          previous_revenue: before === null ? null : before / 100,
          revenue_change:
            before === null || before === 0 ? null : Math.round(((cents - before) / before) * 10_000) / 100,
          trend: periods.map(
            (period) =>
              here.filter((check) => inPeriod(check, period)).reduce((sum, check) => sum + check.total, 0) /
              100,
          ),
        };
      }),
  };
}

describe('Summary and Overview figures (GET /api/analytics/summary/)', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  const names = new Map<number, string>();
  let group: number;
  let ids: number[] = [];
  const checks: IngestCheck[] = [];
  const random = seededRandom(29);

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  beforeAll(async () => {
    await db.owner((sql) => sql.query(`UPDATE companies SET time_zone = $2 WHERE id = $1`, [companyA, ZONE]));
    for (const name of ['Harbour', 'old Town', 'Midtown']) {
      const id = (await makeLocation(db, companyA, name)).id;
      names.set(id, name);
    }
    ids = [...names.keys()];
    group = (
      await db.tenant(companyA, (sql) =>
        createLocationGroup(sql, systemScope(companyA), {
          name: 'Two',
          description: '',
          location_ids: ids.slice(0, 2),
        }),
      )
    ).id;
    const other = (await makeLocation(db, companyB, 'Elsewhere')).id;
    // 400 checks over 8 months (Midtown only in the last three), any minute: local midnight and DST crossed.
    for (let n = 0; n < 400; n++) {
      const closed = new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 240 * 24 * 60) * 60_000);
      const location = ids[Math.floor(random() * (closed.getUTCMonth() >= 5 ? 3 : 2))]!;
      checks.push({
        location_id: location,
        check_number: `S-${n}`,
        opened_at: new Date(closed.getTime() - 30 * 60_000),
        closed_at: closed,
        total: 100 + Math.floor(random() * 9000),
        guest_count: 1 + Math.floor(random() * 3),
        ...(random() < 0.2 ? {} : { guest: { pos_id: `G-${Math.floor(random() * 60)}` } }),
        lines: [],
      });
    }
    await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
    await db.tenant(companyB, (sql) =>
      ingestChecks(sql, systemScope(companyB), [
        { ...checks[0]!, location_id: other, check_number: 'B-1', guest: { pos_id: 'G-1' } },
      ]),
    );
  });

  const query = (
    from: string,
    to: string,
    more: Partial<{ compare: 'previous'; location_id: number[]; location_group_id: number[] }> = {},
  ) => ({
    from_date: from,
    to_date: to,
    location_id: [],
    location_group_id: [],
    ...more,
  });

  it('equals the figures counted from the checks, by day, week and month, with and without a comparison', async () => {
    const service = analyticsSummaryService(db);
    for (const [from, to, interval] of [
      ['2025-03-01', '2025-03-20', 'day'],
      ['2025-03-03', '2025-05-31', 'week'],
      ['2025-01-15', '2025-08-20', 'month'],
    ] as const) {
      const answer = await service.summary(companyA, query(from, to, { compare: 'previous' }));
      const length = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
      const previousTo = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const previousFrom = new Date(Date.parse(`${from}T00:00:00Z`) - length * 86_400_000)
        .toISOString()
        .slice(0, 10);
      expect(answer, `${from}..${to}`).toEqual(
        expected(checks, names, null, from, to, { from: previousFrom, to: previousTo }, interval),
      );
      expect(answer.totals.returning_guests).toBeGreaterThan(0);
      const alone = await service.summary(companyA, query(from, to));
      expect(alone).toEqual(expected(checks, names, null, from, to, null, interval));
    }
  });

  it('covers the locations named, a group’s, and both together', async () => {
    const service = analyticsSummaryService(db);
    const [harbour, oldTown, midtown] = ids as [number, number, number];
    for (const [more, locations] of [
      [{ location_id: [midtown] }, [midtown]],
      [{ location_id: [harbour, midtown] }, [harbour, midtown]],
      [{ location_group_id: [group] }, [harbour, oldTown]],
      [{ location_group_id: [group], location_id: [oldTown, midtown] }, [oldTown]],
    ] as [{ location_id?: number[]; location_group_id?: number[] }, number[]][]) {
      const answer = await service.summary(
        companyA,
        query('2025-06-01', '2025-06-30', { ...more, compare: 'previous' }),
      );
      expect(answer).toEqual(
        expected(
          checks,
          names,
          [...locations],
          '2025-06-01',
          '2025-06-30',
          { from: '2025-05-02', to: '2025-05-31' },
          'day',
        ),
      );
    }
    // Midtown opened at the end of May: its earlier days have no revenue, so no percentage.
    const june = await service.summary(
      companyA,
      query('2025-05-20', '2025-05-30', { compare: 'previous', location_id: [midtown] }),
    );
    expect(june.locations[0]!.previous_revenue).toBe(0);
    expect(june.locations[0]!.revenue_change).toBeNull();
  });

  it('answers nothing but zeros in a range without checks, and refuses another company’s location', async () => {
    const service = analyticsSummaryService(db);
    const empty = await service.summary(companyA, query('2030-01-01', '2030-01-03'));
    expect(empty.totals).toEqual({
      revenue: 0,
      checks: 0,
      guests: 0,
      average_check: null,
      new_guests: 0,
      returning_guests: 0,
    });
    expect(empty.series).toHaveLength(3);
    const bLocations = await db.tenant(companyB, (sql) =>
      sql.query<{ id: number }>('SELECT id FROM locations'),
    );
    await expect(
      service.summary(
        companyA,
        query('2025-03-01', '2025-03-02', { location_id: [Number(bLocations.rows[0]!.id)] }),
      ),
    ).rejects.toMatchObject({ status: 404, message: 'Location not found' });
  });
});
