import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FlowApiErrorSchema,
  FlowItemResultSchema,
  FlowPageSchema,
  FlowSchema,
  FlowSequenceSchema,
  type FlowGraphItem,
} from '../../src/schemas/flows.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { makeCampaignFixture, type CampaignFixture } from '../support/campaign-fixture.js';

/** The welcome flow of issue 16: first visit → wait 2 days → welcome → wait 7 days → visited? no: win-back. */
function welcomeGraph(fixture: CampaignFixture): FlowGraphItem[] {
  const email = (templateId: number | null, subject: string) => ({
    type: 'send_email' as const,
    template_id: templateId,
    sender_id: fixture.senderId,
    subject,
    preheader: '',
  });
  const at = (y: number) => ({ x: 0, y });
  return [
    {
      key: 'start',
      kind: 'trigger',
      settings: { type: 'first_visit' },
      position: at(0),
      next_key: 'wait2',
      no_key: null,
    },
    {
      key: 'wait2',
      kind: 'delay',
      settings: { type: 'wait', amount: 2, unit: 'days' },
      position: at(120),
      next_key: 'welcome',
      no_key: null,
    },
    {
      key: 'welcome',
      kind: 'action',
      settings: email(fixture.templateId, 'Welcome'),
      position: at(240),
      next_key: 'wait7',
      no_key: null,
    },
    {
      key: 'wait7',
      kind: 'delay',
      settings: { type: 'wait', amount: 7, unit: 'days' },
      position: at(360),
      next_key: 'visited',
      no_key: null,
    },
    {
      key: 'visited',
      kind: 'action',
      settings: { type: 'condition', rule: { condition: 'visited_since_entering' } },
      position: at(480),
      next_key: 'done',
      no_key: 'winback',
    },
    {
      key: 'done',
      kind: 'action',
      settings: { type: 'exit' },
      position: { x: -150, y: 600 },
      next_key: null,
      no_key: null,
    },
    {
      key: 'winback',
      kind: 'action',
      settings: email(fixture.templateId, 'We miss you'),
      position: { x: 150, y: 600 },
      next_key: null,
      no_key: null,
    },
  ];
}

/** A graph as the API answers it, without the ids: what a save or a copy must give back. */
const nodesOf = <Item extends { id: number; flow_id: number }>(items: Item[]) =>
  items.map(({ id: _id, flow_id: _flowId, ...node }) => node);

describe('Flows API', () => {
  let t: TestApp;
  let company: ApiCaller;
  let marketer: UserCaller;
  let analyst: UserCaller;
  let other: ApiCaller;
  let mine: CampaignFixture;
  let theirs: CampaignFixture;

  beforeAll(async () => {
    t = await openTestApp();
    company = await t.newCaller('Flow Co');
    marketer = await t.newUser(company.companyId, 'marketer');
    analyst = await t.newUser(company.companyId, 'analyst');
    other = await t.newCaller('Other Flow Co');
    mine = await makeCampaignFixture(t.database.db, company.companyId, {
      seed: 21,
      guests: 8,
      subscribers: 8,
    });
    theirs = await makeCampaignFixture(t.database.db, other.companyId, {
      seed: 22,
      guests: 4,
      subscribers: 4,
    });
  });
  afterAll(() => t.close());

  const call = (
    caller: { headers: { authorization: string } } | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url: `/api${url}`, payload, headers: caller?.headers ?? {} });

  async function createFlow(caller: ApiCaller, body: object) {
    const created = await call(caller, 'POST', '/campaigns/flows/', body);
    expect(created.statusCode, created.body).toBe(201);
    return FlowSchema.parse(created.json());
  }

  const versionsOf = (flowId: number) =>
    t.database.db.owner(async (sql) => {
      const { rows } = await sql.query<{ version: number; graph: FlowGraphItem[] }>(
        'SELECT version, graph FROM flow_versions WHERE flow_id = $1 ORDER BY version',
        [flowId],
      );
      return rows;
    });

  const errorOf = (body: string) => FlowApiErrorSchema.parse(JSON.parse(body)).error;

  it('answers 401 without credentials on every call', async () => {
    const calls: [Parameters<typeof call>[1], string][] = [
      ['GET', '/campaigns/flows/'],
      ['POST', '/campaigns/flows/'],
      ['GET', '/campaigns/flows/1/'],
      ['PUT', '/campaigns/flows/1/'],
      ['DELETE', '/campaigns/flows/1/'],
      ['GET', '/campaigns/flows/sequence/1/'],
      ['POST', '/campaigns/flows/triggers/'],
      ['PUT', '/campaigns/flows/triggers/1/'],
      ['POST', '/campaigns/flows/actions/'],
      ['PUT', '/campaigns/flows/actions/1/'],
      ['POST', '/campaigns/flows/delays/'],
      ['PUT', '/campaigns/flows/delays/1/'],
      ['PUT', '/campaigns/flows/items/1/'],
      ['DELETE', '/campaigns/flows/items/1/'],
    ];
    for (const [method, url] of calls) {
      const response = await call(null, method, url, {});
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('creates a draft with a graph, reads, lists, saves and deletes it; analysts read but do not write', async () => {
    const graph = welcomeGraph(mine);
    const flow = await createFlow(marketer, {
      name: 'Welcome',
      items: graph,
      location_ids: [mine.locations[0]],
      location_group_ids: [mine.groupId],
    });
    expect(flow).toMatchObject({
      name: 'Welcome',
      status: 'draft',
      location_ids: [mine.locations[0]],
      location_group_ids: [mine.groupId],
      reentry: 'once',
      reentry_days: null,
      trigger_type: 'first_visit',
      version: null,
      has_unpublished_changes: false,
      revision: 0,
      in_flow: 0,
      emails_sent: 0,
      revenue_cents: null,
    });
    expect(nodesOf(flow.items)).toEqual(graph);
    expect(new Set(flow.items.map((item) => item.flow_id))).toEqual(new Set([flow.id]));

    const read = await call(analyst, 'GET', `/campaigns/flows/${flow.id}/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(JSON.parse(JSON.stringify(flow)));
    const sequence = FlowSequenceSchema.parse(
      (await call(analyst, 'GET', `/campaigns/flows/sequence/${flow.id}/`)).json(),
    );
    expect(sequence).toEqual({ flow_id: flow.id, revision: 0, items: flow.items });

    const empty = await createFlow(marketer, { name: 'Empty draft' });
    expect(empty).toMatchObject({ items: [], trigger_type: null, reentry: 'once' });

    const listed = FlowPageSchema.parse((await call(analyst, 'GET', '/campaigns/flows/')).json());
    expect(listed.results.map((row) => row.id)).toEqual([empty.id, flow.id]);
    expect(listed.results[1]).toEqual(
      Object.fromEntries(Object.entries(JSON.parse(JSON.stringify(flow))).filter(([key]) => key !== 'items')),
    );
    const searched = (await call(analyst, 'GET', '/campaigns/flows/?q=welc')).json();
    expect(searched.results.map((row: { id: number }) => row.id)).toEqual([flow.id]);
    const drafts = (await call(analyst, 'GET', '/campaigns/flows/?status=live')).json();
    expect(drafts.count).toBe(0);

    // A settings-only save keeps what it does not name.
    const renamed = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, {
      name: 'Welcome guests',
      reentry: 'after_days',
      reentry_days: 30,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Welcome guests',
      reentry: 'after_days',
      reentry_days: 30,
      location_ids: [mine.locations[0]],
      location_group_ids: [mine.groupId],
      revision: 0,
    });

    expect((await call(analyst, 'POST', '/campaigns/flows/', { name: 'No' })).statusCode).toBe(403);
    expect((await call(analyst, 'PUT', `/campaigns/flows/${flow.id}/`, { name: 'No' })).statusCode).toBe(403);
    expect((await call(analyst, 'DELETE', `/campaigns/flows/${flow.id}/`)).statusCode).toBe(403);

    expect((await call(marketer, 'DELETE', `/campaigns/flows/${empty.id}/`)).statusCode).toBe(204);
    expect((await call(marketer, 'GET', `/campaigns/flows/${empty.id}/`)).statusCode).toBe(404);
    expect((await call(marketer, 'DELETE', `/campaigns/flows/${empty.id}/`)).statusCode).toBe(404);
    const audit = await t.database.db.owner((sql) =>
      sql.query<{ action: string }>(
        "SELECT action FROM audit_log WHERE company_id = $1 AND entity = 'flow' AND entity_id = $2 ORDER BY id",
        [company.companyId, String(empty.id)],
      ),
    );
    expect(audit.rows.map((row) => row.action)).toEqual(['create', 'delete']);
  });

  it('refuses bad input naming the field', async () => {
    const flow = await createFlow(company, { name: 'Bad input' });
    const expectField = async (method: 'POST' | 'PUT', url: string, body: object, field: string) => {
      const response = await call(company, method, url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(Object.keys(errorOf(response.body).fields ?? {}), response.body).toContain(field);
    };
    await expectField('POST', '/campaigns/flows/', { name: '  ' }, 'name');
    await expectField('POST', '/campaigns/flows/', { name: 'x', reentry: 'twice' }, 'reentry');
    await expectField('POST', '/campaigns/flows/', { name: 'x', reentry: 'after_days' }, 'reentry_days');
    await expectField(
      'POST',
      '/campaigns/flows/delays/',
      { flow_id: flow.id, settings: { type: 'wait', amount: 0, unit: 'days' } },
      'settings.amount',
    );
    await expectField(
      'POST',
      '/campaigns/flows/triggers/',
      { flow_id: flow.id, settings: { type: 'full_moon' } },
      'settings.type',
    );
    await expectField(
      'POST',
      '/campaigns/flows/actions/',
      { flow_id: flow.id, key: 'has space', settings: { type: 'exit' } },
      'key',
    );
    await expectField(
      'POST',
      '/campaigns/flows/actions/',
      { flow_id: flow.id, settings: { type: 'webhook', url: 'ftp://example.com/x' } },
      'settings.url',
    );
    const graph = welcomeGraph(mine);
    await expectField(
      'PUT',
      `/campaigns/flows/${flow.id}/`,
      { items: [graph[0], { ...graph[1], key: 'start' }], revision: 0 },
      'items.1.key',
    );
    await expectField('PUT', `/campaigns/flows/${flow.id}/`, { items: graph }, 'revision');
    await expectField('PUT', `/campaigns/flows/${flow.id}/`, { status: 'archived' }, 'status');
    await expectField('PUT', `/campaigns/flows/abc/`, { name: 'x' }, 'id');
    // Nothing was written by any of them.
    const sequence = (await call(company, 'GET', `/campaigns/flows/sequence/${flow.id}/`)).json();
    expect(sequence).toEqual({ flow_id: flow.id, revision: 0, items: [] });
  });

  it('adds, edits, moves and deletes items, bumping the revision; links to a deleted item become null', async () => {
    const flow = await createFlow(marketer, { name: 'Item by item' });
    const trigger = await call(marketer, 'POST', '/campaigns/flows/triggers/', {
      flow_id: flow.id,
      key: 'start',
      settings: { type: 'joined_list', list_id: mine.lists[0] },
      next_key: 'wait',
    });
    expect(trigger.statusCode, trigger.body).toBe(201);
    const made = FlowItemResultSchema.parse(trigger.json());
    expect(made).toEqual({
      revision: 1,
      item: {
        id: made.item.id,
        flow_id: flow.id,
        key: 'start',
        kind: 'trigger',
        settings: { type: 'joined_list', list_id: mine.lists[0] },
        position: { x: 0, y: 0 },
        next_key: 'wait',
        no_key: null,
      },
    });
    const delay = FlowItemResultSchema.parse(
      (
        await call(marketer, 'POST', '/campaigns/flows/delays/', {
          flow_id: flow.id,
          key: 'wait',
          settings: { type: 'wait_until', weekday: 'fri', time: '10:00' },
          position: { x: 0, y: 100 },
          next_key: 'mail',
        })
      ).json(),
    );
    expect(delay.revision).toBe(2);
    // The server makes a key unique in the flow when the caller gives none.
    const action = await call(marketer, 'POST', '/campaigns/flows/actions/', {
      flow_id: flow.id,
      settings: { type: 'send_email', template_id: mine.templateId, subject: 'Hi' },
      position: { x: 0, y: 200 },
    });
    expect(action.statusCode, action.body).toBe(201);
    const mail = FlowItemResultSchema.parse(action.json());
    expect(mail.item.key).toBe('action-3');
    expect(mail.item.settings).toEqual({
      type: 'send_email',
      template_id: mine.templateId,
      sender_id: null,
      subject: 'Hi',
      preheader: '',
    });
    expect(mail.revision).toBe(3);
    // Point the delay at the server's key, then take a used key: 409.
    const relinked = await call(marketer, 'PUT', `/campaigns/flows/items/${delay.item.id}/`, {
      next_key: 'action-3',
    });
    expect(relinked.json()).toMatchObject({
      revision: 4,
      item: { next_key: 'action-3', position: { x: 0, y: 100 }, no_key: null },
    });
    const taken = await call(marketer, 'POST', '/campaigns/flows/actions/', {
      flow_id: flow.id,
      key: 'wait',
      settings: { type: 'exit' },
    });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken.body)).toMatchObject({
      code: 'flow_item_key_taken',
      fields: { key: expect.any(String) },
    });

    const edited = await call(marketer, 'PUT', `/campaigns/flows/actions/${mail.item.id}/`, {
      settings: {
        type: 'send_email',
        template_id: mine.templateId,
        subject: 'Hello again',
        preheader: 'New',
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      revision: 5,
      item: { settings: { subject: 'Hello again', preheader: 'New' } },
    });
    const trig = await call(marketer, 'PUT', `/campaigns/flows/triggers/${made.item.id}/`, {
      settings: { type: 'no_visit_for', days: 60 },
    });
    expect(trig.json()).toMatchObject({
      revision: 6,
      item: { settings: { type: 'no_visit_for', days: 60 } },
    });
    const waited = await call(marketer, 'PUT', `/campaigns/flows/delays/${delay.item.id}/`, {
      settings: { type: 'wait', amount: 3, unit: 'hours' },
    });
    expect(waited.json()).toMatchObject({
      revision: 7,
      item: { settings: { type: 'wait', amount: 3, unit: 'hours' } },
    });
    // The item calls name one kind: an action's id on the delays call is not found, and nothing changes.
    expect(
      (
        await call(marketer, 'PUT', `/campaigns/flows/delays/${mail.item.id}/`, {
          settings: { type: 'wait', amount: 1, unit: 'days' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call(marketer, 'PUT', `/campaigns/flows/triggers/${delay.item.id}/`, {
          settings: { type: 'first_visit' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await call(analyst, 'PUT', `/campaigns/flows/items/${delay.item.id}/`, { next_key: null })).statusCode,
    ).toBe(403);

    const deleted = await call(marketer, 'DELETE', `/campaigns/flows/items/${delay.item.id}/`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ revision: 8, item: { id: delay.item.id, key: 'wait' } });
    const sequence = FlowSequenceSchema.parse(
      (await call(marketer, 'GET', `/campaigns/flows/sequence/${flow.id}/`)).json(),
    );
    expect(sequence.revision).toBe(8);
    expect(sequence.items.map((item) => [item.key, item.next_key, item.no_key])).toEqual([
      ['start', null, null],
      ['action-3', null, null],
    ]);
    expect((await call(marketer, 'DELETE', `/campaigns/flows/items/${delay.item.id}/`)).statusCode).toBe(404);
    const read = (await call(marketer, 'GET', `/campaigns/flows/${flow.id}/`)).json();
    expect(read).toMatchObject({ revision: 8, trigger_type: 'no_visit_for' });

    // A condition's no path pointing at an item that goes away becomes null as well.
    const cond = FlowItemResultSchema.parse(
      (
        await call(marketer, 'POST', '/campaigns/flows/actions/', {
          flow_id: flow.id,
          key: 'ask',
          settings: { type: 'condition', rule: { condition: 'opened_last_email' } },
          next_key: 'action-3',
          no_key: 'bye',
        })
      ).json(),
    );
    const bye = FlowItemResultSchema.parse(
      (
        await call(marketer, 'POST', '/campaigns/flows/actions/', {
          flow_id: flow.id,
          key: 'bye',
          settings: { type: 'exit' },
        })
      ).json(),
    );
    await call(marketer, 'DELETE', `/campaigns/flows/items/${bye.item.id}/`);
    const after = (await call(marketer, 'GET', `/campaigns/flows/sequence/${flow.id}/`)).json();
    expect(after.items.find((item: { id: number }) => item.id === cond.item.id)).toMatchObject({
      next_key: 'action-3',
      no_key: null,
    });
  });

  it("answers 404 for another company's flow, item, template, list, segment, location, group and sender", async () => {
    const theirFlow = await createFlow(other, { name: 'Theirs', items: welcomeGraph(theirs) });
    const theirItem = theirFlow.items.find((item) => item.key === 'welcome')!;
    const theirDelay = theirFlow.items.find((item) => item.key === 'wait2')!;
    const theirTrigger = theirFlow.items.find((item) => item.key === 'start')!;
    const flow = await createFlow(company, { name: 'Mine' });
    const expect404 = async (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      body?: object,
      field?: string,
    ) => {
      const response = await call(company, method, url, body);
      expect(response.statusCode, `${method} ${url} ${response.body}`).toBe(404);
      if (field) expect(Object.keys(errorOf(response.body).fields ?? {})).toEqual([field]);
      expect(response.body).not.toContain('Theirs');
    };
    await expect404('GET', `/campaigns/flows/${theirFlow.id}/`);
    await expect404('GET', `/campaigns/flows/sequence/${theirFlow.id}/`);
    await expect404('PUT', `/campaigns/flows/${theirFlow.id}/`, { name: 'Taken' });
    await expect404('PUT', `/campaigns/flows/${theirFlow.id}/`, { status: 'live' });
    await expect404('DELETE', `/campaigns/flows/${theirFlow.id}/`);
    await expect404(
      'POST',
      '/campaigns/flows/actions/',
      { flow_id: theirFlow.id, settings: { type: 'exit' } },
      'flow_id',
    );
    await expect404('PUT', `/campaigns/flows/actions/${theirItem.id}/`, { settings: { type: 'exit' } });
    await expect404('PUT', `/campaigns/flows/delays/${theirDelay.id}/`, {
      settings: { type: 'wait', amount: 1, unit: 'days' },
    });
    await expect404('PUT', `/campaigns/flows/triggers/${theirTrigger.id}/`, {
      settings: { type: 'first_visit' },
    });
    await expect404('PUT', `/campaigns/flows/items/${theirItem.id}/`, { next_key: null });
    await expect404('DELETE', `/campaigns/flows/items/${theirItem.id}/`);

    const email = { type: 'send_email', template_id: theirs.templateId, subject: 'x' };
    await expect404(
      'POST',
      '/campaigns/flows/actions/',
      { flow_id: flow.id, settings: email },
      'settings.template_id',
    );
    await expect404(
      'POST',
      '/campaigns/flows/actions/',
      { flow_id: flow.id, settings: { ...email, template_id: mine.templateId, sender_id: theirs.senderId } },
      'settings.sender_id',
    );
    await expect404(
      'POST',
      '/campaigns/flows/actions/',
      { flow_id: flow.id, settings: { type: 'add_to_list', list_id: theirs.lists[0] } },
      'settings.list_id',
    );
    await expect404(
      'POST',
      '/campaigns/flows/triggers/',
      { flow_id: flow.id, settings: { type: 'entered_segment', segment_id: theirs.segmentId } },
      'settings.segment_id',
    );
    await expect404(
      'POST',
      '/campaigns/flows/triggers/',
      { flow_id: flow.id, settings: { type: 'visit_at_location', location_id: theirs.locations[0] } },
      'settings.location_id',
    );
    await expect404(
      'POST',
      '/campaigns/flows/actions/',
      {
        flow_id: flow.id,
        settings: { type: 'condition', rule: { condition: 'in_segment', segment_id: theirs.segmentId } },
      },
      'settings.rule.segment_id',
    );
    await expect404(
      'POST',
      '/campaigns/flows/',
      { name: 'x', location_ids: [theirs.locations[0]] },
      'location_ids',
    );
    await expect404(
      'PUT',
      `/campaigns/flows/${flow.id}/`,
      { location_group_ids: [theirs.groupId] },
      'location_group_ids',
    );
    // In a whole graph, on create (a copy of their flow) and on save of a draft.
    await expect404(
      'POST',
      '/campaigns/flows/',
      { name: 'Copy', items: welcomeGraph(theirs) },
      'items.2.settings.template_id',
    );
    await expect404(
      'PUT',
      `/campaigns/flows/${flow.id}/`,
      { items: welcomeGraph({ ...mine, senderId: theirs.senderId }), revision: 0 },
      'items.2.settings.sender_id',
    );
    const mineNow = (await call(company, 'GET', `/campaigns/flows/sequence/${flow.id}/`)).json();
    expect(mineNow).toEqual({ flow_id: flow.id, revision: 0, items: [] });
    // Their flow is as it was.
    const theirsNow = (await call(other, 'GET', `/campaigns/flows/${theirFlow.id}/`)).json();
    expect(theirsNow).toEqual(JSON.parse(JSON.stringify(theirFlow)));
  });

  it('refuses a save from an old revision with the stored one', async () => {
    const flow = await createFlow(marketer, { name: 'Conflict', items: welcomeGraph(mine) });
    const graph = welcomeGraph(mine);
    const first = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, {
      items: graph.map((item) => (item.key === 'wait2' ? { ...item, position: { x: 40, y: 120 } } : item)),
      revision: 0,
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().revision).toBe(1);
    // Item ids survive a whole-graph save: the builder's item calls keep naming them.
    expect(first.json().items.map((item: { id: number }) => item.id)).toEqual(
      flow.items.map((item) => item.id),
    );
    const stale = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, {
      items: graph,
      revision: 0,
      name: 'Lost',
    });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale.body)).toMatchObject({ code: 'flow_conflict', revision: 1 });
    const now = (await call(marketer, 'GET', `/campaigns/flows/${flow.id}/`)).json();
    expect(now).toMatchObject({ name: 'Conflict', revision: 1 });
    expect(now.items.find((item: { key: string }) => item.key === 'wait2').position).toEqual({
      x: 40,
      y: 120,
    });
    // The same graph again is no change: the revision stays.
    const same = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, {
      items: nodesOf(now.items),
      revision: 1,
    });
    expect(same.json().revision).toBe(1);
    // Dropping a node and changing another's kind under the same key.
    const smaller = graph
      .filter((item) => item.key !== 'winback')
      .map((item): FlowGraphItem =>
        item.key === 'visited'
          ? {
              ...item,
              no_key: null,
              next_key: null,
              kind: 'delay',
              settings: { type: 'wait', amount: 1, unit: 'hours' },
            }
          : item,
      );
    const saved = FlowSchema.parse(
      (await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { items: smaller, revision: 1 })).json(),
    );
    expect(saved.revision).toBe(2);
    expect(nodesOf(saved.items).sort((a, b) => a.key.localeCompare(b.key))).toEqual(
      [...smaller].sort((a, b) => a.key.localeCompare(b.key)),
    );
    expect(saved.items.find((item) => item.key === 'visited')!.id).not.toBe(
      flow.items.find((item) => item.key === 'visited')!.id,
    );
  });

  it('publishes only a valid graph, makes a version only when the draft changed, pauses and resumes', async () => {
    const broken = welcomeGraph(mine).map((item) =>
      item.key === 'winback' && item.kind === 'action' && item.settings.type === 'send_email'
        ? { ...item, settings: { ...item.settings, template_id: null } }
        : item,
    );
    const flow = await createFlow(marketer, { name: 'Publish me', items: broken });
    const refused = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, {
      status: 'live',
      name: 'Renamed',
    });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused.body)).toMatchObject({
      code: 'flow_invalid',
      problems: [{ key: 'winback', code: 'missing_template' }],
    });
    // All or nothing: the name in the same call was not saved either.
    expect((await call(marketer, 'GET', `/campaigns/flows/${flow.id}/`)).json()).toMatchObject({
      name: 'Publish me',
      status: 'draft',
    });
    expect(await versionsOf(flow.id)).toEqual([]);
    expect(
      (await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { status: 'paused' })).statusCode,
    ).toBe(409);

    const graph = welcomeGraph(mine);
    const live = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, {
      items: graph,
      revision: 0,
      status: 'live',
    });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json()).toMatchObject({
      status: 'live',
      version: 1,
      revision: 1,
      has_unpublished_changes: false,
    });
    const v1 = await versionsOf(flow.id);
    expect(v1.map((row) => row.version)).toEqual([1]);
    expect(v1[0]!.graph).toEqual(graph);

    // Publishing again with no change makes no version; pause and resume neither.
    expect(
      (await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { status: 'live' })).json().version,
    ).toBe(1);
    const paused = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { status: 'paused' });
    expect(paused.json()).toMatchObject({ status: 'paused', version: 1 });
    expect((await call(marketer, 'GET', '/campaigns/flows/?status=paused')).json().results[0].id).toBe(
      flow.id,
    );
    const resumed = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { status: 'live' });
    expect(resumed.json()).toMatchObject({ status: 'live', version: 1 });
    expect((await versionsOf(flow.id)).length).toBe(1);
    const back = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { status: 'draft' });
    expect(back.statusCode).toBe(409);
    expect(errorOf(back.body).code).toBe('flow_status');

    // Editing the live flow's draft leaves the live version as it was until the next publish.
    const wait = resumed.json().items.find((item: { key: string }) => item.key === 'wait7');
    const edit = await call(marketer, 'PUT', `/campaigns/flows/delays/${wait.id}/`, {
      settings: { type: 'wait', amount: 5, unit: 'days' },
    });
    expect(edit.json().revision).toBe(2);
    expect((await call(marketer, 'GET', `/campaigns/flows/${flow.id}/`)).json()).toMatchObject({
      status: 'live',
      version: 1,
      has_unpublished_changes: true,
    });
    const second = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { status: 'live' });
    expect(second.json()).toMatchObject({ version: 2, has_unpublished_changes: false });
    const versions = await versionsOf(flow.id);
    expect(versions.map((row) => row.version)).toEqual([1, 2]);
    expect(versions[0]!.graph).toEqual(graph);
    expect(versions[1]!.graph.find((item) => item.key === 'wait7')!.settings).toEqual({
      type: 'wait',
      amount: 5,
      unit: 'days',
    });

    // A template deleted after the draft was saved stops the next publish with the field named.
    const doomed = await t.database.db.owner(async (sql) => {
      const { rows } = await sql.query<{ id: number }>(
        `INSERT INTO email_templates (company_id, name) VALUES ($1, 'Doomed') RETURNING id::int`,
        [company.companyId],
      );
      return rows[0]!.id;
    });
    const mail = second.json().items.find((item: { key: string }) => item.key === 'winback') as {
      id: number;
    };
    expect(
      (
        await call(marketer, 'PUT', `/campaigns/flows/actions/${mail.id}/`, {
          settings: { type: 'send_email', template_id: doomed, subject: 'Bye' },
        })
      ).statusCode,
    ).toBe(200);
    await t.database.db.owner((sql) => sql.query('DELETE FROM email_templates WHERE id = $1', [doomed]));
    const gone = await call(marketer, 'PUT', `/campaigns/flows/${flow.id}/`, { status: 'live' });
    expect(gone.statusCode).toBe(404);
    expect(Object.keys(errorOf(gone.body).fields ?? {})).toEqual([
      `items.${second.json().items.findIndex((item: { key: string }) => item.key === 'winback')}.settings.template_id`,
    ]);
    expect((await versionsOf(flow.id)).length).toBe(2);
  });

  it('keeps staff addresses of a notify action out of the audit log in clear', async () => {
    const flow = await createFlow(marketer, { name: 'Tell the team' });
    const made = await call(marketer, 'POST', '/campaigns/flows/actions/', {
      flow_id: flow.id,
      settings: { type: 'notify_staff', emails: ['chef.private@example.com'], subject: 'A regular is back' },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().item.settings.emails).toEqual(['chef.private@example.com']);
    const audit = await t.database.db.owner((sql) =>
      sql.query<{ after: string }>(
        "SELECT after::text FROM audit_log WHERE company_id = $1 AND entity = 'flow_item' AND entity_id = $2",
        [company.companyId, String(made.json().item.id)],
      ),
    );
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]!.after).toContain('A regular is back');
    expect(audit.rows[0]!.after).not.toContain('chef.private');
  });

  it('duplicates a flow as a create with a copy of its graph', async () => {
    const original = await createFlow(marketer, {
      name: 'Original',
      items: welcomeGraph(mine),
      location_ids: mine.locations,
      reentry: 'after_days',
      reentry_days: 90,
    });
    await call(marketer, 'PUT', `/campaigns/flows/${original.id}/`, { status: 'live' });
    const copy = await createFlow(marketer, {
      name: 'Original (copy)',
      location_ids: original.location_ids,
      location_group_ids: original.location_group_ids,
      reentry: original.reentry,
      reentry_days: original.reentry_days,
      items: nodesOf(original.items),
    });
    expect(copy).toMatchObject({
      name: 'Original (copy)',
      status: 'draft',
      version: null,
      location_ids: mine.locations,
      reentry: 'after_days',
      reentry_days: 90,
    });
    expect(nodesOf(copy.items)).toEqual(nodesOf(original.items));
    expect(
      copy.items.map((item) => item.id).filter((id) => original.items.some((item) => item.id === id)),
    ).toEqual([]);
    expect(await versionsOf(copy.id)).toEqual([]);
  });
});
