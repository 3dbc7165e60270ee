import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FlowCreateSchema } from '../../src/schemas/flows.js';
import { testClock, type TestClock } from '../../server/flows/clock.js';
import { flowRunner } from '../../server/jobs/flow-runner.js';
import { flowsService } from '../../server/services/flows.service.js';
import { refreshSegmentCaches } from '../../server/services/segment-figures.js';
import { segmentsService } from '../../server/services/segments.service.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { makeFlowCompany, makeLinkedGuests, type FlowCompany } from '../support/flow-fixture.js';

/**
 * The `entered_segment` trigger (docs/flows.md, "Entered a segment"): a guest who comes to match a segment's rules
 * after its flow went live enrols once, at the next refresh of the segment's figures; one already in it when the
 * flow went live never does. Membership is worked out independently here from the guests' visit counts.
 */

const silentLog = { error: () => undefined };
const at = { x: 0, y: 0 };

describe('entered a segment', () => {
  let test: TestDatabase;
  let company: FlowCompany;
  let clock: TestClock;

  beforeAll(async () => {
    test = await openTestDatabase();
    company = await makeFlowCompany(test.db, 'Segment Diner');
  });
  afterAll(() => test.drop());

  const scope = () => systemScope(company.companyId);
  const setVisits = (guestIds: number[], visits: number) =>
    test.db.owner((sql) =>
      sql.query('UPDATE guests SET visit_count = $2 WHERE id = ANY($1::bigint[])', [guestIds, visits]),
    );
  const enrolled = (flowId: number) =>
    test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ subscriber_id: number }>(
        'SELECT subscriber_id::int FROM flow_enrolments WHERE flow_id = $1 ORDER BY subscriber_id',
        [flowId],
      );
      return rows.map((row) => row.subscriber_id);
    });
  const events = (segmentId: number) =>
    test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ guest_id: number }>(
        `SELECT guest_id::int FROM flow_events WHERE kind = 'segment_entered' AND segment_id = $1 ORDER BY id`,
        [segmentId],
      );
      return rows.map((row) => row.guest_id);
    });

  it('enrols a guest who comes to match the rules once, and nobody who was in the segment when the flow went live', async () => {
    clock = testClock(new Date('2026-03-03T15:00:00Z'));
    const { guestIds, subscriberIds } = await makeLinkedGuests(test.db, company.companyId, 4, 'seg');
    const [already, later, never, leaver] = guestIds as [number, number, number, number];
    const subscriberOf = (guest: number) => subscriberIds[guestIds.indexOf(guest)]!;
    await setVisits([already, leaver], 3);
    await setVisits([later, never], 1);

    const segment = await segmentsService(test.db).create(scope(), {
      name: 'Twice or more',
      segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 2 }] }],
    });
    const flows = flowsService(test.db);
    const flow = await flows.create(
      scope(),
      FlowCreateSchema.parse({
        name: 'Welcome to the regulars',
        items: [
          {
            key: 't',
            kind: 'trigger',
            settings: { type: 'entered_segment', segment_id: segment.id },
            position: at,
            next_key: 'a',
            no_key: null,
          },
          {
            key: 'a',
            kind: 'action',
            settings: { type: 'send_email', template_id: company.templateId, subject: 'You are a regular' },
            position: at,
            next_key: null,
            no_key: null,
          },
        ],
      }),
    );
    // Refreshing before the flow is live keeps no snapshot: nothing watches the segment yet.
    await refreshSegmentCaches(test.db, company.companyId);
    await flows.update(scope(), flow.id, { status: 'live' });

    // The leaver drops out, `later` comes to match; `never` stays out.
    await setVisits([later], 2);
    await setVisits([leaver], 1);
    await refreshSegmentCaches(test.db, company.companyId);
    expect(await events(segment.id)).toEqual([later]);
    await flowRunner(test.db, { clock, domain: 'segments.example', log: silentLog }).tick();
    expect(await enrolled(flow.id)).toEqual([subscriberOf(later)]);

    // Another refresh with nobody new raises nothing: `later` enrolled once.
    await refreshSegmentCaches(test.db, company.companyId);
    await flowRunner(test.db, { clock, domain: 'segments.example', log: silentLog }).tick();
    expect(await events(segment.id)).toEqual([later]);
    expect(await enrolled(flow.id)).toEqual([subscriberOf(later)]);
    void never;
  });
});
