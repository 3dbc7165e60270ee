import { describe, expect, it } from 'vitest';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import { importRunner } from '../../server/jobs/import-runner.js';
import {
  createImportJob,
  queueImportJob,
  storeImportChunk,
} from '../../server/repositories/imports.repository.js';
import { findMailTokenSecret, finishOutboxBatch } from '../../server/repositories/mail-outbox.repository.js';
import { marketingEmailsBetween } from '../../server/repositories/flow-enrolments.repository.js';
import { suppressAddress } from '../../server/repositories/mail-suppressions.repository.js';
import { updateSubscriber } from '../../server/repositories/subscribers.repository.js';
import { eraseSubscriber } from '../../server/services/customer-erasure.js';
import { flowEngineService } from '../../server/services/flow-engine.service.js';
import { flowsService } from '../../server/services/flows.service.js';
import { unsubscribeService } from '../../server/services/unsubscribe.service.js';
import { unsubscribeTokens } from '../../server/sending/unsubscribe-token.js';
import { makeLocation, makeSubscriber } from '../support/factories.js';
import { newSubscriberTrigger, sendEmail, useFlowEngine, waitFor } from '../support/flow-engine.js';
import { setFlowStatus } from '../support/flow-fixture.js';

/**
 * Immediate exits (docs/flows.md, "Exits"): every way a person stops being mailable ends their enrolments in the
 * same transaction, with its reason, and touches nobody else; deleting a flow cancels its unsent mail and keeps
 * the history the frequency cap reads; narrowing a flow's locations exits the people outside them; a CSV import
 * raises an event per new subscriber. Every figure is read back from the tables.
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

/** The same with a last wait after email b, so a person is still in the flow once b is frozen. */
const longGraphOf = (templateId: number): FlowGraphItem[] => [
  ...graphOf(templateId).map((item) => (item.key === 'b' ? { ...item, next_key: 'w2' } : item)),
  waitFor('w2', 2, 'days', null),
];

interface EnrolmentRow {
  id: number;
  flow_id: number | null;
  subscriber_id: number | null;
  status: string;
  exit_reason: string | null;
  current_key: string | null;
  next_run_at: Date | null;
  open_step_id: number | null;
  left_at: Date | null;
}

describe('flow exits', () => {
  const engine = useFlowEngine('Exit Diner', { domain: 'exits.example', log: silentLog });
  const { scope, runner, startClock } = engine;

  const enrolments = (flowId: number) =>
    engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<EnrolmentRow>(
        `SELECT id::int, flow_id::int, subscriber_id::int, status, exit_reason, current_key, next_run_at,
                open_step_id::int, left_at
         FROM flow_enrolments WHERE flow_id = $1 ORDER BY id`,
        [flowId],
      );
      return rows;
    });
  const openSteps = (enrolmentIds: number[]) =>
    engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{
        enrolment_id: number;
        key: string;
        outcome: string | null;
        done: boolean;
      }>(
        `SELECT enrolment_id::int, key, outcome, done_at IS NOT NULL AS done FROM flow_enrolment_steps
         WHERE enrolment_id = ANY($1::bigint[]) AND key = 'w' ORDER BY enrolment_id`,
        [enrolmentIds],
      );
      return rows;
    });
  const outboxOf = (flowId: number, subscriberId: number) =>
    engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ id: number; status: string }>(
        `SELECT o.id::int, o.status FROM mail_outbox o JOIN mail_runs r ON r.id = o.run_id
         WHERE r.kind = 'flow' AND r.source_id = $1 AND o.subscriber_id = $2 ORDER BY o.id`,
        [flowId, subscriberId],
      );
      return rows;
    });

  it('unsubscribing (one-click link, profile edit, an import), a bounce and an erasure end the enrolments at once', async () => {
    const clock = startClock();
    const { flowId } = await engine.liveFlow(graphOf(engine.company.templateId));
    const people = [];
    for (let i = 0; i < 7; i += 1)
      people.push((await makeSubscriber(engine.test.db, engine.company.companyId)).id);
    const [clicker, edited, bounced, erased, imported, stayer, other] = people as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    await runner().tick();
    const before = await enrolments(flowId);
    expect(before.map((row) => [row.status, row.current_key])).toEqual(people.map(() => ['active', 'w']));

    // The one-click unsubscribe (and the page's button) of the email the flow sent.
    const signer = unsubscribeTokens(await engine.test.db.platform(findMailTokenSecret));
    const clickerRow = (await outboxOf(flowId, clicker))[0]!;
    await unsubscribeService(engine.test.db).unsubscribe(
      signer.sign({ companyId: engine.company.companyId, outboxId: clickerRow.id }),
    );
    // The profile edit.
    await engine.test.db.tenant(engine.company.companyId, (sql) =>
      updateSubscriber(sql, scope(), edited, { subscribed: false }),
    );
    // A hard bounce of the email, as the send runner records it.
    const bouncedRow = (await outboxOf(flowId, bounced))[0]!;
    await engine.test.db.owner((sql) =>
      sql.query(`UPDATE mail_outbox SET status = 'sending', claimed_by = 'w1' WHERE id = $1`, [
        bouncedRow.id,
      ]),
    );
    await engine.test.db.platform((sql) =>
      finishOutboxBatch(sql, 'w1', [
        { id: bouncedRow.id, kind: 'failed', errorClass: 'rejected', suppress: true },
      ]),
    );
    // The erasure.
    await engine.test.db.tenant(engine.company.companyId, (sql) => eraseSubscriber(sql, scope(), erased));
    // A CSV import saying no for a known subscriber.
    const email = await engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ email: string }>('SELECT email FROM subscribers WHERE id = $1', [
        imported,
      ]);
      return rows[0]!.email;
    });
    await runImport(`email,subscribed\n${email},no\n`, 1);

    // Nothing ran in the engine: the exits happened in the changes' own transactions.
    const after = await enrolments(flowId);
    const byPerson = new Map(after.map((row) => [row.subscriber_id, row]));
    const reasons = [
      [clicker, 'unsubscribed'],
      [edited, 'unsubscribed'],
      [bounced, 'suppressed'],
      [imported, 'unsubscribed'],
    ] as const;
    for (const [person, reason] of reasons) {
      expect(byPerson.get(person)).toMatchObject({
        status: 'exited',
        exit_reason: reason,
        current_key: 'w',
        next_run_at: null,
      });
    }
    const erasedRow = after.find((row) => row.id === before[3]!.id)!;
    expect(erasedRow).toMatchObject({
      subscriber_id: null,
      status: 'exited',
      exit_reason: 'deleted',
      current_key: 'w',
    });
    // The step they were waiting at is closed with the reason; the others' are untouched.
    const steps = await openSteps(before.map((row) => row.id));
    expect(steps.map((row) => [row.outcome, row.done])).toEqual([
      ['unsubscribed', true],
      ['unsubscribed', true],
      ['suppressed', true],
      ['deleted', true],
      ['unsubscribed', true],
      [null, false],
      [null, false],
    ]);
    for (const person of [stayer, other]) {
      const was = before.find((row) => row.subscriber_id === person)!;
      expect(byPerson.get(person)).toEqual(was);
    }
    const counts = await flowEngineService(engine.test.db).nodeCounts(engine.company.companyId, flowId);
    expect(counts.counts.w).toEqual({ entered: 7, waiting: 2, completed: 5, exited: 5 });

    // When the wait ends only the two still in the flow get the second email.
    clock.advance(3 * DAY);
    await runner().tick();
    const sentB = await engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ subscriber_id: number }>(
        `SELECT subscriber_id::int FROM flow_enrolment_steps WHERE flow_id = $1 AND key = 'b' AND outcome = 'sent'
         ORDER BY subscriber_id`,
        [flowId],
      );
      return rows.map((row) => row.subscriber_id);
    });
    expect(sentB).toEqual([stayer, other].sort((a, b) => a - b));
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  it('a complaint and a suppression added by hand end the enrolments at once; an unsubscribe entry alone does not', async () => {
    startClock();
    const { flowId } = await engine.liveFlow(graphOf(engine.company.templateId));
    const people: number[] = [];
    for (let i = 0; i < 4; i += 1)
      people.push((await makeSubscriber(engine.test.db, engine.company.companyId)).id);
    const [complained, byHand, listed, stayer] = people as [number, number, number, number];
    await runner().tick();
    const before = await enrolments(flowId);
    const emailOf = async (id: number) =>
      engine.test.db.owner(async (sql) => {
        const { rows } = await sql.query<{ email: string }>('SELECT email FROM subscribers WHERE id = $1', [
          id,
        ]);
        return rows[0]!.email;
      });
    // A feedback report's complaint (with its run), a manual suppression (no run, address in other case), and an
    // unsubscribe entry written without its caller's exit (that caller exits people as `unsubscribed` itself).
    const runId = await engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ run_id: number }>(
        `SELECT o.run_id::int FROM mail_outbox o JOIN mail_runs r ON r.id = o.run_id
         WHERE r.source_id = $1 AND o.subscriber_id = $2`,
        [flowId, complained],
      );
      return rows[0]!.run_id;
    });
    const complainedEmail = await emailOf(complained);
    const byHandEmail = (await emailOf(byHand)).toUpperCase();
    const listedEmail = await emailOf(listed);
    await engine.test.db.tenant(engine.company.companyId, async (sql) => {
      await suppressAddress(sql, engine.company.companyId, complainedEmail, 'complained', runId);
      await suppressAddress(sql, engine.company.companyId, byHandEmail, 'bounced', null);
      await suppressAddress(sql, engine.company.companyId, listedEmail, 'unsubscribed', null);
    });

    const after = await enrolments(flowId);
    const byPerson = new Map(after.map((row) => [row.subscriber_id, row]));
    for (const person of [complained, byHand]) {
      expect(byPerson.get(person)).toMatchObject({
        status: 'exited',
        exit_reason: 'suppressed',
        current_key: 'w',
        next_run_at: null,
      });
    }
    for (const person of [listed, stayer]) {
      expect(byPerson.get(person)).toEqual(before.find((row) => row.subscriber_id === person));
    }
    const steps = await openSteps(people.map((person) => byPerson.get(person)!.id));
    expect(steps.map((row) => [row.outcome, row.done])).toEqual([
      ['suppressed', true],
      ['suppressed', true],
      [null, false],
      [null, false],
    ]);
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  it('deleting a flow exits its people, cancels its unsent mail and keeps the sends the frequency cap counts', async () => {
    const clock = startClock();
    const { flowId } = await engine.liveFlow(longGraphOf(engine.company.templateId));
    const kept = await engine.liveFlow(graphOf(engine.company.templateId));
    const person = (await makeSubscriber(engine.test.db, engine.company.companyId)).id;
    await runner().tick();
    // The first email of the flow to delete goes out; its second is frozen but not sent yet when it is deleted.
    const first = (await outboxOf(flowId, person))[0]!;
    await engine.test.db.owner(async (sql) => {
      await sql.query(`UPDATE mail_outbox SET status = 'sent', sent_at = now() WHERE id = $1`, [first.id]);
      await sql.query(
        `UPDATE mail_runs SET status = 'sent' WHERE id = (SELECT run_id FROM mail_outbox WHERE id = $1)`,
        [first.id],
      );
    });
    clock.advance(2 * DAY);
    await runner().tick();
    expect((await outboxOf(flowId, person)).map((row) => row.status)).toEqual(['sent', 'queued']);
    const keptBefore = await enrolments(kept.flowId);
    const enrolmentId = (await enrolments(flowId))[0]!.id;
    const week = () =>
      engine.test.db.tenant(engine.company.companyId, (sql) =>
        marketingEmailsBetween(
          sql,
          engine.company.companyId,
          person,
          new Date(clock.now().getTime() - 7 * DAY * 1000),
          clock.now(),
        ),
      );
    // Two emails of each flow.
    expect(await week()).toBe(4);

    await flowsService(engine.test.db).remove(scope(), flowId);

    const row = await engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<EnrolmentRow & { version: number | null }>(
        `SELECT id::int, flow_id::int, status, exit_reason, flow_version_id AS version FROM flow_enrolments WHERE id = $1`,
        [enrolmentId],
      );
      return rows[0];
    });
    expect(row).toMatchObject({
      flow_id: null,
      version: null,
      status: 'exited',
      exit_reason: 'flow_deleted',
    });
    const mail = await engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ run: string; outbox: string; step: string }>(
        `SELECT r.status AS run, o.status AS outbox, st.outcome AS step
         FROM mail_runs r JOIN mail_outbox o ON o.run_id = r.id JOIN flow_enrolment_steps st ON st.mail_run_id = r.id
         WHERE r.kind = 'flow' AND r.source_id = $1 ORDER BY o.id`,
        [flowId],
      );
      return rows;
    });
    expect(mail).toEqual([
      { run: 'sent', outbox: 'sent', step: 'sent' },
      { run: 'cancelled', outbox: 'cancelled', step: 'cancelled' },
    ]);
    // The email that went out still counts against the cap; the cancelled one no longer does.
    expect(await week()).toBe(3);
    expect(await enrolments(kept.flowId)).toEqual(keptBefore);
    await setFlowStatus(engine.test.db, engine.company.companyId, kept.flowId, 'paused');
  });

  it('narrowing a live flow to other locations exits the people enrolled elsewhere as out_of_scope', async () => {
    startClock();
    const north = (await makeLocation(engine.test.db, engine.company.companyId, 'North')).id;
    const { flowId } = await engine.liveFlow(graphOf(engine.company.templateId));
    const atHarbor = (
      await makeSubscriber(engine.test.db, engine.company.companyId, {
        source_location_id: engine.company.locationId,
      })
    ).id;
    const atNorth = (
      await makeSubscriber(engine.test.db, engine.company.companyId, { source_location_id: north })
    ).id;
    const nowhere = (await makeSubscriber(engine.test.db, engine.company.companyId)).id;
    await runner().tick();
    await flowsService(engine.test.db).update(scope(), flowId, { location_ids: [north] });
    const rows = await enrolments(flowId);
    const of = (person: number) => rows.find((row) => row.subscriber_id === person);
    expect(of(atHarbor)).toMatchObject({ status: 'exited', exit_reason: 'out_of_scope' });
    expect(of(nowhere)).toMatchObject({ status: 'exited', exit_reason: 'out_of_scope' });
    expect(of(atNorth)).toMatchObject({ status: 'active', exit_reason: null, current_key: 'w' });
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  it('a CSV import raises one new_subscriber event per new subscriber, none for the known ones', async () => {
    startClock();
    const { flowId } = await engine.liveFlow(graphOf(engine.company.templateId));
    const known = await makeSubscriber(engine.test.db, engine.company.companyId, {
      email: 'known@import.example',
    });
    await runner().tick(); // the known one enrols from their own creation
    const lines = ['email', 'known@import.example'];
    for (let i = 0; i < 40; i += 1) lines.push(`new${i}@import.example`);
    await runImport(`${lines.join('\n')}\n`, lines.length - 1);
    const events = await engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ email: string }>(
        `SELECT s.email FROM flow_events e JOIN subscribers s ON s.id = e.subscriber_id
         WHERE e.company_id = $1 AND e.kind = 'subscriber_created' AND s.email LIKE '%@import.example'
         ORDER BY s.email`,
        [engine.company.companyId],
      );
      return rows.map((row) => row.email);
    });
    const expected = lines.slice(1).filter((email) => email !== known.email);
    expect(events).toEqual(['known@import.example', ...expected].sort());
    await runner().tick();
    const enrolled = (await enrolments(flowId)).filter((row) => row.status === 'active');
    expect(enrolled).toHaveLength(expected.length + 1);
    await setFlowStatus(engine.test.db, engine.company.companyId, flowId, 'paused');
  });

  /** Runs a subscriber CSV through the import runner, as an upload does. */
  async function runImport(file: string, read: number): Promise<void> {
    const companyId = engine.company.companyId;
    const id = await engine.test.db.tenant(companyId, (sql) =>
      createImportJob(sql, scope(), {
        kind: 'subscriber',
        fileName: 'people.csv',
        header: file.split('\n')[0]!.split(','),
      }),
    );
    await engine.test.db.tenant(companyId, (sql) =>
      storeImportChunk(sql, companyId, id, { seq: 1, text: file }, { bytes: file.length, read }),
    );
    await engine.test.db.tenant(companyId, (sql) =>
      queueImportJob(sql, companyId, id, { bytes: file.length, read }),
    );
    const imports = importRunner(engine.test.db, silentLog);
    imports.start();
    imports.wake();
    await imports.waitFor(id, 60_000);
    await imports.stop();
    const status = await engine.test.db.owner(async (sql) => {
      const { rows } = await sql.query<{ status: string }>('SELECT status FROM import_jobs WHERE id = $1', [
        id,
      ]);
      return rows[0]!.status;
    });
    expect(status).toBe('done');
  }
});
