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
    const flow = await db.tenant(scope.companyId, (sql) =>
      createFlow(sql, scope, { name: 'Welcome series' }),
    );
    expect(flow).toMatchObject({ company_id: companyA, status: 'draft' });
    expect(await db.tenant(companyA, (sql) => getFlowSequence(sql, companyA, flow.id))).toEqual([]);

    const trigger = await db.tenant(scope.companyId, (sql) =>
      addFlowTrigger(sql, scope, flow.id, {
        kind: 'subscribed',
        config: { list_ids: [1, 2] },
      }),
    );
    expect(trigger).toMatchObject({ position: 0, kind: 'trigger', action: null, delay: null });
    expect(trigger?.trigger).toEqual({
      id: trigger?.trigger_id,
      company_id: companyA,
      flow_id: flow.id,
      kind: 'subscribed',
      config: { list_ids: [1, 2] },
    });
    await db.tenant(scope.companyId, (sql) =>
      addFlowAction(sql, scope, flow.id, {
        kind: 'send_email',
        config: { template_id: 7, subject: 'Welcome!' },
      }),
    );
    const delay = await db.tenant(scope.companyId, (sql) =>
      addFlowDelay(sql, scope, flow.id, { duration_seconds: 86400 }),
    );
    expect(delay?.delay).toMatchObject({ duration_seconds: 86400, flow_id: flow.id });
    await db.tenant(scope.companyId, (sql) => addFlowAction(sql, scope, flow.id, { kind: 'tag' }));

    const full = await db.tenant(companyA, (sql) => getFlow(sql, companyA, flow.id));
    expect(shape(full?.items)).toEqual([
      '0:trigger:subscribed',
      '1:action:send_email',
      '2:delay:86400s',
      '3:action:tag',
    ]);
    expect(full?.items[1]?.action?.config).toEqual({ template_id: 7, subject: 'Welcome!' });
    expect(full?.items[3]?.action?.config).toEqual({});
    expect(
      await db.tenant(scope.companyId, (sql) => addFlowTrigger(sql, scope, 0, { kind: 'nothing' })),
    ).toBeNull();
  });

  it('updates steps in place and moves items, shifting the steps between', async () => {
    const scope = systemScope(companyA);
    const flow = await db.tenant(scope.companyId, (sql) => createFlow(sql, scope, { name: 'Birthday' }));
    const trigger = (await db.tenant(scope.companyId, (sql) =>
      addFlowTrigger(sql, scope, flow.id, { kind: 'birthday' }),
    ))!;
    const action = (await db.tenant(scope.companyId, (sql) =>
      addFlowAction(sql, scope, flow.id, { kind: 'send_email' }),
    ))!;
    const delay = (await db.tenant(scope.companyId, (sql) =>
      addFlowDelay(sql, scope, flow.id, { duration_seconds: 60 }),
    ))!;

    expect(
      await db.tenant(scope.companyId, (sql) =>
        updateFlowTrigger(sql, scope, trigger.trigger_id!, { config: { days_before: 3 } }),
      ),
    ).toMatchObject({
      kind: 'birthday',
      config: { days_before: 3 },
    });
    expect(
      await db.tenant(scope.companyId, (sql) =>
        updateFlowAction(sql, scope, action.action_id!, { kind: 'send_sms' }),
      ),
    ).toMatchObject({
      kind: 'send_sms',
    });
    expect(
      await db.tenant(scope.companyId, (sql) =>
        updateFlowDelay(sql, scope, delay.delay_id!, { duration_seconds: 3600 }),
      ),
    ).toMatchObject({
      duration_seconds: 3600,
    });
    expect(
      await db.tenant(scope.companyId, (sql) =>
        updateFlowTrigger(sql, scope, action.action_id! + 100000, { kind: 'x' }),
      ),
    ).toBeNull();

    let sequence = await db.tenant(scope.companyId, (sql) =>
      updateFlowItem(sql, scope, delay.id, { position: 0 }),
    );
    expect(shape(sequence)).toEqual(['0:delay:3600s', '1:trigger:birthday', '2:action:send_sms']);
    sequence = await db.tenant(scope.companyId, (sql) =>
      updateFlowItem(sql, scope, delay.id, { position: 99 }),
    );
    expect(shape(sequence)).toEqual(['0:trigger:birthday', '1:action:send_sms', '2:delay:3600s']);
    sequence = await db.tenant(scope.companyId, (sql) =>
      updateFlowItem(sql, scope, trigger.id, { position: 1 }),
    );
    expect(shape(sequence)).toEqual(['0:action:send_sms', '1:trigger:birthday', '2:delay:3600s']);
    expect(shape(await db.tenant(companyA, (sql) => getFlowSequence(sql, companyA, flow.id)))).toEqual(
      shape(sequence),
    );
    expect(
      await db.tenant(scope.companyId, (sql) => updateFlowItem(sql, scope, 0, { position: 0 })),
    ).toBeNull();

    const moves = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'flow_item', entityId: trigger.id }),
    );
    expect(moves[0]).toMatchObject({ action: 'update', before: { position: 0 }, after: { position: 1 } });
  });

  it('deletes an item with its step and renumbers the rest from 0 in one transaction', async () => {
    const scope = systemScope(companyA);
    const flow = await db.tenant(scope.companyId, (sql) => createFlow(sql, scope, { name: 'Lapsed' }));
    const first = (await db.tenant(scope.companyId, (sql) =>
      addFlowTrigger(sql, scope, flow.id, { kind: 'lapsed' }),
    ))!;
    const second = (await db.tenant(scope.companyId, (sql) =>
      addFlowDelay(sql, scope, flow.id, { duration_seconds: 10 }),
    ))!;
    await db.tenant(scope.companyId, (sql) => addFlowAction(sql, scope, flow.id, { kind: 'send_email' }));
    await db.tenant(scope.companyId, (sql) => addFlowAction(sql, scope, flow.id, { kind: 'notify' }));
    const delaysBefore = await countRows(db, 'flow_delays', companyA);

    const remaining = await db.tenant(scope.companyId, (sql) => deleteFlowItem(sql, scope, second.id));
    expect(shape(remaining)).toEqual(['0:trigger:lapsed', '1:action:send_email', '2:action:notify']);
    expect(await countRows(db, 'flow_delays', companyA)).toBe(delaysBefore - 1);
    expect(await db.tenant(scope.companyId, (sql) => deleteFlowItem(sql, scope, second.id))).toBeNull();

    expect(shape(await db.tenant(scope.companyId, (sql) => deleteFlowItem(sql, scope, first.id)))).toEqual([
      '0:action:send_email',
      '1:action:notify',
    ]);
    // Appending after deletions continues from the renumbered end.
    const appended = await db.tenant(scope.companyId, (sql) =>
      addFlowDelay(sql, scope, flow.id, { duration_seconds: 5 }),
    );
    expect(appended?.position).toBe(2);
  });

  it('lists newest first, renames, changes status and deletes a flow with everything in it', async () => {
    const scope = systemScope(companyA);
    const older = await db.tenant(scope.companyId, (sql) => createFlow(sql, scope, { name: 'Older 100%' }));
    const newer = await db.tenant(scope.companyId, (sql) =>
      createFlow(sql, scope, { name: 'Newer', status: 'active' }),
    );
    const page = await db.tenant(companyA, (sql) => listFlows(sql, companyA, { limit: 2, offset: 0 }));
    expect(page.rows.map((row) => row.id)).toEqual([newer.id, older.id]);
    expect(page.count).toBeGreaterThanOrEqual(5);
    expect(
      (
        await db.tenant(companyA, (sql) => listFlows(sql, companyA, { q: '100%', limit: 10, offset: 0 }))
      ).rows.map((r) => r.id),
    ).toEqual([older.id]);

    const updated = await db.tenant(scope.companyId, (sql) =>
      updateFlow(sql, scope, older.id, { status: 'paused' }),
    );
    expect(updated).toMatchObject({ name: 'Older 100%', status: 'paused' });
    expect(
      (await db.tenant(scope.companyId, (sql) => updateFlow(sql, scope, older.id, { name: 'Renamed' })))
        ?.status,
    ).toBe('paused');
    expect(
      await db.tenant(scope.companyId, (sql) => updateFlow(sql, scope, 0, { name: 'Nothing' })),
    ).toBeNull();

    await db.tenant(scope.companyId, (sql) => addFlowTrigger(sql, scope, older.id, { kind: 'visit' }));
    await db.tenant(scope.companyId, (sql) => addFlowDelay(sql, scope, older.id, { duration_seconds: 1 }));
    const items = await countRows(db, 'flow_items', companyA);
    expect(await db.tenant(scope.companyId, (sql) => deleteFlow(sql, scope, older.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getFlow(sql, companyA, older.id))).toBeNull();
    expect(await db.tenant(companyA, (sql) => getFlowSequence(sql, companyA, older.id))).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => deleteFlow(sql, scope, older.id))).toBe(false);
    expect(await countRows(db, 'flow_items', companyA)).toBe(items - 2);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'flow', entityId: older.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'update', 'create']);
    expect((audit[0]?.before as { items: unknown[] }).items).toHaveLength(2);
  });

  it("never reads or changes another company's flows or steps, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const b = systemScope(companyB);
      const theirs = await guarded.tenant(b.companyId, (sql) => createFlow(sql, b, { name: 'Theirs' }));
      const theirTrigger = (await guarded.tenant(b.companyId, (sql) =>
        addFlowTrigger(sql, b, theirs.id, { kind: 'visit' }),
      ))!;
      const theirAction = (await guarded.tenant(b.companyId, (sql) =>
        addFlowAction(sql, b, theirs.id, { kind: 'send_email' }),
      ))!;
      const theirDelay = (await guarded.tenant(b.companyId, (sql) =>
        addFlowDelay(sql, b, theirs.id, { duration_seconds: 30 }),
      ))!;
      const theirView = await guarded.tenant(companyB, (sql) => getFlow(sql, companyB, theirs.id));

      const a = systemScope(companyA);
      expect(
        (
          await guarded.tenant(companyA, (sql) => listFlows(sql, companyA, { limit: 1000, offset: 0 }))
        ).rows.every((r) => r.company_id === companyA),
      ).toBe(true);
      expect(await guarded.tenant(companyA, (sql) => getFlow(sql, companyA, theirs.id))).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => getFlowSequence(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) => updateFlow(sql, a, theirs.id, { name: 'Taken' })),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) => addFlowTrigger(sql, a, theirs.id, { kind: 'sneaky' })),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) => addFlowAction(sql, a, theirs.id, { kind: 'sneaky' })),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) => addFlowDelay(sql, a, theirs.id, { duration_seconds: 1 })),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) =>
          updateFlowTrigger(sql, a, theirTrigger.trigger_id!, { kind: 'sneaky' }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) =>
          updateFlowAction(sql, a, theirAction.action_id!, { kind: 'sneaky' }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) =>
          updateFlowDelay(sql, a, theirDelay.delay_id!, { duration_seconds: 1 }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(a.companyId, (sql) => updateFlowItem(sql, a, theirDelay.id, { position: 0 })),
      ).toBeNull();
      expect(await guarded.tenant(a.companyId, (sql) => deleteFlowItem(sql, a, theirAction.id))).toBeNull();
      expect(await guarded.tenant(a.companyId, (sql) => deleteFlow(sql, a, theirs.id))).toBe(false);

      expect(await guarded.tenant(companyB, (sql) => getFlow(sql, companyB, theirs.id))).toEqual(theirView);
    }
  });
});
