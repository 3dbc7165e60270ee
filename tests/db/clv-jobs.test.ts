import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitCompany } from '../../server/clv/company-fit.js';
import type { Database } from '../../server/db/database.js';
import { clvRunner, DEFAULT_CLV_RUNNER_SETTINGS, runNextClvJob } from '../../server/jobs/clv-runner.js';
import {
  claimClvJob,
  finishClvJob,
  findClvJobState,
  holdsClvJobClaim,
} from '../../server/repositories/clv-jobs.repository.js';
import { findClvFit } from '../../server/repositories/clv.repository.js';
import { getSegmentCache } from '../../server/repositories/segment-cache.repository.js';
import { keepAudiences } from '../../server/repositories/kept-audiences.repository.js';
import { companyToday } from '../../server/repositories/company-clock.repository.js';
import { basketService } from '../../server/services/basket.service.js';
import { homeDashboardService } from '../../server/services/home-dashboard.service.js';
import { BasketQuerySchema } from '../../src/schemas/basket-analytics.js';
import { rangeOfPreset } from '../../src/schemas/date-range.js';
import { createSegment } from '../../server/repositories/segments.repository.js';
import {
  afterChecksStored,
  afterImportFinished,
  newChecksNeeded,
  requestClvRefresh,
  requestDueClvRefreshes,
} from '../../server/services/clv-jobs.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { createLocationGroup } from '../../server/repositories/location-groups.repository.js';
import { ingestChecks } from '../../server/repositories/pos-ingestion.repository.js';
import { countSegment } from '../../server/repositories/segment-rules.repository.js';
import { storeVisits } from '../support/clv-checks.js';

const LEASE_MS = 60_000;
// Fits run in this process here: these tests are about the queue (the thread has tests of its own).
const SETTINGS = {
  ...DEFAULT_CLV_RUNNER_SETTINGS,
  leaseMs: LEASE_MS,
  fit: (input: Parameters<typeof fitCompany>[0]) => Promise.resolve(fitCompany(input)),
};
const errors: object[] = [];
const log = { error: (details: object) => void errors.push(details) };

describe('the CLV refresh job', () => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
  });
  afterAll(() => test.drop());

  async function companyWithVisits(guests = 40): Promise<number> {
    const company = (await makeCompany(db, 'CLV')).id;
    await storeVisits(db, company, guests);
    return company;
  }

  function jobRow(companyId: number) {
    return db.owner(async (sql) => {
      const { rows } = await sql.query<{ reason: string | null; requested_at: Date | null; claim: number }>(
        'SELECT reason, requested_at, claim::int AS claim FROM clv_jobs WHERE company_id = $1',
        [companyId],
      );
      return rows;
    });
  }

  function predictionCount(companyId: number): Promise<number> {
    return db.owner(async (sql) => {
      const { rows } = await sql.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM guest_predictions WHERE company_id = $1',
        [companyId],
      );
      return rows[0]!.n;
    });
  }

  /** Sets a column of the company's queue row as a test of time passing would (a lease lapsing, a fit aging). */
  function backdate(table: 'clv_jobs' | 'clv_fits', column: string, companyId: number, at: string) {
    return db.owner((sql) =>
      sql.query(`UPDATE ${table} SET ${column} = $2::timestamptz WHERE company_id = $1`, [companyId, at]),
    );
  }

  it('runs a requested refresh once: claimed, fitted, every guest’s figures written, the job ended', async () => {
    const company = await companyWithVisits();
    await requestClvRefresh(db, company, 'settings');
    expect(await db.tenant(company, (sql) => findClvJobState(sql, company))).toEqual({
      pending: true,
      running: false,
    });

    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);

    const fit = await db.tenant(company, (sql) => findClvFit(sql, company));
    expect(fit?.method).toBe('historical');
    expect(fit?.guests).toBe(40);
    expect(await predictionCount(company)).toBe(40);
    expect(await db.tenant(company, (sql) => findClvJobState(sql, company))).toEqual({
      pending: false,
      running: false,
    });
    expect(await runNextClvJob(db, log, SETTINGS)).toBeNull();
    expect(errors).toEqual([]);
  });

  it('works the company’s segment figures out again after the refit, from the new predictions', async () => {
    const company = await companyWithVisits(30);
    const scope = systemScope(company);
    const rules = (segment_rules: object[]) => [{ segment_rules }];
    const returning = await db.tenant(company, (sql) =>
      createSegment(sql, scope, {
        name: 'Returning',
        segment_groups: rules([{ type: 'visit_count', operator: 'gte', value: 2 }]),
      }),
    );
    // A rule naming a list the company does not have: that segment cannot be counted and keeps no figures.
    const broken = await db.tenant(company, (sql) =>
      createSegment(sql, scope, {
        name: 'Broken',
        segment_groups: rules([{ type: 'in_list', operator: 'any', value: [999_999] }]),
      }),
    );
    await requestClvRefresh(db, company, 'settings');
    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);

    // The same figures by plain SQL over the checks and the predictions just written.
    const expected = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ n: number; clv: number }>(
        `WITH members AS (SELECT guest_id FROM pos_checks WHERE company_id = $1 GROUP BY 1 HAVING count(*) >= 2)
         SELECT count(*)::int AS n, round(avg(p.clv_cents))::int AS clv
         FROM members m JOIN guest_predictions p ON p.company_id = $1 AND p.guest_id = m.guest_id`,
        [company],
      );
      return rows[0]!;
    });
    const cache = await db.tenant(company, (sql) => getSegmentCache(sql, company, returning.id));
    expect(expected.n).toBeGreaterThan(0);
    expect(cache?.all_customers).toBe(expected.n);
    expect(Number(cache?.all_clv_cents)).toBe(expected.clv);
    expect(await db.tenant(company, (sql) => getSegmentCache(sql, company, broken.id))).toBeNull();
    expect(errors).toEqual([]);
  });

  it('counts the kept audiences again after the refit, those the home dashboard opens on kept for the day', async () => {
    const company = await companyWithVisits(30);
    const other = await companyWithVisits(5);
    // The last days: soup for the first guests at the company's location (the range's best seller), and a birthday
    // this month, so the opening recommendations include ones read from the range.
    const now = new Date();
    const { today } = await db.tenant(company, (sql) => companyToday(sql, company, now));
    const [place] = await db.tenant(company, async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        'SELECT id::int AS id FROM locations WHERE company_id = $1',
        [company],
      );
      return rows.map((row) => row.id);
    });
    const recent = Array.from({ length: 12 }, (_, n) => {
      const closed = new Date(now.getTime() - (2 + n) * 86_400_000);
      return {
        location_id: place!,
        check_number: `soup-${n}`,
        opened_at: new Date(closed.getTime() - 3_600_000),
        closed_at: closed,
        total: 900,
        guest: { pos_id: `C-42-${n % 4}` },
        lines: [{ menu_item: 'Soup', category: 'Food', quantity: 2, amount: 900 }],
      };
    });
    await db.tenant(company, (sql) => ingestChecks(sql, systemScope(company), recent));
    const guest = await db.tenant(company, async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        `SELECT id::int AS id FROM guests WHERE company_id = $1 AND pos_id = 'C-42-9'`,
        [company],
      );
      return rows[0]!.id;
    });
    await makeSubscriber(db, company, { guest_id: guest, birthday: `1990-${today.slice(5, 7)}-01` });
    // A group of the company's first location and a second, beside a third: its audiences are kept under keys of
    // their own, and the refresh counts them ahead as well.
    const second = await makeLocation(db, company, 'Second');
    await makeLocation(db, company, 'Third');
    const group = await db.tenant(company, (sql) =>
      createLocationGroup(sql, systemScope(company), {
        name: 'Soup',
        description: '',
        location_ids: [place!, second.id],
      }),
    );
    const stale = 'f'.repeat(64);
    for (const id of [company, other]) {
      const day = (await db.tenant(id, (sql) => companyToday(sql, id, now))).today;
      await db.tenant(id, (sql) => keepAudiences(sql, id, day, now, new Map([[stale, 7]])));
    }
    await requestClvRefresh(db, company, 'settings');
    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);
    const kept = async (id: number) =>
      db.owner(async (sql) => {
        const { rows } = await sql.query<{ audience_key: string; counted_at: Date; audience: number }>(
          'SELECT audience_key, counted_at, audience FROM kept_audiences WHERE company_id = $1 ORDER BY 1',
          [id],
        );
        return rows;
      });
    // The stale count is gone; the dashboard's opening audiences were counted by the refresh.
    const after = await kept(company);
    expect(after.map((row) => row.audience_key)).not.toContain(stale);
    expect(after.length).toBeGreaterThan(0);
    // The opening call reads every audience it shows from them: nothing is counted or kept again.
    const opening = rangeOfPreset('last30', today);
    const answer = await homeDashboardService(db).recommendations(company, {
      from_date: opening.from,
      to_date: opening.to,
      location_id: [],
      location_group_id: [],
    });
    expect(await kept(company)).toEqual(after);
    // The basket's opening count keeps nothing either: its first item, soup, ordered by the four guests C-42-0 … 3.
    const basket = basketService(db);
    const basketQuery = BasketQuerySchema.parse({ from_date: opening.from, to_date: opening.to });
    const soup = (await basket.figures(company, basketQuery)).items[0]!;
    expect(soup.name).toBe('Soup');
    const soupGuests = await basket.itemGuests(company, { ...basketQuery, menu_item_id: soup.menu_item_id });
    expect(soupGuests.guests).toBe(4);
    expect(await kept(company)).toEqual(after);
    // Every location's is a sum over the item presence rows, as current as the checks: no counted time.
    expect(soupGuests.counted_at).toBeNull();
    // The group's opening recommendations were counted ahead too, and each location's.
    const groupQuery = { ...basketQuery, location_group_id: [group.id] };
    const groupAnswer = await homeDashboardService(db).recommendations(company, groupQuery);
    expect(groupAnswer.recommendations.length).toBeGreaterThan(0);
    expect(await kept(company)).toEqual(after);
    for (const id of [place!, second.id]) {
      await homeDashboardService(db).recommendations(company, { ...basketQuery, location_id: [id] });
    }
    expect(await kept(company)).toEqual(after);
    expect(answer.recommendations.map((item) => item.kind).sort()).toEqual(
      ['birthdays', 'lapsed_regulars', 'untried_item'].sort(),
    );
    // Each is the size of its segment, as the segment engine counts it now.
    for (const item of answer.recommendations) {
      const engine = await db.tenant(company, (sql) =>
        countSegment(
          sql,
          company,
          { segment_groups: item.segment.segment_groups as never },
          { locationIds: item.segment.location_ids },
        ),
      );
      expect({ kind: item.kind, audience: item.audience }).toEqual({ kind: item.kind, audience: engine.all });
    }
    // Another company's audiences stay until its own refresh.
    expect((await kept(other)).map((row) => row.audience_key)).toEqual([stale]);
    expect(errors).toEqual([]);
  });

  it('scores the company’s RFM again after the refit, each guest with checks carrying the new CLV', async () => {
    const company = await companyWithVisits(30);
    await requestClvRefresh(db, company, 'settings');
    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);
    const rows = await db.owner(async (sql) => {
      const { rows } = await sql.query<{
        with_checks: number;
        scored: number;
        same_clv: number;
        scorings: number;
      }>(
        `SELECT (SELECT count(*)::int FROM guests WHERE company_id = $1 AND visit_count > 0) AS with_checks,
                (SELECT count(*)::int FROM guest_rfm WHERE company_id = $1) AS scored,
                (SELECT count(*)::int FROM guest_rfm s JOIN guest_predictions p
                   ON p.company_id = s.company_id AND p.guest_id = s.guest_id
                 WHERE s.company_id = $1 AND s.clv_cents = p.clv_cents) AS same_clv,
                (SELECT guests FROM rfm_scorings WHERE company_id = $1) AS scorings`,
        [company],
      );
      return rows[0]!;
    });
    expect(rows.with_checks).toBeGreaterThan(0);
    expect(rows).toEqual({
      with_checks: rows.with_checks,
      scored: rows.with_checks,
      same_clv: rows.with_checks,
      scorings: rows.with_checks,
    });
    expect(errors).toEqual([]);
  });

  it('keeps one pending refresh per company: asking again keeps its place and only moves its reason', async () => {
    const company = (await makeCompany(db, 'Twice')).id;
    await requestClvRefresh(db, company, 'nightly');
    const [first] = await jobRow(company);
    await requestClvRefresh(db, company, 'settings');
    const rows = await jobRow(company);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.reason).toBe('settings');
    expect(rows[0]!.requested_at).toEqual(first!.requested_at);

    const claimed = await db.platform((sql) => claimClvJob(sql, LEASE_MS));
    expect(claimed?.company_id).toBe(company);
    expect(await db.platform((sql) => claimClvJob(sql, LEASE_MS))).toBeNull();
    await db.tenant(company, (sql) => finishClvJob(sql, claimed!, null));
  });

  it('gives a refresh to one of two claimers at the same time', async () => {
    const company = (await makeCompany(db, 'Race')).id;
    await requestClvRefresh(db, company, 'import');
    const claims = await Promise.all([
      db.platform((sql) => claimClvJob(sql, LEASE_MS)),
      db.platform((sql) => claimClvJob(sql, LEASE_MS)),
    ]);
    expect(claims.flatMap((claim) => (claim ? [claim.company_id] : []))).toEqual([company]);
    expect(claims.filter((claim) => claim === null)).toHaveLength(1);
    await db.tenant(company, (sql) => finishClvJob(sql, claims.find(Boolean)!, null));
  });

  it('queues a request made during a run after it, and does not run one company twice at once', async () => {
    const company = (await makeCompany(db, 'Busy')).id;
    await requestClvRefresh(db, company, 'nightly');
    const running = (await db.platform((sql) => claimClvJob(sql, LEASE_MS)))!;
    await requestClvRefresh(db, company, 'settings');
    expect(await db.tenant(company, (sql) => findClvJobState(sql, company))).toEqual({
      pending: true,
      running: true,
    });
    expect(await db.platform((sql) => claimClvJob(sql, LEASE_MS))).toBeNull();
    await db.tenant(company, (sql) => finishClvJob(sql, running, null));
    const next = await db.platform((sql) => claimClvJob(sql, LEASE_MS));
    expect(next).toMatchObject({ company_id: company, reason: 'settings', claim: running.claim + 1 });
    await db.tenant(company, (sql) => finishClvJob(sql, next!, null));
  });

  it('takes a refresh over once its worker’s lease has passed, and the first worker may no longer write', async () => {
    const company = await companyWithVisits(30);
    await requestClvRefresh(db, company, 'nightly');
    const dead = (await db.platform((sql) => claimClvJob(sql, LEASE_MS)))!;
    // Its lease still runs: nobody else takes it.
    expect(await db.platform((sql) => claimClvJob(sql, LEASE_MS))).toBeNull();

    await backdate('clv_jobs', 'lease_until', company, '2000-01-01T00:00:00Z');
    expect(await db.tenant(company, (sql) => findClvJobState(sql, company))).toEqual({
      pending: true,
      running: false,
    });
    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);
    expect(await predictionCount(company)).toBe(30);
    expect(await db.tenant(company, (sql) => holdsClvJobClaim(sql, dead))).toBe(false);
    expect((await jobRow(company))[0]!.claim).toBe(dead.claim + 1);
  });

  it('gives a refresh back, pending and unwritten, when its runner stops in the middle of the fit', async () => {
    const company = await companyWithVisits(20);
    let fitStarted!: () => void;
    const started = new Promise<void>((resolve) => (fitStarted = resolve));
    const runner = clvRunner(db, log, {
      ...SETTINGS,
      pollMs: 10,
      // The scheduler stays out of this test: it would ask for other companies' first fits.
      scheduleEveryMs: Number.MAX_SAFE_INTEGER,
      fit: (_input, signal) =>
        new Promise((_resolve, reject) => {
          fitStarted();
          signal!.addEventListener('abort', () => reject(signal!.reason as Error));
        }),
    });
    // Only this company's refresh is waiting; the scheduler's first tick is pushed past the test.
    await requestClvRefresh(db, company, 'settings');
    runner.start();
    await started;
    expect(await db.tenant(company, (sql) => findClvJobState(sql, company))).toEqual({
      pending: false,
      running: true,
    });
    await runner.stop();
    expect(await db.tenant(company, (sql) => findClvJobState(sql, company))).toEqual({
      pending: true,
      running: false,
    });
    expect(await predictionCount(company)).toBe(0);
    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);
    expect(await predictionCount(company)).toBe(20);
  });

  it('asks for a refresh after 1,000 new checks by the API, or a tenth of those the last fit saw', async () => {
    expect(newChecksNeeded(0)).toBe(1000);
    expect(newChecksNeeded(50_000)).toBe(5000);
    const company = (await makeCompany(db, 'Connector')).id;
    expect(await afterChecksStored(db, company, 999)).toBe(false);
    expect(await db.tenant(company, (sql) => findClvJobState(sql, company))).toMatchObject({
      pending: false,
    });
    expect(await afterChecksStored(db, company, 1)).toBe(true);
    expect(await jobRow(company)).toMatchObject([{ reason: 'new-checks' }]);
    // Run it, so the next test's refresh is the only one waiting.
    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);
  });

  it('asks for a refresh after an import only when it stored enough checks since the last fit', async () => {
    const company = await companyWithVisits(20);
    await requestClvRefresh(db, company, 'nightly');
    expect(await runNextClvJob(db, log, SETTINGS)).toBe(company);
    // Nothing new since the fit (a guest import, say): no refresh.
    expect(await afterImportFinished(db, company)).toBe(false);
    // Over a thousand checks since: another.
    await storeVisits(db, company, 600, 7);
    expect(await afterImportFinished(db, company)).toBe(true);
    expect(await jobRow(company)).toMatchObject([{ reason: 'import' }]);
  });

  it('asks nightly, after 03:00 in each company’s time zone, only for companies whose fit is older or missing', async () => {
    // A database of its own: the companies of the other tests would be due too.
    const own = await openTestDatabase();
    try {
      const make = async (name: string, guests: number) => {
        const id = (await makeCompany(own.db, name)).id;
        if (guests > 0) await storeVisits(own.db, id, guests);
        return id;
      };
      const fitAt = async (companyId: number, at: string) => {
        await own.db.owner((sql) =>
          sql.query(
            `INSERT INTO clv_fits (company_id, method, calibration_end, guests, repeat_guests, horizon_years,
                                   discount_rate, fitted_at)
             VALUES ($1, 'historical', '2026-03-09', 1, 0, 3, 0.1, $2)`,
            [companyId, at],
          ),
        );
      };
      const fresh = await make('Fitted this morning', 5);
      const stale = await make('Fitted yesterday', 5);
      const never = await make('Never fitted', 5);
      const empty = await make('No checks', 0);
      const loading = await make('Demo still loading', 5);
      const tokyo = await make('Fitted yesterday, in Tokyo', 5);
      await own.db.owner(async (sql) => {
        await sql.query(
          `INSERT INTO demo_loads (company_id, scale, seed, until_date, checks_total) VALUES ($1, 'small', 1, '2026-03-10', 10)`,
          [loading],
        );
        await sql.query(`UPDATE companies SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [tokyo]);
      });
      // New York is UTC−4 on 2026-03-10: 03:00 there is 07:00 UTC. Tokyo is UTC+9: 03:00 there is 18:00 UTC the day before.
      await fitAt(fresh, '2026-03-10T07:30:00Z');
      await fitAt(stale, '2026-03-09T15:00:00Z');
      await fitAt(tokyo, '2026-03-09T15:00:00Z');

      // 02:00 in New York, 15:00 in Tokyo: only the company that never had a fit (and Tokyo's night is past).
      expect(await requestDueClvRefreshes(own.db, new Date('2026-03-10T06:00:00Z'))).toEqual(
        [never, tokyo].sort((a, b) => a - b),
      );
      // 08:00 in New York: yesterday's fit is due too; asking again finds the others already pending.
      expect(await requestDueClvRefreshes(own.db, new Date('2026-03-10T12:00:00Z'))).toEqual([stale]);
      const asked = await own.db.owner(async (sql) => {
        const { rows } = await sql.query<{ company_id: number; reason: string }>(
          'SELECT company_id::int AS company_id, reason FROM clv_jobs WHERE requested_at IS NOT NULL ORDER BY company_id',
        );
        return rows;
      });
      expect(asked).toEqual(
        [
          { company_id: stale, reason: 'nightly' },
          { company_id: never, reason: 'first-fit' },
          { company_id: tokyo, reason: 'nightly' },
        ].sort((a, b) => a.company_id - b.company_id),
      );
      expect(asked.map((row) => row.company_id)).not.toContain(fresh);
      expect(asked.map((row) => row.company_id)).not.toContain(empty);
      expect(asked.map((row) => row.company_id)).not.toContain(loading);
    } finally {
      await own.drop();
    }
  });
});
