import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshCompanyRfm } from '../../server/services/rfm.service.js';
import { openTestApp, type ApiCaller, type TestApp } from '../support/app.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation } from '../support/factories.js';

/**
 * The RFM dashboard's calls: the grid, the named cells and their figures, a cell's guests, the location picker,
 * bad input and isolation. Every expected figure is worked out here in plain JS from the checks sent and the
 * predictions stored (quintiles by rank, the usual grid), never read back from the code under test.
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

/** The usual grid, written out again: rows by recency 1–5, columns by frequency 1–5. */
const GRID = [
  ['lost', 'lost', 'at_risk', 'at_risk', 'cant_lose_them'],
  ['hibernating', 'hibernating', 'at_risk', 'at_risk', 'cant_lose_them'],
  ['about_to_sleep', 'about_to_sleep', 'need_attention', 'loyal', 'loyal'],
  ['promising', 'potential_loyalists', 'potential_loyalists', 'loyal', 'loyal'],
  ['new', 'potential_loyalists', 'potential_loyalists', 'champions', 'champions'],
];

/** Scores 1–5 by rank: 1 + how many have a strictly lower figure, over n. */
function quintiles(figures: Map<string, number>): Map<string, number> {
  const values = [...figures.values()];
  return new Map(
    [...figures].map(([key, value]) => {
      const rank = 1 + values.filter((other) => other < value).length;
      return [key, Math.floor((5 * (rank - 1)) / values.length) + 1];
    }),
  );
}

interface ExpectedGuest {
  r: number;
  f: number;
  m: number;
  cell: string;
  spendCents: number;
  clvCents: number | null;
  locations: Set<number>;
}

describe('RFM dashboard calls', () => {
  let t: TestApp;
  let alice: ApiCaller;
  let bob: ApiCaller;
  let home: number;
  let away: number;
  let bobsPlace: number;
  const checks: SentCheck[] = [];
  const clvByPosId = new Map<string, number>();
  const random = seededRandom(23);

  const get = (caller: ApiCaller, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller.headers });

  /** Alice's guests by POS id with their scores, cell, spend, CLV and locations, from the checks sent. */
  function expected(): Map<string, ExpectedGuest> {
    const last = new Map<string, number>();
    const visits = new Map<string, number>();
    const spend = new Map<string, number>();
    const locations = new Map<string, Set<number>>();
    for (const check of checks) {
      const id = check.guest.pos_id;
      last.set(id, Math.max(last.get(id) ?? 0, Date.parse(check.closed_at)));
      visits.set(id, (visits.get(id) ?? 0) + 1);
      spend.set(id, (spend.get(id) ?? 0) + Math.round(check.total * 100));
      locations.set(id, (locations.get(id) ?? new Set()).add(check.location_id));
    }
    const [r, f, m] = [quintiles(last), quintiles(visits), quintiles(spend)];
    return new Map(
      [...last.keys()].map((id) => [
        id,
        {
          r: r.get(id)!,
          f: f.get(id)!,
          m: m.get(id)!,
          cell: GRID[r.get(id)! - 1]![f.get(id)! - 1]!,
          spendCents: spend.get(id)!,
          clvCents: clvByPosId.get(id) ?? null,
          locations: locations.get(id)!,
        },
      ]),
    );
  }

  /** The figures of each cell over `guests`, as the dashboard defines them. */
  function cellFigures(guests: ExpectedGuest[]) {
    const totalSpend = guests.reduce((sum, guest) => sum + guest.spendCents, 0);
    return Object.fromEntries(
      [...new Set(GRID.flat())].map((cell) => {
        const members = guests.filter((guest) => guest.cell === cell);
        const withClv = members.filter((guest) => guest.clvCents !== null);
        const spend = members.reduce((sum, guest) => sum + guest.spendCents, 0);
        const mean = (pick: (guest: ExpectedGuest) => number) =>
          members.length === 0 ? 0 : members.reduce((sum, guest) => sum + pick(guest), 0) / members.length;
        return [
          cell,
          {
            guests: members.length,
            revenue: spend / 100,
            revenue_share: totalSpend === 0 ? 0 : (spend / totalSpend) * 100,
            clv:
              withClv.length === 0
                ? null
                : withClv.reduce((sum, guest) => sum + guest.clvCents!, 0) / withClv.length / 100,
            recency: mean((guest) => guest.r),
            frequency: mean((guest) => guest.f),
            monetary: mean((guest) => guest.m),
          },
        ];
      }),
    );
  }

  beforeAll(async () => {
    t = await openTestApp();
    alice = await t.newCaller('Alice Restaurants');
    bob = await t.newCaller('Bob Bistro');
    const db = t.database.db;
    home = (await makeLocation(db, alice.companyId, 'Home')).id;
    away = (await makeLocation(db, alice.companyId, 'Away')).id;
    bobsPlace = (await makeLocation(db, bob.companyId, 'Bob’s')).id;
    // 60 guests, 1–8 checks each (some guests share figures), at either location, over the last 300 days.
    for (let guest = 0; guest < 60; guest++) {
      const visits = 1 + Math.floor(random() * 8);
      for (let n = 0; n < visits; n++) {
        const closed = new Date(Date.now() - Math.floor(random() * 300) * 86_400_000 - 3_600_000);
        checks.push({
          location_id: random() < 0.7 ? home : away,
          check_number: `S-${guest}-${n}`,
          opened_at: new Date(closed.getTime() - 40 * 60_000).toISOString(),
          closed_at: closed.toISOString(),
          total: guest % 7 === 0 ? 20 : (500 + Math.floor(random() * 6000)) / 100,
          guest: { pos_id: `G-${guest}` },
          lines: [],
        });
      }
    }
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      headers: alice.headers,
      payload: { checks },
    });
    expect(sent.json().created).toBe(checks.length);
    // Bob's big spender would top every one of Alice's scores were his guests ranked with hers.
    const bobs = await t.app.inject({
      method: 'POST',
      url: '/api/pos/checks/',
      headers: bob.headers,
      payload: {
        checks: Array.from({ length: 30 }, (_, n) => ({
          ...checks[0]!,
          location_id: bobsPlace,
          check_number: `B-${n}`,
          total: 900,
          guest: { pos_id: `B-${n % 3}` },
        })),
      },
    });
    expect(bobs.json().created).toBe(30);
    // Predictions for two thirds of Alice's guests, as a CLV fit would store them.
    await db.owner(async (sql) => {
      const { rows } = await sql.query<{ id: string; pos_id: string }>(
        'SELECT id, pos_id FROM guests WHERE company_id = $1 ORDER BY id',
        [alice.companyId],
      );
      for (const [index, row] of rows.entries()) {
        if (index % 3 === 0) continue;
        const clv = 1000 + Math.floor(random() * 90_000);
        clvByPosId.set(row.pos_id, clv);
        await sql.query(
          `INSERT INTO guest_predictions (company_id, guest_id, probability_alive, expected_visits_next_year,
             expected_spend_per_visit_cents, annual_clv_cents, clv_cents) VALUES ($1, $2, 0.5, 1, 1000, 1000, $3)`,
          [alice.companyId, row.id, clv],
        );
      }
    });
  });
  afterAll(() => t.close());

  it('answers no scores and zeroed cells before the first scoring', async () => {
    const answer = await get(alice, '/api/benchmark/rfm-dashboard/');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json();
    expect(body.computed_at).toBeNull();
    expect(body.totals).toEqual({ guests: 0, revenue: 0, clv: null });
    expect(body.grid).toHaveLength(25);
    expect(body.cells.map((cell: { guests: number }) => cell.guests)).toEqual(Array(11).fill(0));
  });

  it('counts the grid and the cells’ figures as an independent ranking of the checks does', async () => {
    await refreshCompanyRfm(t.database.db, alice.companyId);
    await refreshCompanyRfm(t.database.db, bob.companyId);
    const body = (await get(alice, '/api/benchmark/rfm-dashboard/')).json();
    const guests = [...expected().values()];
    expect(Date.parse(body.computed_at)).toBeGreaterThan(Date.now() - 600_000);
    for (const square of body.grid) {
      const inSquare = guests.filter((guest) => guest.r === square.r && guest.f === square.f);
      expect(square.guests, `R${square.r} F${square.f}`).toBe(inSquare.length);
      expect(square.cell).toBe(GRID[square.r - 1]![square.f - 1]);
    }
    const figures = cellFigures(guests);
    for (const cell of body.cells) {
      const want = figures[cell.cell]!;
      expect(cell.guests, cell.cell).toBe(want.guests);
      expect(cell.guests_pct).toBeCloseTo((want.guests / guests.length) * 100, 2);
      expect(cell.revenue).toBeCloseTo(want.revenue, 2);
      expect(cell.revenue_share).toBeCloseTo(want.revenue_share, 2);
      if (want.clv === null) expect(cell.clv).toBeNull();
      else expect(cell.clv).toBeCloseTo(want.clv, 2);
      expect(cell.recency).toBeCloseTo(want.recency, 2);
      expect(cell.frequency).toBeCloseTo(want.frequency, 2);
      expect(cell.monetary).toBeCloseTo(want.monetary, 2);
    }
    // Several cells are populated, so the comparison is not of zeros.
    expect(body.cells.filter((cell: { guests: number }) => cell.guests > 0).length).toBeGreaterThan(5);
    // Only Alice's guests, scored among themselves: Bob's three guests are nowhere.
    expect(body.totals.guests).toBe(60);
    expect(body.totals.revenue).toBeCloseTo(
      guests.reduce((sum, guest) => sum + guest.spendCents, 0) / 100,
      2,
    );
    const bobsBody = (await get(bob, '/api/benchmark/rfm-dashboard/')).json();
    expect(bobsBody.totals.guests).toBe(3);
  });

  it('keeps the guests who visited a picked location, scored over the whole company', async () => {
    const body = (await get(alice, `/api/benchmark/rfm-dashboard/?location_id=${away}`)).json();
    const visitors = [...expected().values()].filter((guest) => guest.locations.has(away));
    expect(visitors.length).toBeGreaterThan(0);
    expect(visitors.length).toBeLessThan(60);
    expect(body.totals.guests).toBe(visitors.length);
    const figures = cellFigures(visitors);
    for (const cell of body.cells) {
      expect(cell.guests, cell.cell).toBe(figures[cell.cell]!.guests);
      expect(cell.revenue_share).toBeCloseTo(figures[cell.cell]!.revenue_share, 2);
    }
    // Both locations (summed on the call, not stored): every guest, each once.
    const both = (
      await get(alice, `/api/benchmark/rfm-dashboard/?location_id=${home}&location_id=${away}`)
    ).json();
    const everyone = cellFigures([...expected().values()]);
    expect(both.totals.guests).toBe(60);
    for (const cell of both.cells) expect(cell.guests, cell.cell).toBe(everyone[cell.cell]!.guests);
  });

  it('pages a cell’s guests by id, and saving the cell as a segment gives the same guests', async () => {
    const picked = `location_id=${away}`;
    const body = (await get(alice, `/api/benchmark/rfm-dashboard/?${picked}`)).json();
    const cell = body.cells.reduce((best: { guests: number }, next: { guests: number }) =>
      next.guests > best.guests ? next : best,
    );
    const want = [...expected()]
      .filter(([, guest]) => guest.cell === cell.cell && guest.locations.has(away))
      .map(([posId]) => posId);
    expect(want.length).toBe(cell.guests);
    const seen: string[] = [];
    let url: string | null = `/api/benchmark/rfm-dashboard/guests/?cell=${cell.cell}&${picked}&page_size=2`;
    while (url) {
      const page: { count: number; next: string | null; results: { pos_id: string }[] } = (
        await get(alice, url.startsWith('/api') ? url : `/api${url}`)
      ).json();
      expect(page.count).toBe(cell.guests);
      seen.push(...page.results.map((guest: { pos_id: string }) => guest.pos_id));
      url = page.next;
    }
    expect(seen.sort()).toEqual(want.sort());

    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns/segments/',
      headers: alice.headers,
      payload: {
        name: 'Away cell',
        location_ids: [away],
        segment_groups: [{ segment_rules: [{ type: 'rfm_cell', operator: 'in', value: [cell.cell] }] }],
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().segmentcache.all_customers).toBe(cell.guests);
  });

  it('refuses a bad cell, picker or page by field, and another company’s location with a 404', async () => {
    const badCell = await get(alice, '/api/benchmark/rfm-dashboard/guests/?cell=vips');
    expect(badCell.statusCode).toBe(400);
    expect(Object.keys(badCell.json().error.fields)).toEqual(['cell']);
    const noCell = await get(alice, '/api/benchmark/rfm-dashboard/guests/');
    expect(Object.keys(noCell.json().error.fields)).toEqual(['cell']);
    const badPicker = await get(alice, '/api/benchmark/rfm-dashboard/?location_id=abc');
    expect(badPicker.statusCode).toBe(400);
    expect(Object.keys(badPicker.json().error.fields)).toEqual(['location_id.0']);
    const badAfter = await get(alice, '/api/benchmark/rfm-dashboard/guests/?cell=lost&after=-1');
    expect(Object.keys(badAfter.json().error.fields)).toEqual(['after']);
    expect((await get(alice, `/api/benchmark/rfm-dashboard/?location_id=${bobsPlace}`)).statusCode).toBe(404);
    expect(
      (await get(alice, `/api/benchmark/rfm-dashboard/guests/?cell=lost&location_id=${bobsPlace}`))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/benchmark/rfm-dashboard/' })).statusCode).toBe(
      401,
    );
  });
});
