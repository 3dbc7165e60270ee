import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation } from '../support/factories.js';

/**
 * The segment calls: rule types, the preview, saving with cached figures, clones, updates, deletes, bad rules by
 * path, and isolation. Every count and average is worked out here in plain JS from the checks sent and the
 * predictions stored, not read back from the code under test.
 */

interface SentCheck {
  location_id: number;
  check_number: string;
  opened_at: string;
  closed_at: string;
  total: number;
  guest: { pos_id: string };
  lines: never[];
}

const visitRule = (operator: string, value: unknown) => ({
  segment_groups: [{ segment_rules: [{ type: 'visit_count', operator, value }] }],
});

describe('segment calls', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let home: number;
  let away: number;
  let bobsPlace: number;
  const checks: SentCheck[] = [];
  const random = seededRandom(14);

  const call = (
    caller: ApiCaller,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: caller.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** Guests of Alice by POS id, with their checks, spend and locations, as sent. */
  function guestsSent() {
    const guests = new Map<string, { checks: number; spend: number; locations: Set<number> }>();
    for (const check of checks) {
      const guest = guests.get(check.guest.pos_id) ?? { checks: 0, spend: 0, locations: new Set<number>() };
      guest.checks += 1;
      guest.spend += check.total;
      guest.locations.add(check.location_id);
      guests.set(check.guest.pos_id, guest);
    }
    return guests;
  }

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
    const db = t.database.db;
    home = (await makeLocation(db, alice.companyId, 'Home')).id;
    away = (await makeLocation(db, alice.companyId, 'Away')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    // 30 guests, 0–6 checks each, at either location, over the last 200 days.
    for (let guest = 0; guest < 30; guest++) {
      const visits = Math.floor(random() * 7);
      for (let n = 0; n < visits; n++) {
        const closed = new Date(Date.now() - Math.floor(random() * 200 * 24 * 60) * 60_000);
        checks.push({
          location_id: random() < 0.6 ? home : away,
          check_number: `S-${guest}-${n}`,
          opened_at: new Date(closed.getTime() - 40 * 60_000).toISOString(),
          closed_at: closed.toISOString(),
          total: (500 + Math.floor(random() * 6000)) / 100,
          guest: { pos_id: `G-${guest}` },
          lines: [],
        });
      }
    }
    const sent = await call(alice, 'POST', '/api/pos/checks/', { checks });
    expect(sent.json().created).toBe(checks.length);
    const bobs = await call(bob, 'POST', '/api/pos/checks/', {
      checks: [{ ...checks[0]!, location_id: bobsPlace, check_number: 'B-1', guest: { pos_id: 'B-guest' } }],
    });
    expect(bobs.json().created).toBe(1);
  });
  afterAll(() => t.close());

  it('lists every rule type with operators and labels in the language asked', async () => {
    const english = (await call(alice, 'GET', '/api/campaigns/segment-types/?language=en')).json();
    const german = (await call(alice, 'GET', '/api/campaigns/segment-types/?language=de')).json();
    const visits = english.results.find((type: { type: string }) => type.type === 'visit_count');
    expect(visits.operators.map((operator: { operator: string }) => operator.operator)).toEqual(
      expect.arrayContaining(['gte', 'lte', 'eq', 'between']),
    );
    expect(visits.options.map((option: { option: string }) => option.option)).toContain('window_days');
    const germanVisits = german.results.find((type: { type: string }) => type.type === 'visit_count');
    expect(germanVisits.label).not.toBe(visits.label);
    expect(english.results.find((type: { type: string }) => type.type === 'opened').live).toBe(false);
  });

  it('previews the counts the checks give, with the location picker', async () => {
    const guests = guestsSent();
    const regulars = [...guests.values()].filter((guest) => guest.checks >= 3);
    const preview = await call(alice, 'POST', '/api/campaigns/segments/?preview=1', visitRule('gte', 3));
    expect(preview.statusCode, preview.body).toBe(200);
    const answer = preview.json();
    expect(answer.all_customers).toBe(regulars.length);
    expect(answer.all_customers_pct).toBeCloseTo((regulars.length / guests.size) * 100, 2);
    // Guests known by a POS id with a check are trackable; nobody subscribed, so nobody is marketable.
    expect(answer.trackable_customers).toBe(regulars.length);
    expect(answer.marketable_customers).toBe(0);

    const atAway = await call(
      alice,
      'POST',
      `/api/campaigns/segments/?preview=1&location_id=${away}`,
      visitRule('gte', 3),
    );
    expect(atAway.json().all_customers).toBe(regulars.filter((guest) => guest.locations.has(away)).length);
    const spenders = [...guests.values()].filter((guest) => guest.spend >= 100).length;
    const bySpend = await call(alice, 'POST', '/api/campaigns/segments/?preview=1', {
      segment_groups: [{ segment_rules: [{ type: 'total_spend', operator: 'gte', value: 100 }] }],
    });
    expect(bySpend.json().all_customers).toBe(spenders);
    // Two groups: either holds.
    const either = await call(alice, 'POST', '/api/campaigns/segments/?preview=1', {
      segment_groups: [
        { segment_rules: [{ type: 'visit_count', operator: 'eq', value: 1 }] },
        { segment_rules: [{ type: 'visit_count', operator: 'eq', value: 2 }] },
      ],
    });
    expect(either.json().all_customers).toBe(
      [...guests.values()].filter((guest) => guest.checks === 1 || guest.checks === 2).length,
    );
  });

  it('names each bad rule by its path and counts nothing of another company', async () => {
    const problems = async (body: unknown, url = '/api/campaigns/segments/?preview=1') => {
      const response = await call(alice, 'POST', url, body);
      expect(response.statusCode, response.body).toBe(400);
      return Object.keys(response.json().error.fields);
    };
    expect(
      await problems({
        segment_groups: [
          { segment_rules: [{ type: 'visit_count', operator: 'gte', value: 1 }] },
          { segment_rules: [{ type: 'no_such_rule', operator: 'gte', value: 1 }] },
        ],
      }),
    ).toEqual(['segment_groups[1].segment_rules[0].type']);
    expect(await problems(visitRule('sideways', 1))).toEqual(['segment_groups[0].segment_rules[0].operator']);
    expect(await problems(visitRule('gte', -2))).toEqual(['segment_groups[0].segment_rules[0].value']);
    const foreignLocation = {
      segment_groups: [{ segment_rules: [{ type: 'location', operator: 'in', value: [bobsPlace] }] }],
    };
    expect(await problems(foreignLocation)).toEqual(['segment_groups[0].segment_rules[0].value']);
    // Saving bad rules saves nothing.
    const before = (await call(alice, 'GET', '/api/campaigns/segments/')).json().count;
    expect(await problems({ name: 'Bad', ...foreignLocation }, '/api/campaigns/segments/')).toEqual([
      'segment_groups[0].segment_rules[0].value',
    ]);
    expect(await problems({ ...visitRule('gte', 1) }, '/api/campaigns/segments/')).toEqual(['name']);
    expect((await call(alice, 'GET', '/api/campaigns/segments/')).json().count).toBe(before);
    // Another company's location in the picker is a 404, not a count.
    const picked = await call(
      alice,
      'POST',
      `/api/campaigns/segments/?preview=1&location_id=${bobsPlace}`,
      visitRule('gte', 1),
    );
    expect(picked.statusCode).toBe(404);
  });

  it('saves a segment with its figures, and clones, updates, lists and deletes it', async () => {
    const guests = guestsSent();
    const regulars = [...guests.entries()].filter(([, guest]) => guest.checks >= 3);
    // Predictions for two regulars and one other guest, stored as a fit would: the averages are over members.
    const db = t.database.db;
    const predicted = [
      regulars[0]![0],
      regulars[1]![0],
      [...guests.entries()].find(([, g]) => g.checks === 1)![0],
    ];
    const clvCents = [12_000, 30_000, 99_900];
    await db.owner(async (sql) => {
      for (const [index, posId] of predicted.entries()) {
        await sql.query(
          `INSERT INTO guest_predictions (company_id, guest_id, probability_alive, expected_visits_next_year,
                                          expected_spend_per_visit_cents, annual_clv_cents, clv_cents)
           SELECT $1, id, 0.5, $3, 2000, $4, $4 FROM guests WHERE company_id = $1 AND pos_id = $2`,
          [alice.companyId, posId, index + 1, clvCents[index]],
        );
      }
    });

    const created = await call(alice, 'POST', '/api/campaigns/segments/', {
      name: 'Regulars',
      description: 'Three visits or more',
      ...visitRule('gte', 3),
    });
    expect(created.statusCode, created.body).toBe(201);
    const segment = created.json();
    expect(segment.segmentcache.all_customers).toBe(regulars.length);
    expect(segment.segmentcache.all_customers_pct).toBeCloseTo((regulars.length / guests.size) * 100, 2);
    expect(segment.segmentcache.all_clv).toBeCloseTo((12_000 + 30_000) / 2 / 100, 2);
    expect(segment.segmentcache.all_clf).toBeCloseTo((1 + 2) / 2, 4);
    expect(segment.segmentcache.computed_at).not.toBeNull();
    expect(segment.segment_groups[0].segment_rules).toEqual([
      { type: 'visit_count', operator: 'gte', value: 3 },
    ]);

    // Its members, page by page through the next links: exactly the regulars.
    const members: string[] = [];
    let next: string | null = `/api/campaigns/segments/${segment.id}/subscribers/?page_size=2`;
    while (next) {
      const page = await call(alice, 'GET', `/api${next.replace(/^\/api/, '')}`);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json().count).toBe(regulars.length);
      members.push(...page.json().results.map((guest: { pos_id: string }) => guest.pos_id));
      next = page.json().next;
    }
    expect(members.sort()).toEqual(regulars.map(([posId]) => posId).sort());
    expect((await call(bob, 'GET', `/api/campaigns/segments/${segment.id}/subscribers/`)).statusCode).toBe(
      404,
    );

    // The CSV export: a header and one line per member, with their POS ids.
    const exported = await call(alice, 'GET', `/api/campaigns/segments/${segment.id}/export/`);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    const lines = exported.body.trim().split(/\r?\n/);
    expect(lines).toHaveLength(regulars.length + 1);
    for (const [posId] of regulars) expect(exported.body).toContain(posId);
    expect((await call(bob, 'GET', `/api/campaigns/segments/${segment.id}/export/`)).statusCode).toBe(404);

    const read = (await call(alice, 'GET', `/api/campaigns/segments/${segment.id}/`)).json();
    expect(read.segmentcache.all_customers).toBe(regulars.length);
    const listed = (await call(alice, 'GET', '/api/campaigns/segments/?q=regul')).json();
    expect(listed.results.map((row: { id: number }) => row.id)).toEqual([segment.id]);

    // No body at all: the copy takes the original's name with " (copy)".
    const copy = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/segments/${segment.id}/clone/`,
      headers: alice.headers,
    });
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.json().name).toBe('Regulars (copy)');
    expect(copy.json().segmentcache.all_customers).toBe(regulars.length);

    const updated = await call(alice, 'PUT', `/api/campaigns/segments/${segment.id}/`, {
      name: 'Regulars at Home',
      location_ids: [home],
      ...visitRule('gte', 3),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().segmentcache.all_customers).toBe(
      regulars.filter(([, guest]) => guest.locations.has(home)).length,
    );

    // Side by side: both, by name, each with the figures its own call shows.
    const dashboard = (await call(alice, 'GET', '/api/benchmark/segment-dashboard/')).json();
    const mine = dashboard.results.filter((row: { id: number }) =>
      [segment.id, copy.json().id].includes(row.id),
    );
    expect(mine.map((row: { name: string }) => row.name)).toEqual(['Regulars (copy)', 'Regulars at Home']);
    expect(mine[1].segmentcache).toEqual(updated.json().segmentcache);
    expect((await call(bob, 'GET', '/api/benchmark/segment-dashboard/')).json().results).toEqual([]);

    expect((await call(alice, 'DELETE', `/api/campaigns/segments/${copy.json().id}/`)).statusCode).toBe(204);
    expect((await call(alice, 'GET', `/api/campaigns/segments/${copy.json().id}/`)).statusCode).toBe(404);
  });

  it('refuses to copy a segment whose list was deleted since, naming the rule', async () => {
    const list = (await call(alice, 'POST', '/api/subscriptions/subscribers/list/', { name: 'VIPs' })).json();
    const listed = await call(alice, 'POST', '/api/campaigns/segments/', {
      name: 'On the VIP list',
      segment_groups: [{ segment_rules: [{ type: 'in_list', operator: 'any', value: [list.id] }] }],
    });
    expect(listed.statusCode, listed.body).toBe(201);
    expect((await call(alice, 'DELETE', `/api/subscriptions/subscribers/list/${list.id}/`)).statusCode).toBe(
      204,
    );
    const before = (await call(alice, 'GET', '/api/campaigns/segments/')).json().count;
    const copy = await call(alice, 'POST', `/api/campaigns/segments/${listed.json().id}/clone/`, {});
    expect(copy.statusCode, copy.body).toBe(400);
    expect(Object.keys(copy.json().error.fields)).toEqual(['segment_groups[0].segment_rules[0].value']);
    expect((await call(alice, 'GET', '/api/campaigns/segments/')).json().count).toBe(before);
  });

  it("refuses an update naming another segment's group at that group's path, changing nothing", async () => {
    const first = (
      await call(alice, 'POST', '/api/campaigns/segments/', { name: 'First', ...visitRule('gte', 1) })
    ).json();
    const second = (
      await call(alice, 'POST', '/api/campaigns/segments/', { name: 'Second', ...visitRule('gte', 2) })
    ).json();
    const ownGroup = first.segment_groups[0];
    const updated = await call(alice, 'PUT', `/api/campaigns/segments/${first.id}/`, {
      name: 'First again',
      segment_groups: [ownGroup, { id: second.segment_groups[0].id, segment_rules: ownGroup.segment_rules }],
    });
    expect(updated.statusCode, updated.body).toBe(400);
    expect(Object.keys(updated.json().error.fields)).toEqual(['segment_groups[1].id']);
    const after = (await call(alice, 'GET', `/api/campaigns/segments/${first.id}/`)).json();
    expect(after.name).toBe('First');
    expect(after.segment_groups).toEqual(first.segment_groups);
  });

  it('keeps a segment from another company: 404 on every call, and nothing changed', async () => {
    const mine = (
      await call(alice, 'POST', '/api/campaigns/segments/', { name: 'Mine', ...visitRule('gte', 1) })
    ).json();
    const path = `/api/campaigns/segments/${mine.id}/`;
    expect((await call(bob, 'GET', path)).statusCode).toBe(404);
    expect((await call(bob, 'PUT', path, { name: 'Taken', ...visitRule('gte', 1) })).statusCode).toBe(404);
    expect((await call(bob, 'POST', `${path}clone/`, {})).statusCode).toBe(404);
    expect((await call(bob, 'DELETE', path)).statusCode).toBe(404);
    expect((await call(alice, 'GET', path)).json().name).toBe('Mine');
    expect((await call(bob, 'GET', '/api/campaigns/segments/')).json().count).toBe(0);
    // Bob's preview counts Bob's one guest only.
    expect(
      (await call(bob, 'POST', '/api/campaigns/segments/?preview=1', visitRule('gte', 1))).json()
        .all_customers,
    ).toBe(1);
  });
});
