import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { openPostgres } from '../../server/db/postgres.js';
import { testClock } from '../../server/flows/clock.js';
import { flowRunner, DEFAULT_FLOW_RUNNER_SETTINGS, type FlowRunner } from '../../server/jobs/flow-runner.js';
import { claimFlowEvents } from '../../server/repositories/flow-events.repository.js';
import { claimDueEnrolments } from '../../server/repositories/flow-enrolments.repository.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { seeded } from '../support/campaign-fixture.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import {
  makeFlowCompany,
  makeLinkedGuests,
  makeLiveFlow,
  welcomeWinBackGraph,
} from '../support/flow-fixture.js';

/**
 * The simulation (docs/flows.md, "Tests"): guests through "first visit → wait 2 days → welcome → wait 7
 * days → visited since? → no: win-back" over 30 simulated days on the test clock, one hour per tick, checks
 * stored through the real ingestion as their hour passes. The expected sends are worked out from the generated
 * visits alone. Half-way the engine "restarts": a worker dies holding claims on due enrolments and events, and a
 * new runner (on PostgreSQL a new connection pool, as a new process would have) finishes the month. 10,000 guests
 * on PostgreSQL; fewer on PGlite, whose single in-process connection makes each step slower.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Midnight in New York (EST) on 1 March 2026: the month crosses the spring-forward change of 8 March.
const START = Date.parse('2026-03-01T05:00:00Z');
const DAYS = 30;
const END = START + DAYS * DAY;
const silentLog = { error: () => undefined };

describe('flow simulation on the test clock', () => {
  let test: TestDatabase;
  let second: Database | null = null;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await second?.close();
    await test.drop();
  });

  it('sends exactly the expected welcome and win-back emails, across a restart half-way', async () => {
    const guests = test.db.kind === 'postgres' ? 10_000 : 400;
    const company = await makeFlowCompany(test.db, 'Simulated Grill');
    const { companyId, locationId } = company;
    const { flowId } = await makeLiveFlow(test.db, companyId, welcomeWinBackGraph(company.templateId));
    const { subscriberIds } = await makeLinkedGuests(test.db, companyId, guests, 'sim-');

    // Visits: a first visit on a random day of the month (some never come), then a few more in the weeks after,
    // each between 09:00 and 17:59 New York time (so no email step ever falls in quiet hours).
    const random = seeded(20_261_126);
    const visits: number[][] = [];
    for (let i = 0; i < guests; i += 1) {
      const times: number[] = [];
      if (random() < 0.9) {
        const first = Math.floor(random() * (DAYS + 5));
        const extra = Math.floor(random() * 4);
        const days = [first, ...Array.from({ length: extra }, () => first + 1 + Math.floor(random() * 14))];
        for (const day of days) {
          const minute = Math.floor(random() * 9 * 60);
          const edt = START + day * DAY >= Date.parse('2026-03-08T07:00:00Z') ? HOUR : 0;
          times.push(START + day * DAY + 9 * HOUR - edt + minute * 60_000 + Math.floor(random() * 59) * 1000);
        }
      }
      visits.push(times.sort((a, b) => a - b));
    }

    // Expected, from the visits alone.
    const expected = {
      entered: 0,
      welcome: new Set<number>(),
      visited: new Set<number>(),
      winback: new Set<number>(),
    };
    // N days are local calendar days (docs/flows.md, "Delays"): a wait across 8 March 02:00 EST, when New York's
    // clocks jump an hour ahead, ends an hour sooner by the clock (visits are 09:00–17:59, never near the gap).
    const springForward = Date.parse('2026-03-08T07:00:00Z');
    const daysLater = (time: number, days: number) =>
      time + days * DAY - (time < springForward && time + days * DAY >= springForward ? HOUR : 0);
    visits.forEach((times, i) => {
      const first = times[0];
      if (first === undefined || first > END) return;
      expected.entered += 1;
      if (daysLater(first, 2) <= END) expected.welcome.add(subscriberIds[i]!);
      const decided = daysLater(first, 9);
      if (decided > END) return;
      if (times.some((time) => time > first && time <= decided)) expected.visited.add(subscriberIds[i]!);
      else expected.winback.add(subscriberIds[i]!);
    });

    const byHour = new Map<number, IngestCheck[]>();
    visits.forEach((times, i) =>
      times.forEach((time, n) => {
        if (time > END) return;
        const hour = Math.ceil((time - START) / HOUR);
        const list = byHour.get(hour) ?? [];
        list.push({
          location_id: locationId,
          check_number: `sim-${i}-${n}`,
          opened_at: new Date(time - 40 * 60_000),
          closed_at: new Date(time),
          total: 2_500,
          guest: { pos_id: `sim-${i}` },
          lines: [{ menu_item: 'Chowder', category: 'Soup', quantity: 1, amount: 2_500 }],
        });
        byHour.set(hour, list);
      }),
    );

    const clock = testClock(new Date(START));
    const settings = { ...DEFAULT_FLOW_RUNNER_SETTINGS, batchSize: 500 };
    let runner: FlowRunner = flowRunner(test.db, { clock, domain: 'sim.example', log: silentLog }, settings);
    let db = test.db;
    for (let hour = 1; hour <= DAYS * 24; hour += 1) {
      const checks = byHour.get(hour);
      if (checks) await db.tenant(companyId, (sql) => ingestChecks(sql, systemScope(companyId), checks));
      clock.advance(3600);
      if (hour === (DAYS / 2) * 24) {
        // A worker dies holding claims: some due enrolments and the hour's events. The next runner must take
        // them over (its lease is 0 seconds here: the dead worker's claims are already old to it).
        await db.platform((sql) => claimDueEnrolments(sql, 'dead-worker', clock.now(), 25, 120));
        await db.platform((sql) => claimFlowEvents(sql, 'dead-worker', 25, 120, clock.now()));
        if (test.url) db = second = await openPostgres({ connectionString: test.url, maxConnections: 2 });
        runner = flowRunner(
          db,
          { clock, domain: 'sim.example', log: silentLog },
          { ...settings, leaseSeconds: 0 },
        );
      }
      await runner.tick();
    }

    const outcomes = await test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ key: string; outcome: string; subscriber_id: number }>(
        `SELECT key, outcome, subscriber_id::int FROM flow_enrolment_steps WHERE company_id = $1 AND flow_id = $2`,
        [companyId, flowId],
      );
      return rows;
    });
    const who = (key: string, outcome: string) =>
      new Set(
        outcomes.filter((row) => row.key === key && row.outcome === outcome).map((row) => row.subscriber_id),
      );
    const count = (key: string, outcome: string) =>
      outcomes.filter((row) => row.key === key && row.outcome === outcome).length;

    expect(count('visit', 'entered')).toBe(expected.entered);
    expect(count('welcome', 'sent')).toBe(expected.welcome.size);
    expect(who('welcome', 'sent')).toEqual(expected.welcome);
    expect(who('back', 'yes')).toEqual(expected.visited);
    expect(who('back', 'no')).toEqual(expected.winback);
    expect(count('winback', 'sent')).toBe(expected.winback.size);
    expect(who('winback', 'sent')).toEqual(expected.winback);
    // Every email is one outbox row of a flow run, none twice.
    const outbox = await test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ n: number; people: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT (o.subscriber_id, r.subject))::int AS people
         FROM mail_outbox o JOIN mail_runs r ON r.id = o.run_id
         WHERE r.company_id = $1 AND r.kind = 'flow' AND r.source_id = $2`,
        [companyId, flowId],
      );
      return rows[0]!;
    });
    expect(outbox.n).toBe(expected.welcome.size + expected.winback.size);
    expect(outbox.people).toBe(outbox.n);
    expect(expected.winback.size).toBeGreaterThan(0);
    expect(expected.visited.size).toBeGreaterThan(0);
  }, 1_800_000);
});
