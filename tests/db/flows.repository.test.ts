import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import {
  addFlowAction,
  addFlowDelay,
  addFlowTrigger,
  createFlow,
  deleteFlow,
  deleteFlowItem,
  getFlow,
  getFlowSequence,
  listFlows,
  updateFlow,
  updateFlowAction,
  updateFlowDelay,
  updateFlowItem,
  updateFlowTrigger,
  type FlowItemRow,
} from '../../server/repositories/flows.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

/** A readable picture of a sequence: position and what each step is. */
function shape(items: FlowItemRow[] | null | undefined): string[] {
  return (items ?? []).map((item) => {
    const label = item.trigger?.kind ?? item.action?.kind ?? `${item.delay?.duration_seconds}s`;
    return `${item.position}:${item.kind}:${label}`;
  });
}

describe('flows repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('appends triggers, actions and delays to the end and reads the sequence joined to its steps', async () => {
    const scope = systemScope(companyA);
    const flow = await createFlow(db, scope, { name: 'Welcome series' });
    expect(flow).toMatchObject({ company_id: companyA, status: 'draft' });
    expect(await getFlowSequence(db, companyA, flow.id)).toEqual([]);

    const trigger = await addFlowTrigger(db, scope, flow.id, {
      kind: 'subscribed',
      config: { list_ids: [1, 2] },
    });
    expect(trigger).toMatchObject({ position: 0, kind: 'trigger', action: null, delay: null });
    expect(trigger?.trigger).toEqual({
      id: trigger?.trigger_id,
      company_id: companyA,
      flow_id: flow.id,
      kind: 'subscribed',
      config: { list_ids: [1, 2] },
    });
    await addFlowAction(db, scope, flow.id, {
      kind: 'send_email',
      config: { template_id: 7, subject: 'Welcome!' },
    });
    const delay = await addFlowDelay(db, scope, flow.id, { duration_seconds: 86400 });
    expect(delay?.delay).toMatchObject({ duration_seconds: 86400, flow_id: flow.id });
    await addFlowAction(db, scope, flow.id, { kind: 'tag' });

    const full = await getFlow(db, companyA, flow.id);
    expect(shape(full?.items)).toEqual([
      '0:trigger:subscribed',
      '1:action:send_email',
      '2:delay:86400s',
      '3:action:tag',
    ]);
    expect(full?.items[1]?.action?.config).toEqual({ template_id: 7, subject: 'Welcome!' });
    expect(full?.items[3]?.action?.config).toEqual({});
    expect(await addFlowTrigger(db, scope, 0, { kind: 'nothing' })).toBeNull();
  });

  it('updates steps in place and moves items, shifting the steps between', async () => {
    const scope = systemScope(companyA);
    const flow = await createFlow(db, scope, { name: 'Birthday' });
    const trigger = (await addFlowTrigger(db, scope, flow.id, { kind: 'birthday' }))!;
    const action = (await addFlowAction(db, scope, flow.id, { kind: 'send_email' }))!;
    const delay = (await addFlowDelay(db, scope, flow.id, { duration_seconds: 60 }))!;

    expect(
      await updateFlowTrigger(db, scope, trigger.trigger_id!, { config: { days_before: 3 } }),
    ).toMatchObject({
      kind: 'birthday',
      config: { days_before: 3 },
    });
    expect(await updateFlowAction(db, scope, action.action_id!, { kind: 'send_sms' })).toMatchObject({
      kind: 'send_sms',
    });
    expect(await updateFlowDelay(db, scope, delay.delay_id!, { duration_seconds: 3600 })).toMatchObject({
      duration_seconds: 3600,
    });
    expect(await updateFlowTrigger(db, scope, action.action_id! + 100000, { kind: 'x' })).toBeNull();

    let sequence = await updateFlowItem(db, scope, delay.id, { position: 0 });
    expect(shape(sequence)).toEqual(['0:delay:3600s', '1:trigger:birthday', '2:action:send_sms']);
    sequence = await updateFlowItem(db, scope, delay.id, { position: 99 });
    expect(shape(sequence)).toEqual(['0:trigger:birthday', '1:action:send_sms', '2:delay:3600s']);
    sequence = await updateFlowItem(db, scope, trigger.id, { position: 1 });
    expect(shape(sequence)).toEqual(['0:action:send_sms', '1:trigger:birthday', '2:delay:3600s']);
    expect(shape(await getFlowSequence(db, companyA, flow.id))).toEqual(shape(sequence));
    expect(await updateFlowItem(db, scope, 0, { position: 0 })).toBeNull();

    const moves = await listAudit(db, companyA, { entity: 'flow_item', entityId: trigger.id });
    expect(moves[0]).toMatchObject({ action: 'update', before: { position: 0 }, after: { position: 1 } });
  });

  it('deletes an item with its step and renumbers the rest from 0 in one transaction', async () => {
    const scope = systemScope(companyA);
    const flow = await createFlow(db, scope, { name: 'Lapsed' });
    const first = (await addFlowTrigger(db, scope, flow.id, { kind: 'lapsed' }))!;
    const second = (await addFlowDelay(db, scope, flow.id, { duration_seconds: 10 }))!;
    await addFlowAction(db, scope, flow.id, { kind: 'send_email' });
    await addFlowAction(db, scope, flow.id, { kind: 'notify' });
    const delaysBefore = await countRows(db, 'flow_delays', companyA);

    const remaining = await deleteFlowItem(db, scope, second.id);
    expect(shape(remaining)).toEqual(['0:trigger:lapsed', '1:action:send_email', '2:action:notify']);
    expect(await countRows(db, 'flow_delays', companyA)).toBe(delaysBefore - 1);
    expect(await deleteFlowItem(db, scope, second.id)).toBeNull();

    expect(shape(await deleteFlowItem(db, scope, first.id))).toEqual([
      '0:action:send_email',
      '1:action:notify',
    ]);
    // Appending after deletions continues from the renumbered end.
    const appended = await addFlowDelay(db, scope, flow.id, { duration_seconds: 5 });
    expect(appended?.position).toBe(2);
  });

  it('lists newest first, renames, changes status and deletes a flow with everything in it', async () => {
    const scope = systemScope(companyA);
    const older = await createFlow(db, scope, { name: 'Older 100%' });
    const newer = await createFlow(db, scope, { name: 'Newer', status: 'active' });
    const page = await listFlows(db, companyA, { limit: 2, offset: 0 });
    expect(page.rows.map((row) => row.id)).toEqual([newer.id, older.id]);
    expect(page.count).toBeGreaterThanOrEqual(5);
    expect(
      (await listFlows(db, companyA, { q: '100%', limit: 10, offset: 0 })).rows.map((r) => r.id),
    ).toEqual([older.id]);

    const updated = await updateFlow(db, scope, older.id, { status: 'paused' });
    expect(updated).toMatchObject({ name: 'Older 100%', status: 'paused' });
    expect((await updateFlow(db, scope, older.id, { name: 'Renamed' }))?.status).toBe('paused');
    expect(await updateFlow(db, scope, 0, { name: 'Nothing' })).toBeNull();

    await addFlowTrigger(db, scope, older.id, { kind: 'visit' });
    await addFlowDelay(db, scope, older.id, { duration_seconds: 1 });
    const items = await countRows(db, 'flow_items', companyA);
    expect(await deleteFlow(db, scope, older.id)).toBe(true);
    expect(await getFlow(db, companyA, older.id)).toBeNull();
    expect(await getFlowSequence(db, companyA, older.id)).toBeNull();
    expect(await deleteFlow(db, scope, older.id)).toBe(false);
    expect(await countRows(db, 'flow_items', companyA)).toBe(items - 2);

    const audit = await listAudit(db, companyA, { entity: 'flow', entityId: older.id });
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'update', 'create']);
    expect((audit[0]?.before as { items: unknown[] }).items).toHaveLength(2);
  });

  it("never reads or changes another company's flows or steps, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const b = systemScope(companyB);
      const theirs = await createFlow(guarded, b, { name: 'Theirs' });
      const theirTrigger = (await addFlowTrigger(guarded, b, theirs.id, { kind: 'visit' }))!;
      const theirAction = (await addFlowAction(guarded, b, theirs.id, { kind: 'send_email' }))!;
      const theirDelay = (await addFlowDelay(guarded, b, theirs.id, { duration_seconds: 30 }))!;
      const theirView = await getFlow(guarded, companyB, theirs.id);

      const a = systemScope(companyA);
      expect(
        (await listFlows(guarded, companyA, { limit: 1000, offset: 0 })).rows.every(
          (r) => r.company_id === companyA,
        ),
      ).toBe(true);
      expect(await getFlow(guarded, companyA, theirs.id)).toBeNull();
      expect(await getFlowSequence(guarded, companyA, theirs.id)).toBeNull();
      expect(await updateFlow(guarded, a, theirs.id, { name: 'Taken' })).toBeNull();
      expect(await addFlowTrigger(guarded, a, theirs.id, { kind: 'sneaky' })).toBeNull();
      expect(await addFlowAction(guarded, a, theirs.id, { kind: 'sneaky' })).toBeNull();
      expect(await addFlowDelay(guarded, a, theirs.id, { duration_seconds: 1 })).toBeNull();
      expect(await updateFlowTrigger(guarded, a, theirTrigger.trigger_id!, { kind: 'sneaky' })).toBeNull();
      expect(await updateFlowAction(guarded, a, theirAction.action_id!, { kind: 'sneaky' })).toBeNull();
      expect(await updateFlowDelay(guarded, a, theirDelay.delay_id!, { duration_seconds: 1 })).toBeNull();
      expect(await updateFlowItem(guarded, a, theirDelay.id, { position: 0 })).toBeNull();
      expect(await deleteFlowItem(guarded, a, theirAction.id)).toBeNull();
      expect(await deleteFlow(guarded, a, theirs.id)).toBe(false);

      expect(await getFlow(guarded, companyB, theirs.id)).toEqual(theirView);
    }
  });
});
