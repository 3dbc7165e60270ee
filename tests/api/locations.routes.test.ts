import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';

const harbor = {
  name: 'Harbor Grill - 12 Pier St',
  street: '12 Pier St',
  city: 'Portland',
  state: 'OR',
  zip: '97209',
  latitude: 45.52,
  longitude: -122.67,
  time_zone: 'America/Los_Angeles',
};

describe('Locations API', () => {
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
    caller: ApiCaller | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => t.app.inject({ method, url, payload, headers: caller?.headers ?? {} });

  it('creates, lists with paging links, reads, patches, replaces and deletes a location', async () => {
    const created = await call(alice, 'POST', '/api/customers/locations/', harbor);
    expect(created.statusCode).toBe(201);
    const location = created.json();
    expect(location).toMatchObject({ ...harbor, group_ids: [] });

    for (const name of ['Alder Cafe', 'Birch Bar']) {
      expect((await call(alice, 'POST', '/api/customers/locations/', { name })).statusCode).toBe(201);
    }
    const first = (await call(alice, 'GET', '/api/customers/locations/?page=1&page_size=2')).json();
    expect(first.count).toBe(3);
    expect(first.results.map((l: { name: string }) => l.name)).toEqual(['Alder Cafe', 'Birch Bar']);
    expect(first.previous).toBeNull();
    expect(first.next).toBe('/api/customers/locations/?page=2&page_size=2');
    const second = (await call(alice, 'GET', first.next)).json();
    expect(second.results.map((l: { name: string }) => l.name)).toEqual([harbor.name]);
    expect(second.next).toBeNull();

    const search = (await call(alice, 'GET', '/api/customers/locations/?q=pier')).json();
    expect(search.results.map((l: { id: number }) => l.id)).toEqual([location.id]);

    const patched = await call(alice, 'PATCH', `/api/customers/locations/${location.id}/`, { zip: '97210' });
    expect(patched.json()).toMatchObject({ zip: '97210', city: 'Portland' });
    const replaced = await call(alice, 'PUT', `/api/customers/locations/${location.id}`, {
      name: 'Harbor Grill',
    });
    expect(replaced.json()).toMatchObject({ name: 'Harbor Grill', zip: '', city: '' });
    expect((await call(alice, 'GET', `/api/customers/locations/${location.id}/`)).json().name).toBe(
      'Harbor Grill',
    );

    expect((await call(alice, 'DELETE', `/api/customers/locations/${location.id}/`)).statusCode).toBe(204);
    expect((await call(alice, 'GET', `/api/customers/locations/${location.id}/`)).statusCode).toBe(404);
    const audit = await t.database.db.tenant(alice.companyId, (sql) =>
      listAudit(sql, alice.companyId, {
        entity: 'location',
        entityId: location.id,
      }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'update', 'update', 'create']);
  });

  it('rejects bad input with errors naming each field and writes nothing', async () => {
    const before = (await call(alice, 'GET', '/api/customers/locations/')).json().count;
    const response = await call(alice, 'POST', '/api/customers/locations/', {
      name: '   ',
      zip: '1234',
      latitude: 123,
      time_zone: 'Mars/Olympus',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error.code).toBe('validation_failed');
    expect(Object.keys(body.error.fields).sort()).toEqual(['latitude', 'name', 'time_zone', 'zip']);
    expect(body.error.fields.name).toBe('Name is required');
    expect(body.error.fields.zip).toBe('Zip code is not valid');
    expect((await call(alice, 'GET', '/api/customers/locations/')).json().count).toBe(before);

    expect((await call(alice, 'GET', '/api/customers/locations/?page=0')).json().error.fields).toHaveProperty(
      'page',
    );
    expect((await call(alice, 'GET', '/api/customers/locations/abc/')).statusCode).toBe(400);
  });

  it('manages groups: date ranges, group locations, group 0, groups with locations', async () => {
    const north = (await call(alice, 'POST', '/api/customers/locations/', { name: 'North' })).json();
    const south = (await call(alice, 'POST', '/api/customers/locations/', { name: 'South' })).json();
    const created = await call(alice, 'POST', '/api/customers/groups/', {
      name: 'Downtown',
      location_ids: [north.id, south.id],
    });
    expect(created.statusCode).toBe(201);
    const group = created.json();
    expect(group).toMatchObject({
      name: 'Downtown',
      location_ids: [north.id, south.id],
      revenue: null,
      checks: null,
    });

    const ranged = (
      await call(alice, 'GET', '/api/customers/groups/?from_date=2026-01-01&to_date=2026-01-31')
    ).json();
    expect(ranged.find((g: { id: number }) => g.id === group.id)).toMatchObject({ revenue: 0, checks: 0 });

    // Days are the company's (New York): 03:30 UTC on 1 January is still 31 December there.
    const sold = [
      { closed_at: '2026-01-01T03:30:00Z', total: 10, location_id: north.id },
      { closed_at: '2026-01-15T18:00:00Z', total: 20.5, location_id: south.id },
      { closed_at: '2026-02-01T04:00:00Z', total: 30, location_id: north.id },
    ];
    const checks = sold.map((check, index) => ({
      ...check,
      check_number: `G-${index}`,
      opened_at: new Date(Date.parse(check.closed_at) - 3_600_000).toISOString(),
    }));
    expect((await call(alice, 'POST', '/api/pos/checks/', { checks })).json()).toMatchObject({ created: 3 });
    const january = (
      await call(alice, 'GET', '/api/customers/groups/?from_date=2026-01-01&to_date=2026-01-31')
    ).json();
    expect(january.find((g: { id: number }) => g.id === group.id)).toMatchObject({
      revenue: 50.5,
      checks: 2,
    });
    const fromFebruary = (await call(alice, 'GET', '/api/customers/groups/?from_date=2026-02-01')).json();
    expect(fromFebruary.find((g: { id: number }) => g.id === group.id)).toMatchObject({
      revenue: 0,
      checks: 0,
    });
    const backwards = await call(
      alice,
      'GET',
      '/api/customers/groups/?from_date=2026-02-01&to_date=2026-01-01',
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.fields).toHaveProperty('to_date');

    const members = (await call(alice, 'GET', `/api/customers/groups/${group.id}/locations`)).json();
    expect(members.map((l: { name: string }) => l.name)).toEqual(['North', 'South']);
    expect((await call(alice, 'GET', '/api/customers/groups/0/locations')).json()).toEqual([]);

    const filtered = (
      await call(alice, 'GET', `/api/customers/locations/?location_group_id=${group.id}`)
    ).json();
    expect(filtered.count).toBe(2);

    await call(alice, 'PATCH', `/api/customers/groups/${group.id}/`, { description: 'Inner city' });
    const patched = await call(alice, 'PATCH', `/api/customers/groups/${group.id}/`, {
      location_ids: [south.id],
    });
    expect(patched.json()).toMatchObject({
      location_ids: [south.id],
      description: 'Inner city',
      name: 'Downtown',
    });
    const nested = (await call(alice, 'GET', '/api/customers/groups-with-locations/')).json();
    expect(nested[0].locations.map((l: { name: string }) => l.name)).toEqual(['South']);

    const unknown = await call(alice, 'POST', '/api/customers/groups/', {
      name: 'Bad',
      location_ids: [999999],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.location_ids).toContain('999999');

    expect((await call(alice, 'DELETE', `/api/customers/groups/${group.id}`)).statusCode).toBe(204);
    expect((await call(alice, 'GET', `/api/customers/groups/${group.id}/locations`)).statusCode).toBe(404);
  });

  it('answers ROI per location for a period and validates the range', async () => {
    const roi = await call(
      alice,
      'GET',
      '/api/customers/locations/roi/?from_date=2026-01-01&to_date=2026-03-31',
    );
    expect(roi.statusCode).toBe(200);
    expect(roi.json().results.length).toBeGreaterThan(0);
    expect(roi.json().results[0]).toMatchObject({ revenue: 0, checks: 0, average_check: 0 });
    const missing = await call(alice, 'GET', '/api/customers/locations/roi/?from_date=2026-01-01');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toHaveProperty('to_date');
  });

  it("treats another company's locations and groups as not found", async () => {
    const theirs = (await call(bob, 'POST', '/api/customers/locations/', { name: 'Bob Only' })).json();
    const theirGroup = (
      await call(bob, 'POST', '/api/customers/groups/', { name: 'Bob group', location_ids: [theirs.id] })
    ).json();

    expect((await call(alice, 'GET', `/api/customers/locations/${theirs.id}/`)).statusCode).toBe(404);
    expect(
      (await call(alice, 'PATCH', `/api/customers/locations/${theirs.id}/`, { name: 'x' })).statusCode,
    ).toBe(404);
    expect(
      (await call(alice, 'PUT', `/api/customers/locations/${theirs.id}/`, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(alice, 'DELETE', `/api/customers/locations/${theirs.id}/`)).statusCode).toBe(404);
    expect((await call(alice, 'GET', `/api/customers/groups/${theirGroup.id}/locations`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(alice, 'PATCH', `/api/customers/groups/${theirGroup.id}/`, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await call(alice, 'DELETE', `/api/customers/groups/${theirGroup.id}/`)).statusCode).toBe(404);
    const borrow = await call(alice, 'POST', '/api/customers/groups/', {
      name: 'Borrow',
      location_ids: [theirs.id],
    });
    expect(borrow.statusCode).toBe(400);

    const aliceNames = (await call(alice, 'GET', '/api/customers/locations/?page_size=500'))
      .json()
      .results.map((l: { name: string }) => l.name);
    expect(aliceNames).not.toContain('Bob Only');
    expect(
      (await call(alice, 'GET', '/api/customers/groups/')).json().map((g: { name: string }) => g.name),
    ).not.toContain('Bob group');
    expect((await call(bob, 'GET', `/api/customers/locations/${theirs.id}/`)).json().name).toBe('Bob Only');
  });

  it('requires a valid token on every locations route', async () => {
    const routes: Array<['GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', string]> = [
      ['GET', '/api/customers/locations/'],
      ['GET', '/api/customers/locations/roi/?from_date=2026-01-01&to_date=2026-01-02'],
      ['POST', '/api/customers/locations/'],
      ['GET', '/api/customers/locations/1/'],
      ['PUT', '/api/customers/locations/1/'],
      ['PATCH', '/api/customers/locations/1/'],
      ['DELETE', '/api/customers/locations/1/'],
      ['GET', '/api/customers/groups/'],
      ['POST', '/api/customers/groups/'],
      ['GET', '/api/customers/groups/1/locations'],
      ['PUT', '/api/customers/groups/1/'],
      ['PATCH', '/api/customers/groups/1/'],
      ['DELETE', '/api/customers/groups/1/'],
      ['GET', '/api/customers/groups-with-locations/'],
    ];
    for (const [method, url] of routes) {
      const anonymous = await call(null, method, url, {});
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json().error.code).toBe('unauthenticated');
      const forged = await t.app.inject({
        method,
        url,
        payload: {},
        headers: { authorization: 'Token rgl_0000_forged' },
      });
      expect(forged.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('serves health, the OpenAPI document and the docs page without a token', async () => {
    expect((await call(null, 'GET', '/api/health')).json()).toEqual({
      status: 'ok',
      database: t.database.db.kind,
    });
    const openapi = (await call(null, 'GET', '/api/openapi.json')).json();
    expect(openapi.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        '/api/customers/locations/',
        '/api/customers/groups/{id}/locations/',
        '/api/customers/groups-with-locations/',
      ]),
    );
    expect((await call(null, 'GET', '/api/docs')).statusCode).toBeLessThan(400);
    expect((await call(null, 'GET', '/api/nothing-here')).statusCode).toBe(401);
    expect((await call(alice, 'GET', '/api/nothing-here')).json().error.code).toBe('not_found');
  });
});
