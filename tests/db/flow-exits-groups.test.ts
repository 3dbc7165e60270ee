import { describe, expect, it } from 'vitest';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import { locationsService } from '../../server/services/locations.service.js';
import { makeLocation, makeSubscriber } from '../support/factories.js';
import { newSubscriberTrigger, sendEmail, useFlowEngine, waitFor } from '../support/flow-engine.js';
import { makeLiveFlow, setFlowStatus } from '../support/flow-fixture.js';

/**
 * A location group's members change under the flows kept to it (docs/flows.md, "out_of_scope"): people enrolled at a
 * location that left the group leave at once as `out_of_scope` and get no further email; people at a location the
 * flow still takes (the group, another of its groups, its own locations) carry on; new triggers follow the new
 * members. Every figure is read back from the tables.
 */

const DAY = 86_400;
const silentLog = { error: () => undefined };

/** new subscriber → email a → wait 2 days → email b. */
const graphOf = (templateId: number): FlowGraphItem[] => [
  newSubscriberTrigger('a'),
  sendEmail('a', templateId, 'w', 'A'),
  waitFor('w', 2, 'days', 'b'),
  sendEmail('b', templateId, null, 'B'),
];

interface EnrolmentRow {
  flow_id: number;
  subscriber_id: number;
  status: string;
  exit_reason: string | null;
  current_key: string | null;
  next_run_at: Date | null;
}

describe('flow exits when a location group changes', () => {
  const engine = useFlowEngine('Group Diner', { domain: 'groups.example', log: silentLog });

  /** Every enrolment of these flows, by flow and subscriber. */
  const enrolments = (flowIds: number[]) =>
    engine.owner<EnrolmentRow>(
      `SELECT flow_id::int, subscriber_id::int, status, exit_reason, current_key, next_run_at
       FROM flow_enrolments WHERE flow_id = ANY($1::bigint[]) ORDER BY flow_id, subscriber_id, id`,
      [flowIds],
    );
  /** The status of a person's enrolment in a flow (their only one here). */
  const statusIn = async (flowId: number, subscriberId: number) => {
    const rows = (await enrolments([flowId])).filter((row) => row.subscriber_id === subscriberId);
    return rows.map(({ status, exit_reason, current_key }) => ({ status, exit_reason, current_key }));
  };
  /** The subjects of the flow's emails to a person, in order. */
  const mailOf = async (flowId: number, subscriberId: number) =>
    (
      await engine.owner<{ subject: string }>(
        `SELECT r.subject FROM mail_outbox o JOIN mail_runs r ON r.id = o.run_id
         WHERE r.kind = 'flow' AND r.source_id = $1 AND o.subscriber_id = $2 ORDER BY o.id`,
        [flowId, subscriberId],
      )
    ).map((row) => row.subject);
  /** The outcome of the person's wait `w` in the flow (null while open). */
  const waitOutcome = async (flowId: number, subscriberId: number) =>
    (
      await engine.owner<{ outcome: string | null; done: boolean }>(
        `SELECT st.outcome, st.done_at IS NOT NULL AS done FROM flow_enrolment_steps st
         JOIN flow_enrolments e ON e.id = st.enrolment_id
         WHERE e.flow_id = $1 AND e.subscriber_id = $2 AND st.key = 'w'`,
        [flowId, subscriberId],
      )
    )[0];

  it('a location leaving the group ends the enrolments there as out_of_scope; the others carry on', async () => {
    const clock = engine.startClock();
    const { companyId, locationId: harbor, templateId } = engine.company;
    const db = engine.test.db;
    const north = (await makeLocation(db, companyId, 'North')).id;
    const locations = locationsService(db);
    const coast = await locations.createGroup(engine.scope(), {
      name: 'Coast',
      description: '',
      location_ids: [harbor, north],
    });
    const harborOnly = await locations.createGroup(engine.scope(), {
      name: 'Harbor only',
      description: '',
      location_ids: [harbor],
    });
    const graph = graphOf(templateId);
    // Kept to the group; to the group and another holding Harbor; to Harbor itself.
    const byGroup = (await makeLiveFlow(db, companyId, graph, { locationGroupIds: [coast.id] })).flowId;
    const byTwoGroups = (
      await makeLiveFlow(db, companyId, graph, { locationGroupIds: [coast.id, harborOnly.id] })
    ).flowId;
    const byLocation = (await makeLiveFlow(db, companyId, graph, { locationIds: [harbor] })).flowId;
    const person = async (location: number) =>
      (await makeSubscriber(db, companyId, { source_location_id: location })).id;
    const atHarbor = await person(harbor);
    const atNorth = await person(north);
    await engine.runner().tick();
    const waiting = [{ status: 'active', exit_reason: null, current_key: 'w' }];
    for (const flowId of [byGroup, byTwoGroups])
      for (const subscriber of [atHarbor, atNorth])
        expect(await statusIn(flowId, subscriber)).toEqual(waiting);
    expect(await statusIn(byLocation, atHarbor)).toEqual(waiting);
    expect(await statusIn(byLocation, atNorth)).toEqual([]);
    const othersBefore = (await enrolments([byTwoGroups, byLocation])).concat(
      (await enrolments([byGroup])).filter((row) => row.subscriber_id === atNorth),
    );

    await locations.updateGroup(engine.scope(), coast.id, { location_ids: [north] });

    expect(await statusIn(byGroup, atHarbor)).toEqual([
      { status: 'exited', exit_reason: 'out_of_scope', current_key: 'w' },
    ]);
    expect(await waitOutcome(byGroup, atHarbor)).toEqual({ outcome: 'out_of_scope', done: true });
    // Everyone else is untouched, row for row.
    expect(
      (await enrolments([byTwoGroups, byLocation])).concat(
        (await enrolments([byGroup])).filter((row) => row.subscriber_id === atNorth),
      ),
    ).toEqual(othersBefore);
    expect(await waitOutcome(byGroup, atNorth)).toEqual({ outcome: null, done: false });

    // New triggers follow the new members: a newcomer at Harbor no longer enters the group's flow.
    const newcomer = await person(harbor);
    await engine.runner().tick();
    expect(await statusIn(byGroup, newcomer)).toEqual([]);
    expect(await statusIn(byTwoGroups, newcomer)).toEqual(waiting);

    // The wait ends: the one who left gets no second email, the one still in scope does.
    clock.advance(2 * DAY);
    await engine.runner().tick();
    expect(await mailOf(byGroup, atHarbor)).toEqual(['A']);
    expect(await mailOf(byGroup, atNorth)).toEqual(['A', 'B']);
    expect(await mailOf(byTwoGroups, atHarbor)).toEqual(['A', 'B']);
    expect(await mailOf(byLocation, atHarbor)).toEqual(['A', 'B']);
    expect(await statusIn(byGroup, atHarbor)).toEqual([
      { status: 'exited', exit_reason: 'out_of_scope', current_key: 'w' },
    ]);

    // A location joining the group is taken from then on.
    await locations.updateGroup(engine.scope(), coast.id, { location_ids: [north, harbor] });
    const later = await person(harbor);
    await engine.runner().tick();
    expect(await statusIn(byGroup, later)).toEqual(waiting);
    for (const flowId of [byGroup, byTwoGroups, byLocation])
      await setFlowStatus(db, companyId, flowId, 'paused');
  });

  it('deleting the group ends the enrolments its flows held only through it', async () => {
    engine.startClock();
    const { companyId, templateId } = engine.company;
    const db = engine.test.db;
    const east = (await makeLocation(db, companyId, 'East')).id;
    const locations = locationsService(db);
    const group = await locations.createGroup(engine.scope(), {
      name: 'East side',
      description: '',
      location_ids: [east],
    });
    const { flowId } = await makeLiveFlow(db, companyId, graphOf(templateId), {
      locationGroupIds: [group.id],
    });
    const other = (await makeLiveFlow(db, companyId, graphOf(templateId))).flowId;
    const atEast = (await makeSubscriber(db, companyId, { source_location_id: east })).id;
    await engine.runner().tick();
    const otherBefore = await enrolments([other]);
    expect(otherBefore.filter((row) => row.subscriber_id === atEast)).toHaveLength(1);

    await locations.removeGroup(engine.scope(), group.id);

    expect(await statusIn(flowId, atEast)).toEqual([
      { status: 'exited', exit_reason: 'out_of_scope', current_key: 'w' },
    ]);
    expect(await enrolments([other])).toEqual(otherBefore);
    for (const id of [flowId, other]) await setFlowStatus(db, companyId, id, 'paused');
  });
});
