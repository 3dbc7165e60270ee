import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import { sharedTestClock, testClock, type TestClock } from '../../server/flows/clock.js';
import {
  flowRunner,
  DEFAULT_FLOW_RUNNER_SETTINGS,
  type FlowRunnerSettings,
} from '../../server/jobs/flow-runner.js';
import {
  addListMembers,
  createSubscriberList,
  removeListMembers,
} from '../../server/repositories/subscriber-lists.repository.js';
import { updateSubscriber } from '../../server/repositories/subscribers.repository.js';
import { ingestChecks } from '../../server/repositories/pos-ingestion.repository.js';
import { eraseSubscriber } from '../../server/services/customer-erasure.js';
import { flowEngineService } from '../../server/services/flow-engine.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import {
  makeFlowCompany,
  makeLinkedGuests,
  makeLiveFlow,
  publishVersion,
  setFlowStatus,
  type FlowCompany,
} from '../support/flow-fixture.js';

/**
 * The flow engine's rules one by one on a real database (PGlite, or PostgreSQL with TEST_DATABASE_URL), on the
 * test clock: two runners racing, re-entry, exits, pause and resume, versions, location scope, the frequency cap,
 * quiet hours and a wait across a daylight-saving change. Every figure is read back from the tables.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const silentLog = { error: () => undefined };
const at = { x: 0, y: 0 };

const trigger = (
  settings: Extract<FlowGraphItem, { kind: 'trigger' }>['settings'],
  next: string | null,
): FlowGraphItem => ({
  key: 't',
  kind: 'trigger',
  settings,
  position: at,
  next_key: next,
  no_key: null,
});
const email = (key: string, templateId: number, next: string | null): FlowGraphItem => ({
  key,
  kind: 'action',
  settings: {
    type: 'send_email',
    template_id: templateId,
    sender_id: null,
    subject: `Mail ${key}`,
    preheader: '',
  },
  position: at,
  next_key: next,
  no_key: null,
});
const wait = (
  key: string,
  amount: number,
  unit: 'minutes' | 'hours' | 'days',
  next: string | null,
): FlowGraphItem => ({
  key,
  kind: 'delay',
  settings: { type: 'wait', amount, unit },
  position: at,
  next_key: next,
  no_key: null,
});

describe('flow engine', () => {
  let test: TestDatabase;
  let company: FlowCompany;
  let clock: TestClock;
  let listId: number;

  beforeAll(async () => {
    test = await openTestDatabase();
    company = await makeFlowCompany(test.db, 'Engine Diner');
    listId = (
      await test.db.tenant(company.companyId, (sql) =>
        createSubscriberList(sql, systemScope(company.companyId), 'VIP'),
      )
    ).id;
  });
  afterAll(() => test.drop());

  // Each test starts its clock at 10:00 New York on a Tuesday (outside quiet hours) unless it says otherwise.
  const startClock = (iso = '2026-03-03T15:00:00Z') => (clock = testClock(new Date(iso)));
  const runner = (settings: Partial<FlowRunnerSettings> = {}) =>
    flowRunner(
      test.db,
      { clock, domain: 'engine.example', log: silentLog },
      { ...DEFAULT_FLOW_RUNNER_SETTINGS, ...settings },
    );
  const steps = (flowId: number) =>
    test.db.owner(async (sql) => {
      const { rows } = await sql.query<{
        subscriber_id: number;
        key: string;
        outcome: string | null;
        entered_at: Date;
        done_at: Date | null;
      }>(
        `SELECT subscriber_id::int, key, outcome, entered_at, done_at FROM flow_enrolment_steps WHERE flow_id = $1 ORDER BY id`,
        [flowId],
      );
      return rows;
    });
  const enrolments = (flowId: number) =>
    test.db.owner(async (sql) => {
      const { rows } = await sql.query<{
        subscriber_id: number | null;
        status: string;
        exit_reason: string | null;
        entry_no: number;
        flow_version_id: number;
      }>(
        `SELECT subscriber_id::int, status, exit_reason, entry_no, flow_version_id::int FROM flow_enrolments WHERE flow_id = $1 ORDER BY id`,
        [flowId],
      );
      return rows;
    });
  const outboxCount = (flowId: number) =>
    test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM mail_outbox o JOIN mail_runs r ON r.id = o.run_id WHERE r.kind = 'flow' AND r.source_id = $1`,
        [flowId],
      );
      return rows[0]!.n;
    });
  const newSubscribers = async (count: number) => {
    const ids = [];
    for (let i = 0; i < count; i += 1) ids.push((await makeSubscriber(test.db, company.companyId)).id);
    return ids;
  };

  it('two runners racing on the same due enrolments run every step exactly once', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'new_subscriber' }, 'a'),
      email('a', company.templateId, 'w'),
      wait('w', 1, 'days', 'b'),
      email('b', company.templateId, null),
    ]);
    const people = await newSubscribers(60);
    const one = runner({ batchSize: 7 });
    const two = runner({ batchSize: 5 });
    await Promise.all([one.tick(), two.tick(), one.tick()]);
    clock.advance(DAY / 1000);
    await Promise.all([two.tick(), one.tick(), two.tick()]);
    const rows = await steps(flowId);
    for (const key of ['a', 'b']) {
      const sent = rows
        .filter((row) => row.key === key && row.outcome === 'sent')
        .map((row) => row.subscriber_id);
      expect(sent.sort()).toEqual([...people].sort());
    }
    expect(await outboxCount(flowId)).toBe(people.length * 2);
    expect((await enrolments(flowId)).every((row) => row.status === 'completed')).toBe(true);
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('the shared test clock: a move made through one process reaches the runner of another process at its next turn', async () => {
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'new_subscriber' }, 'w'),
      wait('w', 1, 'days', 'a'),
      email('a', company.templateId, null),
    ]);
    const [person] = await newSubscribers(1);
    // Two processes: the API's clock (which the call moves) and a worker's runner on its own clock object.
    const api = sharedTestClock(test.db);
    const workerClock = sharedTestClock(test.db);
    const worker = flowRunner(test.db, { clock: workerClock, domain: 'engine.example', log: silentLog });
    await worker.tick();
    const sentTo = async () =>
      (await steps(flowId))
        .filter((row) => row.key === 'a' && row.outcome === 'sent')
        .map((row) => row.subscriber_id);
    expect(await sentTo()).toEqual([]);
    // A day's move passes the wait; quiet hours (21:00–08:00 New York) may then hold the email, so three hours
    // more at a time, a day at most, each seen by the worker's next turn.
    let { offsetMs } = await api.advance(86_400);
    await worker.tick();
    for (let step = 0; step < 8 && (await sentTo()).length === 0; step += 1) {
      ({ offsetMs } = await api.advance(3 * 3600));
      await worker.tick();
    }
    expect(await sentTo()).toEqual([person]);
    expect(offsetMs).toBeGreaterThanOrEqual(DAY);
    expect(workerClock.now().getTime() - Date.now()).toBeGreaterThanOrEqual(offsetMs - 1000);
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('re-entry: once ever, or again only after N days out of the flow', async () => {
    startClock();
    const graph = [
      trigger({ type: 'joined_list', list_id: listId }, 'a'),
      email('a', company.templateId, null),
    ];
    const once = await makeLiveFlow(test.db, company.companyId, graph);
    const again = await makeLiveFlow(test.db, company.companyId, graph, {
      reentry: 'after_days',
      reentryDays: 3,
    });
    const [person] = await newSubscribers(1);
    const join = async () => {
      const scope = systemScope(company.companyId);
      await test.db.tenant(company.companyId, (sql) => removeListMembers(sql, scope, listId, [person!]));
      await test.db.tenant(company.companyId, (sql) => addListMembers(sql, scope, listId, [person!]));
      await runner().tick();
    };
    await join();
    clock.advance(DAY / 1000);
    await join(); // a day after leaving: neither flow takes them
    clock.advance((3 * DAY) / 1000);
    await join(); // four days after leaving: only the after_days flow
    expect((await enrolments(once.flowId)).map((row) => row.entry_no)).toEqual([1]);
    expect((await enrolments(again.flowId)).map((row) => row.entry_no)).toEqual([1, 2]);
    expect(await outboxCount(again.flowId)).toBe(2);
    await setFlowStatus(test.db, company.companyId, once.flowId, 'paused');
    await setFlowStatus(test.db, company.companyId, again.flowId, 'paused');
  });

  it('people leave on unsubscribe, suppression by erasure, and a paused flow holds everyone until resumed', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'new_subscriber' }, 'w'),
      wait('w', 2, 'hours', 'a'),
      email('a', company.templateId, null),
    ]);
    const [leaver, erased, stayer] = await newSubscribers(3);
    await runner().tick();
    const scope = systemScope(company.companyId);
    await test.db.tenant(company.companyId, (sql) =>
      updateSubscriber(sql, scope, leaver!, { subscribed: false }),
    );
    await test.db.tenant(company.companyId, (sql) => eraseSubscriber(sql, scope, erased!));
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
    clock.advance((3 * HOUR) / 1000);
    await runner().tick();
    expect(await outboxCount(flowId)).toBe(0);
    // The two left at once (flow-exits.test.ts); the paused flow holds the third.
    expect((await enrolments(flowId)).map((row) => row.status)).toEqual(['exited', 'exited', 'active']);
    await setFlowStatus(test.db, company.companyId, flowId, 'live');
    await runner().tick();
    const rows = await enrolments(flowId);
    expect(rows.map((row) => [row.status, row.exit_reason])).toEqual([
      ['exited', 'unsubscribed'],
      ['exited', 'deleted'],
      ['completed', 'completed'],
    ]);
    expect(
      (await steps(flowId)).filter((row) => row.outcome === 'sent').map((row) => row.subscriber_id),
    ).toEqual([stayer]);
    const counts = await flowEngineService(test.db).nodeCounts(company.companyId, flowId);
    expect(counts.counts.t).toEqual({ entered: 3, waiting: 0, completed: 3, exited: 0 });
    expect(counts.counts.w).toEqual({ entered: 3, waiting: 0, completed: 3, exited: 2 });
    expect(counts.counts.a).toEqual({ entered: 1, waiting: 0, completed: 1, exited: 0 });
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('the frequency cap skips an email over the cap as capped and the person moves on', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'new_subscriber' }, 'a'),
      email('a', company.templateId, 'b'),
      email('b', company.templateId, 'c'),
      email('c', company.templateId, 'w'),
      wait('w', 8, 'days', 'd'),
      email('d', company.templateId, null),
    ]);
    const [person] = await newSubscribers(1);
    await runner({ frequencyCap: 2 }).tick();
    clock.advance((8 * DAY) / 1000);
    await runner({ frequencyCap: 2 }).tick();
    // After 8 days the first two have left the 7-day window, so d goes.
    expect((await steps(flowId)).map((row) => `${row.key}:${row.outcome}`)).toEqual([
      't:entered',
      'a:sent',
      'b:sent',
      'c:capped',
      'w:waited',
      'd:sent',
    ]);
    expect(await outboxCount(flowId)).toBe(3);
    void person;
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('quiet hours hold an email until they end in the location time zone', async () => {
    // 22:30 in New York on 3 March.
    startClock('2026-03-04T03:30:00Z');
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'visit_at_location', location_id: company.locationId }, 'a'),
      email('a', company.templateId, null),
    ]);
    const { subscriberIds } = await makeLinkedGuests(test.db, company.companyId, 1, 'quiet-');
    await test.db.tenant(company.companyId, (sql) =>
      ingestChecks(sql, systemScope(company.companyId), [
        {
          location_id: company.locationId,
          check_number: 'q-1',
          opened_at: new Date(clock.now().getTime() - HOUR),
          closed_at: clock.now(),
          total: 1_000,
          guest: { pos_id: 'quiet-0' },
          lines: [],
        },
      ]),
    );
    await runner().tick();
    expect(await outboxCount(flowId)).toBe(0);
    clock.advance((9 * HOUR) / 1000 - 60); // 07:29
    await runner().tick();
    expect(await outboxCount(flowId)).toBe(0);
    clock.advance(3600); // 08:29
    await runner().tick();
    expect(await outboxCount(flowId)).toBe(1);
    const [, sent] = await steps(flowId);
    expect(sent).toMatchObject({ subscriber_id: subscriberIds[0], key: 'a', outcome: 'sent' });
    expect(sent!.entered_at.toISOString()).toBe('2026-03-04T03:30:00.000Z');
    expect(sent!.done_at!.toISOString()).toBe('2026-03-04T13:00:00.000Z');
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('wait_until lands on the local weekday and time across the spring-forward change', async () => {
    // Saturday 7 March 2026, 12:00 EST; Sunday 8 March clocks go forward at 02:00.
    startClock('2026-03-07T17:00:00Z');
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'new_subscriber' }, 'u'),
      {
        key: 'u',
        kind: 'delay',
        settings: { type: 'wait_until', weekday: 'mon', time: '10:00' },
        position: at,
        next_key: 'a',
        no_key: null,
      },
      email('a', company.templateId, null),
    ]);
    await newSubscribers(1);
    await runner().tick();
    clock.advance((2 * DAY) / 1000); // Monday 9 March 13:00 EDT
    await runner().tick();
    const rows = await steps(flowId);
    // Monday 10:00 EDT is 14:00 UTC (it would be 15:00 UTC in EST).
    expect(rows.find((row) => row.key === 'u')!.done_at!.toISOString()).toBe('2026-03-09T14:00:00.000Z');
    expect(rows.find((row) => row.key === 'a')!.outcome).toBe('sent');
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('people finish on the version they entered; a flow kept to a location takes only its visits', async () => {
    startClock();
    const other = (await makeLocation(test.db, company.companyId, 'Elsewhere')).id;
    const { flowId, versionId } = await makeLiveFlow(
      test.db,
      company.companyId,
      [
        trigger({ type: 'first_visit' }, 'w'),
        wait('w', 1, 'days', 'a'),
        email('a', company.templateId, null),
      ],
      { locationIds: [company.locationId] },
    );
    await makeLinkedGuests(test.db, company.companyId, 2, 'scope-');
    const visit = (guest: number, location: number) =>
      test.db.tenant(company.companyId, (sql) =>
        ingestChecks(sql, systemScope(company.companyId), [
          {
            location_id: location,
            check_number: `scope-${guest}`,
            opened_at: new Date(clock.now().getTime() - HOUR),
            closed_at: clock.now(),
            total: 1_000,
            guest: { pos_id: `scope-${guest}` },
            lines: [],
          },
        ]),
      );
    await visit(0, company.locationId);
    await visit(1, other);
    await runner().tick();
    const v2 = await publishVersion(test.db, company.companyId, flowId, [
      trigger({ type: 'first_visit' }, 'a2'),
      email('a2', company.templateId, null),
    ]);
    clock.advance(DAY / 1000);
    await runner().tick();
    const rows = await enrolments(flowId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ flow_version_id: versionId, status: 'completed' });
    expect((await steps(flowId)).map((row) => row.key)).toEqual(['t', 'w', 'a']);
    expect(v2).not.toBe(versionId);
  });

  it('the daily pass enrols birthdays N days ahead and guests N days since their last visit, once', async () => {
    startClock(); // Tuesday 3 March 2026, 10:00 New York
    const birthday = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'birthday', days_before: 3 }, null),
    ]);
    const lapsed = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'no_visit_for', days: 10 }, null),
    ]);
    const due = (await makeSubscriber(test.db, company.companyId, { birthday: '1990-03-06' })).id;
    await makeSubscriber(test.db, company.companyId, { birthday: '1990-03-07' });
    const { guestIds, subscriberIds } = await makeLinkedGuests(test.db, company.companyId, 2, 'lapsed-');
    await test.db.owner((sql) =>
      sql.query('UPDATE guests SET last_visit_at = $2 WHERE id = ANY($1::bigint[])', [
        guestIds,
        '2026-02-21T15:00:00Z',
      ]),
    );
    await test.db.owner((sql) =>
      sql.query('UPDATE guests SET last_visit_at = $2 WHERE id = $1', [guestIds[1], '2026-02-22T15:00:00Z']),
    );
    const engine = runner();
    await engine.runDaily();
    await engine.runDaily();
    expect((await enrolments(birthday.flowId)).map((row) => row.subscriber_id)).toEqual([due]);
    expect((await enrolments(lapsed.flowId)).map((row) => row.subscriber_id)).toEqual([subscriberIds[0]]);
    await setFlowStatus(test.db, company.companyId, birthday.flowId, 'paused');
    await setFlowStatus(test.db, company.companyId, lapsed.flowId, 'paused');
  });

  it('the read side: a subscriber path, and 404 for another company', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      trigger({ type: 'new_subscriber' }, 'a'),
      email('a', company.templateId, null),
    ]);
    const [person] = await newSubscribers(1);
    await runner().tick();
    const service = flowEngineService(test.db);
    const paths = await service.subscriberFlows(company.companyId, person!);
    const mine = paths.results.find((row) => row.flow_id === flowId)!;
    expect(mine).toMatchObject({ status: 'completed', exit_reason: 'completed', version: 1 });
    expect(mine.steps.map((step) => [step.key, step.outcome])).toEqual([
      ['t', 'entered'],
      ['a', 'sent'],
    ]);
    const stranger = await makeFlowCompany(test.db, 'Stranger');
    await expect(service.nodeCounts(stranger.companyId, flowId)).rejects.toMatchObject({ status: 404 });
    await expect(service.subscriberFlows(stranger.companyId, person!)).rejects.toMatchObject({ status: 404 });
  });
});
