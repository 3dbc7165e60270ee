import { describe, expect, it } from 'vitest';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import { runEnrolmentSteps } from '../../server/flows/flow-steps.js';
import { claimDueEnrolments, lockEnrolment } from '../../server/repositories/flow-enrolments.repository.js';
import { flowsService } from '../../server/services/flows.service.js';
import { setFlowStatus } from '../support/flow-fixture.js';
import { newSubscriberTrigger, sendEmail, useFlowEngine, waitFor } from '../support/flow-engine.js';

/**
 * The flow engine's safety rules (docs/flows.md, "The scheduler", "Failures", "Frequency cap"): a pause stops
 * steps already claimed, a failed turn lets go of its claims and backs off, the frequency cap is counted one email
 * at a time per person, and resuming a paused flow keeps its published version. PGlite, or PostgreSQL with
 * TEST_DATABASE_URL, where the parts about two connections at once run too.
 */

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
  const logged: object[] = [];
  const log = { error: (details: object) => void logged.push(details) };
  const engine = useFlowEngine('Safety Diner', { domain: 'safety.example', log });
  const { startClock, runner, owner, subscriber, liveFlow } = engine;

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
    const { flowId } = await engine.dueAfterAnHour();
    const [enrolment] = await enrolmentsOf(flowId);
    // A worker claims the due step, then the flow is paused before the worker runs it.
    const claimed = await engine.test.db.platform((sql) =>
      claimDueEnrolments(sql, 'worker-before-pause', engine.clock.now(), 1000, 120),
    );
    expect(claimed.map((row) => row.id)).toContain(enrolment!.id);
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
    const state = await engine.test.db.tenant(engine.company.companyId, (sql) =>
      lockEnrolment(sql, engine.company.companyId, enrolment!.id, 'worker-before-pause'),
    );
    expect(state).toBeNull();
    const [held] = await enrolmentsOf(flowId);
    expect(held).toMatchObject({ status: 'active', current_key: 'w', claimed_by: null });
    expect(held!.next_run_at).toEqual(enrolment!.next_run_at);
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:null']);

    if (engine.test.url) {
      // Steps already running hold the flow row: the pause waits for them, and none starts after it.
      await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'live');
      await engine.test.db.platform((sql) =>
        claimDueEnrolments(sql, 'worker-running', engine.clock.now(), 1000, 120),
      );
      let paused = false;
      let pause: Promise<void> = Promise.resolve();
      await engine.test.db.tenant(engine.company.companyId, async (sql) => {
        const running = await lockEnrolment(sql, engine.company.companyId, enrolment!.id, 'worker-running');
        expect(running).not.toBeNull();
        pause = setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused').then(
          () => void (paused = true),
        );
        await new Promise((resolve) => setTimeout(resolve, 400));
        expect(paused).toBe(false);
        await runEnrolmentSteps(sql, engine.company.companyId, running!, {
          now: engine.clock.now(),
          domain: 'safety.example',
          frequencyCap: 5,
        });
      });
      await pause;
      expect(paused).toBe(true);
      expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
      return;
    }
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'live');
    await runner().tick();
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  it('a failed transaction lets go of its claims, keeps the error code only and backs off', async () => {
    const { flowId, runner: one } = await engine.dueAfterAnHour();
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
    expect(row!.next_run_at!.getTime()).toBe(engine.clock.now().getTime() + 60_000);
    // Not in a hot loop: nothing is due again until the backoff ends, then twice as long.
    expect((await one.tick()).enrolments).toBe(0);
    engine.clock.advance(61);
    await one.tick();
    [row] = await enrolmentsOf(flowId);
    expect(row).toMatchObject({ claimed_by: null, failures: 2 });
    expect(row!.next_run_at!.getTime()).toBe(engine.clock.now().getTime() + 120_000);
    // The log and the row carry the code, never the error's message.
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain('refused for a test');
    await repair();
    engine.clock.advance(121);
    await one.tick();
    [row] = await enrolmentsOf(flowId);
    expect(row).toMatchObject({ status: 'completed', failures: 0, last_error: null });
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  it('a step that keeps failing is retried further apart each time', async () => {
    const { flowId, runner: one } = await engine.dueAfterAnHour();
    const repair = await failOn('flow_enrolment_steps', flowId, 'now');
    const gaps = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await one.tick()).enrolments).toBe(1);
      const [row] = await enrolmentsOf(flowId);
      gaps.push((row!.next_run_at!.getTime() - engine.clock.now().getTime()) / 1000);
      expect(row).toMatchObject({ claimed_by: null, failures: attempt + 1, last_error: 'P0001' });
      engine.clock.advance(gaps[attempt]!);
    }
    expect(gaps).toEqual([60, 120, 240, 480]);
    await repair();
    await one.tick();
    expect(await outcomes(flowId)).toEqual(['t:entered', 'w:waited', 'a:sent']);
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  it('a trigger event whose transaction fails is let go, backs off and enrols later', async () => {
    startClock();
    const { flowId } = await liveFlow([
      newSubscriberTrigger('a'),
      sendEmail('a', engine.company.templateId, null),
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
    expect((await event()).retry_at!.getTime()).toBe(engine.clock.now().getTime() + 60_000);
    expect((await one.tick()).events).toBe(0);
    await repair();
    engine.clock.advance(61);
    expect((await one.tick()).events).toBe(1);
    expect((await event()).processed_at).not.toBeNull();
    expect(await outcomes(flowId)).toEqual(['t:entered', 'a:sent']);
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  it('two transactions emailing one person take turns, so the frequency cap holds', async () => {
    startClock();
    const graph = [
      newSubscriberTrigger('w'),
      waitFor('w', 1, 'hours', 'a'),
      sendEmail('a', engine.company.templateId, null),
    ];
    const first = await liveFlow(graph);
    const second = await liveFlow(graph);
    await subscriber();
    await runner().tick();
    engine.clock.advance(3600);
    const [mine] = await enrolmentsOf(first.flowId);
    await owner(`UPDATE flow_enrolments SET claimed_at = now(), claimed_by = 'worker-one' WHERE id = $1`, [
      mine!.id,
    ]);
    const other = runner({ frequencyCap: 1 });
    let racing: Promise<unknown> = Promise.resolve();
    // The first worker emails the person and has not committed when the second worker takes the other flow's step.
    await engine.test.db.tenant(engine.company.companyId, async (sql) => {
      const state = await lockEnrolment(sql, engine.company.companyId, mine!.id, 'worker-one');
      await runEnrolmentSteps(sql, engine.company.companyId, state!, {
        now: engine.clock.now(),
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
    await setFlowStatus(engine.test.db, engine.company.companyId, first.flowId, 'paused');
    await setFlowStatus(engine.test.db, engine.company.companyId, second.flowId, 'paused');
  });

  it('resume returns to the published version; an edited draft is published only by Publish', async () => {
    const flows = flowsService(engine.test.db);
    const scope = engine.scope();
    const draft = await flows.create(scope, {
      name: 'Resume keeps the version',
      location_ids: [],
      location_group_ids: [],
      reentry: 'once',
      reentry_days: null,
      items: [newSubscriberTrigger('a'), sendEmail('a', engine.company.templateId, null)],
    });
    const live = await flows.update(scope, draft.id, { status: 'live' });
    expect(live.version).toBe(1);
    await flows.update(scope, draft.id, { status: 'paused' });
    const edited = await flows.update(scope, draft.id, {
      items: [
        newSubscriberTrigger('a'),
        sendEmail('a', engine.company.templateId, 'b'),
        sendEmail('b', engine.company.templateId, null),
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
