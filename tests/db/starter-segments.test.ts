import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { upsertAccountSettings } from '../../server/repositories/account-settings.repository.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { STARTER_RULES, type StarterKey } from '../../server/segments/starter-segments.js';
import { registerCompany } from '../../server/services/registration.service.js';
import { segmentsService } from '../../server/services/segments.service.js';
import { giveOwedStarterSegments } from '../../server/services/starter-segments.service.js';
import type { Segment } from '../../src/schemas/segment-records.js';
import { seededRandom } from '../support/clv-simulation.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import {
  makeCompany,
  makeGuest,
  makeLocation,
  makeSubscriber,
  makeUser,
  systemScope,
} from '../support/factories.js';

const DAY_MS = 86_400_000;
const ENGLISH = [
  'New guests',
  'Regulars',
  'Lapsed regulars',
  'Big spenders',
  'Birthdays this month',
  'At risk',
  'Not yet subscribed',
];
const FRENCH = [
  'Nouveaux clients',
  'Habitués',
  'Habitués perdus',
  'Gros dépensiers',
  'Anniversaires du mois',
  'À risque',
  'Pas encore abonnés',
];
// Days ago kept clear of every rule's boundary (30, 60 and 90 days), so the hour of the run cannot move a visit
// across one.
const DAYS_AGO = [1, 3, 7, 12, 20, 26, 35, 44, 52, 66, 75, 84, 95, 120, 200, 300];

/** One guest as the test builds it: its visits (days ago, dollars), its subscriber and its prediction. */
interface GuestPlan {
  posId: string;
  visits: Array<{ daysAgo: number; dollars: number }>;
  subscriber: { birthdayMonth: number; subscribed: boolean } | null;
  probabilityAlive: number | null;
}

/** The month of a moment in the company's zone (1–12). */
function monthIn(timeZone: string, at: Date): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone, month: 'numeric' }).format(at));
}

/** Each starter's members worked out in plain JS from the plans, independently of the compiler. */
function expectedCounts(plans: GuestPlan[], thisMonth: number): Record<StarterKey, number> {
  const visited = plans.filter((plan) => plan.visits.length > 0);
  const spend = (plan: GuestPlan) => plan.visits.reduce((sum, visit) => sum + visit.dollars, 0);
  const spends = visited.map(spend).sort((a, b) => b - a);
  const threshold = spends[Math.ceil(spends.length / 10) - 1]!;
  const daysAgo = (plan: GuestPlan) => plan.visits.map((visit) => visit.daysAgo);
  return {
    new_guests: visited.filter((plan) => Math.max(...daysAgo(plan)) < 30).length,
    regulars: plans.filter((plan) => daysAgo(plan).filter((days) => days < 90).length >= 4).length,
    lapsed_regulars: visited.filter((plan) => plan.visits.length >= 4 && Math.min(...daysAgo(plan)) >= 60)
      .length,
    big_spenders: visited.filter((plan) => spend(plan) >= threshold).length,
    birthdays_this_month: plans.filter((plan) => plan.subscriber?.birthdayMonth === thisMonth).length,
    at_risk: plans.filter(
      (plan) => plan.probabilityAlive !== null && plan.probabilityAlive <= 0.3 && plan.visits.length >= 3,
    ).length,
    not_subscribed: plans.filter((plan) => plan.subscriber === null).length,
  };
}

describe('starter segments', () => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
  });
  afterAll(() => test.drop());

  const segmentsOf = async (companyId: number): Promise<Segment[]> =>
    (await segmentsService(db).list(companyId, { limit: 100, offset: 0 })).results;
  const byCreation = (segments: Segment[]) => [...segments].sort((a, b) => a.id - b.id);

  it('are given to a company at sign-up, in English, each with figures computed', async () => {
    const owner = await registerCompany(db, {
      company_name: 'Fresh Start Diner',
      first_name: 'Ada',
      last_name: 'Owner',
      email: 'ada@fresh-start.example',
      password: 'a long enough password 42',
      confirm_password: 'a long enough password 42',
      accept_terms: true,
    });
    const segments = byCreation(await segmentsOf(owner.company_id));
    expect(segments.map((segment) => segment.name)).toEqual(ENGLISH);
    expect(segments.map((segment) => segment.segment_groups.map((group) => group.segment_rules))).toEqual(
      STARTER_RULES.map((starter) => [starter.rules]),
    );
    for (const segment of segments) {
      // A real cache row, not the zeroed defaults (whose id is 10000 + the segment's).
      expect(segment.segmentcache.computed_at).not.toBeNull();
      expect(segment.segmentcache.id).not.toBe(10_000 + segment.id);
      expect(segment.segmentcache.all_customers).toBe(0);
    }
    // Nothing is owed to a company created after migration 0022.
    expect(await giveOwedStarterSegments(db)).toEqual([]);
  });

  it("are given once to a company from before them, in its owner's language, counting what plain JS counts", async () => {
    const company = await makeCompany(db, 'Old Bistro');
    await db.owner((sql) =>
      sql.query('UPDATE companies SET starter_segments_at = NULL WHERE id = $1', [company.id]),
    );
    const owner = await makeUser(db, company.id, { role: 'owner' });
    await db.tenant(company.id, (sql) =>
      upsertAccountSettings(sql, systemScope(company.id), owner.id, { language: 'fr' }),
    );
    const location = (await makeLocation(db, company.id, 'Rue Haute')).id;

    const random = seededRandom(22);
    const whole = (max: number) => Math.floor(random() * (max + 1));
    const now = Date.now();
    const thisMonth = monthIn('America/New_York', new Date(now));
    const plans: GuestPlan[] = Array.from({ length: 21 }, (_, n) => ({
      posId: `OLD-${n}`,
      // Up to 7 visits of at most $100: every spend below the designed top spenders'.
      visits: Array.from({ length: 1 + whole(6) }, () => ({
        daysAgo: DAYS_AGO[whole(DAYS_AGO.length - 1)]!,
        dollars: 5 + whole(95),
      })),
      subscriber:
        random() < 0.3
          ? null
          : { birthdayMonth: random() < 0.4 ? thisMonth : 1 + whole(11), subscribed: random() < 0.5 },
      probabilityAlive: random() < 0.2 ? null : Math.round(random() * 100) / 100,
    }));
    // Two lapsed regulars: five visits, the last 66 days ago.
    for (let n = 0; n < 2; n++) {
      plans.push({
        posId: `LAPSED-${n}`,
        visits: [66, 75, 84, 95, 120].map((daysAgo) => ({ daysAgo, dollars: 20 })),
        subscriber: null,
        probabilityAlive: null,
      });
    }
    // Five top spenders, four of them tied at $800: with 28 guests who visited, k = 3, and all four ties are in.
    for (const [n, dollars] of [1000, 800, 800, 800, 800].entries()) {
      plans.push({
        posId: `TOP-${n}`,
        visits: [{ daysAgo: DAYS_AGO[n]!, dollars }],
        subscriber: null,
        probabilityAlive: 0.1,
      });
    }
    const checks: IngestCheck[] = plans.flatMap((plan) =>
      plan.visits.map((visit, index) => {
        const closed = new Date(now - visit.daysAgo * DAY_MS);
        return {
          location_id: location,
          check_number: `${plan.posId}-${index}`,
          opened_at: new Date(closed.getTime() - 45 * 60_000),
          closed_at: closed,
          total: visit.dollars * 100,
          guest: { pos_id: plan.posId },
          lines: [],
        };
      }),
    );
    await db.tenant(company.id, (sql) => ingestChecks(sql, systemScope(company.id), checks));
    // Guests without a visit: counted by "not yet subscribed" only.
    for (let n = 0; n < 4; n++) {
      const guest = await makeGuest(db, company.id, { pos_id: `NONE-${n}` });
      plans.push({ posId: guest.pos_id, visits: [], subscriber: null, probabilityAlive: null });
    }
    const ids = await db.tenant(company.id, async (sql) => {
      const { rows } = await sql.query<{ id: number; pos_id: string }>(
        'SELECT id::int, pos_id FROM guests WHERE company_id = $1',
        [company.id],
      );
      return new Map(rows.map((row) => [row.pos_id, row.id]));
    });
    await db.tenant(company.id, async (sql) => {
      for (const plan of plans) {
        if (plan.probabilityAlive === null) continue;
        await sql.query(
          `INSERT INTO guest_predictions (company_id, guest_id, probability_alive, expected_visits_next_year,
             expected_spend_per_visit_cents, annual_clv_cents, clv_cents) VALUES ($1, $2, $3, 1, 1000, 1000, 5000)`,
          [company.id, ids.get(plan.posId), plan.probabilityAlive],
        );
      }
    });
    for (const plan of plans) {
      if (!plan.subscriber) continue;
      await makeSubscriber(db, company.id, {
        guest_id: ids.get(plan.posId)!,
        subscribed: plan.subscriber.subscribed,
        birthday: `1990-${String(plan.subscriber.birthdayMonth).padStart(2, '0')}-15`,
      });
    }

    expect(await giveOwedStarterSegments(db)).toEqual([company.id]);
    const segments = byCreation(await segmentsOf(company.id));
    expect(segments.map((segment) => segment.name)).toEqual(FRENCH);
    const expected = expectedCounts(plans, thisMonth);
    const counted = Object.fromEntries(
      STARTER_RULES.map((starter, index) => [starter.key, segments[index]!.segmentcache.all_customers]),
    );
    expect(counted).toEqual(expected);
    // The data reaches every rule, and the ties at the top 10 % are all in.
    for (const key of Object.keys(expected) as StarterKey[]) expect(expected[key], key).toBeGreaterThan(0);
    expect(expected.big_spenders).toBe(5);

    // Never again: not on the next start, nor after the company deleted one of them.
    expect(await giveOwedStarterSegments(db)).toEqual([]);
    await segmentsService(db).remove(systemScope(company.id), segments[0]!.id);
    expect(await giveOwedStarterSegments(db)).toEqual([]);
    expect((await segmentsOf(company.id)).map((segment) => segment.name).sort()).toEqual(
      FRENCH.slice(1).sort(),
    );
  });
});
