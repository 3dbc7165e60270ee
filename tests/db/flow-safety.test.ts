import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import { testClock, type TestClock } from '../../server/flows/clock.js';
import { runEnrolmentSteps } from '../../server/flows/flow-steps.js';
import {
  flowRunner,
  DEFAULT_FLOW_RUNNER_SETTINGS,
  type FlowRunnerSettings,
} from '../../server/jobs/flow-runner.js';
import { claimDueEnrolments, lockEnrolment } from '../../server/repositories/flow-enrolments.repository.js';
import { flowsService } from '../../server/services/flows.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeSubscriber, systemScope } from '../support/factories.js';
import { makeFlowCompany, makeLiveFlow, setFlowStatus, type FlowCompany } from '../support/flow-fixture.js';

/**
 * The flow engine's safety rules (docs/flows.md, "The scheduler", "Failures", "Frequency cap"): a pause stops
 * steps already claimed, a failed turn lets go of its claims and backs off, the frequency cap is counted one email
 * at a time per person, and resuming a paused flow keeps its published version. PGlite, or PostgreSQL with
 * TEST_DATABASE_URL, where the parts about two connections at once run too.
 */

const HOUR = 3_600_000;
const at = { x: 0, y: 0 };

const item = (
  key: string,
  kind: FlowGraphItem['kind'],
  settings: FlowGraphItem['settings'],
  next: string | null,
): FlowGraphItem => ({ key, kind, settings, position: at, next_key: next, no_key: null }) as FlowGraphItem;
const newSubscriberTrigger = (next: string) => item('t', 'trigger', { type: 'new_subscriber' }, next);
const waitHour = (key: string, next: string) =>
  item(key, 'delay', { type: 'wait', amount: 1, unit: 'hours' }, next);
const email = (key: string, templateId: number, next: string | null) =>
  item(
    key,
    'action',
    { type: 'send_email', template_id: templateId, sender_id: null, subject: `Mail ${key}`, preheader: '' },
    next,
  );

interface EnrolmentRow {
  id: number;
  status: string;
  current_key: string | null;
  next_run_at: Date | null;
  claimed_by: string | null;
  failures: number;
  last_error: string | null;
}

interface EventRow {
  processed_at: Date | null;
  claimed_by: string | null;
  failures: number;
  last_error: string | null;
  retry_at: Date | null;
}

describe('flow engine safety', () => {
  let test: TestDatabase;
  let company: FlowCompany;
  let clock: TestClock;
  const logged: object[] = [];
  const log = { error: (details: object) => void logged.push(details) };

  beforeAll(async () => {
    test = await openTestDatabase();
    company = await makeFlowCompany(test.db, 'Safety Diner');
  });
  afterAll(() => test.drop());

  // 10:00 New York on a Tuesday, outside quiet hours.
  const startClock = () => (clock = testClock(new Date('2026-03-03T15:00:00Z')));
  const runner = (settings: Partial<FlowRunnerSettings> = {}) =>
    flowRunner(
      test.db,
      { clock, domain: 'safety.example', log },
      { ...DEFAULT_FLOW_RUNNER_SETTINGS, ...settings },
    );
  const owner = <Row>(text: string, values: unknown[] = []) =>
    test.db.owner(async (sql) => (await sql.query<Row>(text, values)).rows);
  const enrolmentsOf = (flowId: number) =>
    owner<EnrolmentRow>(
      `SELECT id::int, status, current_key, next_run_at, claimed_by, failures, last_error
       FROM flow_enrolments WHERE flow_id = $1 ORDER BY id`,
      [flowId],
    );
  const outcomes = (flowId: number) =>
    owner<{ key: string; outcome: string | null }>(
      'SELECT key, outcome FROM flow_enrolment_steps WHERE flow_id = $1 ORDER BY id',
      [flowId],
    ).then((rows) => rows.map((row) => `${row.key}:${row.outcome}`));
  const subscriber = async () => (await makeSubscriber(test.db, company.companyId)).id;
  // A trigger that refuses this flow's rows, the way a database error would (SQLSTATE P0001).
  const failOn = async (table: string, flowId: number, when: 'now' | 'at commit') => {
    await owner(
      `CREATE OR REPLACE FUNCTION test_flow_failure() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'refused for a test'; END $$`,
    );
    await owner(
      when === 'now'
        ? `CREATE TRIGGER test_flow_failure BEFORE INSERT ON ${table} FOR EACH ROW
           WHEN (NEW.flow_id = ${flowId}) EXECUTE FUNCTION test_flow_failure()`
        : `CREATE CONSTRAINT TRIGGER test_flow_failure AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED
           FOR EACH ROW WHEN (NEW.flow_id = ${flowId}) EXECUTE FUNCTION test_flow_failure()`,
    );
    return () => owner(`DROP TRIGGER test_flow_failure ON ${table}`);
  };

  it('a pause stops steps claimed before it: the claim is let go and the person goes on after the resume', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      newSubscriberTrigger('w'),
      waitHour('w', 'a'),
      email('a', company.templateId, null),
    ]);
    await subscriber();
    await runner().tick();
    clock.advance(HOUR / 1000);
    const [enrolment] = await enrolmentsOf(flowId);
    // A worker claims the due step, then the flow is paused before the worker runs it.
    const claimed = await test.db.platform((sql) =>
      claimDueEnrolments(sql, 'worker-before-pause', clock.now(), 1000, 120),
    );
    expect(claimed.map((row) => row.id)).toContain(enrolment!.id);
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
    const state = await test.db.tenant(company.companyId, (sql) =>
      lockEnrolment(sql, company.companyId, enrolment!.id, 'worker-before-pause'),
    );
    expect(state).toBeNull();
    const [held] = await enrolmentsOf(flowId);
    expect(held).toMatchObject({ status: 'active', current_key: 'w', claimed_by: null });
    expect(held!.next_run_at).toEqual(enrolment!.next_run_at);
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:null']);

    if (test.url) {
      // Steps already running hold the flow row: the pause waits for them, and none starts after it.
      await setFlowStatus(test.db, company.companyId, flowId, 'live');
      await test.db.platform((sql) => claimDueEnrolments(sql, 'worker-running', clock.now(), 1000, 120));
      let paused = false;
      let pause: Promise<void> = Promise.resolve();
      await test.db.tenant(company.companyId, async (sql) => {
        const running = await lockEnrolment(sql, company.companyId, enrolment!.id, 'worker-running');
        expect(running).not.toBeNull();
        pause = setFlowStatus(test.db, company.companyId, flowId, 'paused').then(() => void (paused = true));
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(paused).toBe(false);
        await runEnrolmentSteps(sql, company.companyId, running!, {
          now: clock.now(),
          domain: 'safety.example',
          frequencyCap: 5,
        });
      });
      await pause;
      expect(paused).toBe(true);
      expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
      return;
    }
    await setFlowStatus(test.db, company.companyId, flowId, 'live');
    await runner().tick();
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('a failed transaction lets go of its claims, keeps the error code only and backs off', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      newSubscriberTrigger('w'),
      waitHour('w', 'a'),
      email('a', company.templateId, null),
    ]);
    await subscriber();
    const one = runner();
    await one.tick();
    clock.advance(HOUR / 1000);
    logged.length = 0;
    // The commit fails (a deferred check), after every step of the chunk went well.
    const repair = await failOn('flow_enrolment_steps', flowId, 'at commit');
    await one.tick();
    let [row] = await enrolmentsOf(flowId);
    expect(row).toMatchObject({
      status: 'active',
      current_key: 'w',
      claimed_by: null,
      failures: 1,
      last_error: 'P0001',
    });
    expect(row!.next_run_at!.getTime()).toBe(clock.now().getTime() + 60_000);
    // Not in a hot loop: nothing is due again until the backoff ends, then twice as long.
    expect((await one.tick()).enrolments).toBe(0);
    clock.advance(61);
    await one.tick();
    [row] = await enrolmentsOf(flowId);
    expect(row).toMatchObject({ claimed_by: null, failures: 2 });
    expect(row!.next_run_at!.getTime()).toBe(clock.now().getTime() + 120_000);
    // The log and the row carry the code, never the error's message.
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain('refused for a test');
    await repair();
    clock.advance(121);
    await one.tick();
    [row] = await enrolmentsOf(flowId);
    expect(row).toMatchObject({ status: 'completed', failures: 0, last_error: null });
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('a step that keeps failing is retried further apart each time', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      newSubscriberTrigger('w'),
      waitHour('w', 'a'),
      email('a', company.templateId, null),
    ]);
    await subscriber();
    const one = runner();
    await one.tick();
    clock.advance(HOUR / 1000);
    const repair = await failOn('flow_enrolment_steps', flowId, 'now');
    const gaps = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await one.tick()).enrolments).toBe(1);
      const [row] = await enrolmentsOf(flowId);
      gaps.push((row!.next_run_at!.getTime() - clock.now().getTime()) / 1000);
      expect(row).toMatchObject({ claimed_by: null, failures: attempt + 1, last_error: 'P0001' });
      clock.advance(gaps[attempt]!);
    }
    expect(gaps).toEqual([60, 120, 240, 480]);
    await repair();
    await one.tick();
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('a trigger event whose transaction fails is let go, backs off and enrols later', async () => {
    startClock();
    const { flowId } = await makeLiveFlow(test.db, company.companyId, [
      newSubscriberTrigger('a'),
      email('a', company.templateId, null),
    ]);
    const repair = await failOn('flow_enrolments', flowId, 'now');
    const person = await subscriber();
    const one = runner();
    const event = () =>
      owner<EventRow>(
        `SELECT processed_at, claimed_by, failures, last_error, retry_at FROM flow_events
         WHERE kind = 'subscriber_created' AND subscriber_id = $1`,
        [person],
      ).then((rows) => rows[0]!);
    expect((await one.tick()).events).toBe(1);
    expect(await event()).toMatchObject({
      processed_at: null,
      claimed_by: null,
      failures: 1,
      last_error: 'P0001',
    });
    expect((await event()).retry_at!.getTime()).toBe(clock.now().getTime() + 60_000);
    expect((await one.tick()).events).toBe(0);
    await repair();
    clock.advance(61);
    expect((await one.tick()).events).toBe(1);
    expect((await event()).processed_at).not.toBeNull();
    expect(await outcomes(flowId)).toEqual(['t:entered', 'a:sent']);
    await setFlowStatus(test.db, company.companyId, flowId, 'paused');
  });

  it('two transactions emailing one person take turns, so the frequency cap holds', async () => {
    startClock();
    const graph = [newSubscriberTrigger('w'), waitHour('w', 'a'), email('a', company.templateId, null)];
    const first = await makeLiveFlow(test.db, company.companyId, graph);
    const second = await makeLiveFlow(test.db, company.companyId, graph);
    await subscriber();
    await runner().tick();
    clock.advance(HOUR / 1000);
    const [mine] = await enrolmentsOf(first.flowId);
    await owner(`UPDATE flow_enrolments SET claimed_at = now(), claimed_by = 'worker-one' WHERE id = $1`, [
      mine!.id,
    ]);
    const other = runner({ frequencyCap: 1 });
    let racing: Promise<unknown> = Promise.resolve();
    // The first worker emails the person and has not committed when the second worker takes the other flow's step.
    await test.db.tenant(company.companyId, async (sql) => {
      const state = await lockEnrolment(sql, company.companyId, mine!.id, 'worker-one');
      await runEnrolmentSteps(sql, company.companyId, state!, {
        now: clock.now(),
        domain: 'safety.example',
        frequencyCap: 1,
      });
      racing = other.runDue();
      // On PostgreSQL the second worker now waits for the person's row; PGlite runs one transaction at a time.
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    await racing;
    expect(await outcomes(first.flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
    expect(await outcomes(second.flowId)).toEqual(['t:entered', 'w:waited', 'a:capped']);
    await setFlowStatus(test.db, company.companyId, first.flowId, 'paused');
    await setFlowStatus(test.db, company.companyId, second.flowId, 'paused');
  });

  it('resume returns to the published version; an edited draft is published only by Publish', async () => {
    const flows = flowsService(test.db);
    const scope = systemScope(company.companyId);
    const draft = await flows.create(scope, {
      name: 'Resume keeps the version',
      location_ids: [],
      location_group_ids: [],
      reentry: 'once',
      reentry_days: null,
      items: [newSubscriberTrigger('a'), email('a', company.templateId, null)],
    });
    const live = await flows.update(scope, draft.id, { status: 'live' });
    expect(live.version).toBe(1);
    await flows.update(scope, draft.id, { status: 'paused' });
    const edited = await flows.update(scope, draft.id, {
      items: [
        newSubscriberTrigger('a'),
        email('a', company.templateId, 'b'),
        email('b', company.templateId, null),
      ],
      revision: live.revision,
    });
    expect(edited.has_unpublished_changes).toBe(true);
    const resumed = await flows.update(scope, draft.id, { status: 'live' });
    expect(resumed).toMatchObject({ status: 'live', version: 1, has_unpublished_changes: true });
    const versions = await owner<{ graph: FlowGraphItem[] }>(
      'SELECT graph FROM flow_versions WHERE flow_id = $1 ORDER BY version',
      [draft.id],
    );
    expect(versions.map((version) => version.graph.map((node) => node.key))).toEqual([['t', 'a']]);
    // Publish (the builder sends the graph with the status) makes the draft the next version.
    await flows.update(scope, draft.id, { status: 'paused' });
    const published = await flows.update(scope, draft.id, {
      status: 'live',
      items: edited.items.map(({ key, kind, settings, position, next_key, no_key }) => ({
        key,
        kind,
        settings,
        position,
        next_key,
        no_key,
      })) as FlowGraphItem[],
      revision: edited.revision,
    });
    expect(published).toMatchObject({ status: 'live', version: 2, has_unpublished_changes: false });
    await flows.update(scope, draft.id, { status: 'paused' });
  });
});
