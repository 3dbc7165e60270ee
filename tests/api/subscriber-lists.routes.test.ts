import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { makeSubscriber } from '../support/factories.js';
import { countRows } from '../support/marketing.js';

describe('Subscriber lists API', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
  });
  afterAll(() => t.close());

  const call = (
    caller: ApiCaller,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller.headers });
  const lists = '/api/subscriptions/subscribers/list';

  it('creates, pages by name, renames and deletes lists', async () => {
    const company = await t.newCaller('Lists Co');
    const created = await call(company, 'POST', `${lists}/`, { name: '  Zebra club ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Zebra club', member_count: 0 });
    expect(Date.parse(created.json().created)).not.toBeNaN();
    for (const name of ['alpha', 'Mid']) await call(company, 'POST', `${lists}/`, { name });

    const page1 = (await call(company, 'GET', `${lists}/?page_size=2`)).json();
    expect(page1.count).toBe(3);
    expect(page1.results.map((l: { name: string }) => l.name)).toEqual(['alpha', 'Mid']);
    expect(
      (await call(company, 'GET', page1.next)).json().results.map((l: { name: string }) => l.name),
    ).toEqual(['Zebra club']);

    const id = created.json().id;
    const renamed = await call(company, 'PUT', `${lists}/${id}/`, { name: 'Aardvark' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Aardvark');
    expect((await call(company, 'PUT', `${lists}/${id}/`, { name: ' ' })).json().error.fields).toEqual({
      name: 'Name is required',
    });
    const missing = (await call(company, 'POST', `${lists}/`, {})).json().error;
    expect(missing.fields).toEqual({ name: 'Name is required' });
    expect(missing.field_problems).toEqual({ name: { code: 'required' } });
    expect((await call(bob, 'PUT', `${lists}/${id}/`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', `${lists}/${id}/`)).statusCode).toBe(404);
    expect((await call(company, 'DELETE', `${lists}/${id}/`)).statusCode).toBe(204);
    expect((await call(company, 'DELETE', `${lists}/${id}/`)).statusCode).toBe(404);
    expect((await call(company, 'GET', `${lists}/`)).json().count).toBe(2);
    expect((await call(bob, 'GET', `${lists}/`)).json().count).toBe(0);
  });

  it('adds and removes members, all or none, and pages and exports them', async () => {
    const db = t.database.db;
    const list = (await call(alice, 'POST', `${lists}/`, { name: 'Regulars' })).json();
    const ann = await makeSubscriber(db, alice.companyId, {
      email: 'ann@example.com',
      first_name: '=cmd|calc',
    });
    const ben = await makeSubscriber(db, alice.companyId, { email: 'ben@example.com', phone: '-5035550100' });
    const cy = await makeSubscriber(db, alice.companyId, { email: 'cy@example.com' });
    const theirs = await makeSubscriber(db, bob.companyId, { email: 'theirs@example.com' });
    const members = `${lists}/${list.id}/members/`;

    const added = await call(alice, 'POST', members, { subscriber_ids: [ann.id, ben.id, cy.id, ann.id] });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ id: list.id, member_count: 3 });
    const foreign = await call(alice, 'POST', members, { subscriber_ids: [theirs.id] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.fields).toEqual({ subscriber_ids: `Unknown subscriber ids: ${theirs.id}` });
    expect((await call(alice, 'POST', members, { subscriber_ids: [] })).json().error.fields).toEqual({
      subscriber_ids: 'subscriber_ids is required',
    });
    expect(await countRows(db, 'subscriber_list_members', alice.companyId)).toBe(3);

    const page1 = (await call(alice, 'GET', `${members}?page_size=2`)).json();
    expect(page1.count).toBe(3);
    expect(page1.results.map((s: { id: number }) => s.id)).toEqual([cy.id, ben.id]);
    expect(page1.results[0]).toMatchObject({
      email: 'cy@example.com',
      list_ids: [list.id],
      SUBSCRIBED: 'True',
    });

    const exported = await call(alice, 'GET', `${lists}/${list.id}/export/`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    const lines = exported.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      'id,email,first_name,last_name,phone,zip,birthday,subscribed,pos_id,source_location_id,created_at',
    );
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual([
      'ann@example.com',
      'ben@example.com',
      'cy@example.com',
    ]);
    expect(lines[1]).toContain(",'=cmd|calc,");
    expect(lines[2]).toContain(",'-5035550100,");

    const removed = await call(alice, 'POST', `${members}remove/`, { subscriber_ids: [ben.id, theirs.id] });
    expect(removed.json()).toMatchObject({ member_count: 2 });
    expect((await call(alice, 'GET', members)).json().results.map((s: { id: number }) => s.id)).toEqual([
      cy.id,
      ann.id,
    ]);

    for (const [method, url, payload] of [
      ['GET', members, undefined],
      ['POST', members, { subscriber_ids: [theirs.id] }],
      ['POST', `${members}remove/`, { subscriber_ids: [ann.id] }],
      ['GET', `${lists}/${list.id}/export/`, undefined],
    ] as const) {
      expect((await call(bob, method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(alice, 'GET', `${lists}/999999/members/`)).statusCode).toBe(404);
  });
});
