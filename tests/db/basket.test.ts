import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import { BASKET_BOUNDS, basketService } from '../../server/services/basket.service.js';
import { forgetKeptAudiences } from '../../server/services/kept-audiences.js';
import {
  BasketItemGuestsQuerySchema,
  BasketQuerySchema,
  type Basket,
} from '../../src/schemas/basket-analytics.js';
import { seededRandom } from '../support/clv-simulation.js';
import { makeLocation, systemScope } from '../support/factories.js';
import { useTwoCompanies } from '../support/two-companies.js';

/**
 * The basket figures against a brute-force count over the generated checks in plain JS: every check's local day
 * (company zone) and day part (location zone) by Intl, every item set by hand, every pair by enumerating the
 * pairs of each check.
 */

const COMPANY_ZONE = 'America/Los_Angeles';
const LOCATION_ZONE = 'America/New_York';
const ITEMS = [
  ['Burger', 'Mains'],
  ['Salad', 'Mains'],
  ['Steak', 'Mains'],
  ['Fries', 'Sides'],
  ['Slaw', 'Sides'],
  ['Soda', 'Drinks'],
  ['Beer', 'Drinks'],
  ['Pie', 'Desserts'],
] as const;

const localDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: COMPANY_ZONE }).format(at);
function dayPart(at: Date): string {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { timeZone: LOCATION_ZONE, hour: '2-digit', hourCycle: 'h23' }).format(
      at,
    ),
  );
  return hour >= 5 && hour < 11
    ? 'breakfast'
    : hour < 16 && hour >= 11
      ? 'lunch'
      : hour >= 16 && hour < 22
        ? 'dinner'
        : 'late';
}

interface Filter {
  locations: number[] | null;
  from: string;
  to: string;
  dayPart: string | null;
  minSupport: number;
}

/** Everything the call answers, counted by hand over the checks. */
function bruteForce(checks: IngestCheck[], guestOf: (check: IngestCheck) => string | null, filter: Filter) {
  const chosen = checks.filter(
    (check) =>
      (filter.locations === null || filter.locations.includes(check.location_id)) &&
      localDay(check.closed_at) >= filter.from &&
      localDay(check.closed_at) <= filter.to &&
      (filter.dayPart === null || dayPart(check.opened_at) === filter.dayPart),
  );
  const total = chosen.length;
  const itemChecks = new Map<string, number>();
  const itemUnits = new Map<string, number>();
  const itemGuests = new Map<string, Set<string>>();
  const categoryChecks = new Map<string, number>();
  const pairChecks = new Map<string, number>();
  let units = 0;
  let multi = 0;
  for (const check of chosen) {
    const names = [...new Set(check.lines.map((line) => line.menu_item))].sort();
    const categories = new Set(check.lines.map((line) => line.category!));
    if (names.length > 1) multi++;
    for (const line of check.lines) {
      units += line.quantity;
      itemUnits.set(line.menu_item, (itemUnits.get(line.menu_item) ?? 0) + line.quantity);
    }
    for (const name of names) {
      itemChecks.set(name, (itemChecks.get(name) ?? 0) + 1);
      const guest = guestOf(check);
      const guests = itemGuests.get(name) ?? new Set<string>();
      if (guest) guests.add(guest);
      itemGuests.set(name, guests);
    }
    for (const category of categories) categoryChecks.set(category, (categoryChecks.get(category) ?? 0) + 1);
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const key = `${names[i]}|${names[j]}`;
        pairChecks.set(key, (pairChecks.get(key) ?? 0) + 1);
      }
    }
  }
  const rules = new Map<string, { checks: number; support: number; confidence: number; lift: number }>();
  for (const [key, both] of pairChecks) {
    if (both * 100 < filter.minSupport * total) continue;
    const [a, b] = key.split('|') as [string, string];
    const support = (both / total) * 100;
    const lift = both / total / ((itemChecks.get(a)! / total) * (itemChecks.get(b)! / total));
    rules.set(`${a}→${b}`, { checks: both, support, confidence: (both / itemChecks.get(a)!) * 100, lift });
    rules.set(`${b}→${a}`, { checks: both, support, confidence: (both / itemChecks.get(b)!) * 100, lift });
  }
  const guests = new Set(chosen.map(guestOf).filter((guest) => guest !== null)).size;
  return { total, guests, units, multi, itemChecks, itemUnits, itemGuests, categoryChecks, rules };
}

describe('basket figures', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let locations: number[] = [];
  const checks: IngestCheck[] = [];
  const random = seededRandom(29);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  /** A check within 20 days of 2025-03-01 at any minute, with 0–4 lines; Fries and Soda often follow a Burger. */
  function makeCheck(number: number): IngestCheck {
    const closed = new Date(Date.UTC(2025, 2, 1) + Math.floor(random() * 20 * 24 * 60) * 60_000);
    const lines: IngestCheck['lines'] = [];
    const count = Math.floor(random() * 5);
    for (let n = 0; n < count; n++) {
      const [item, category] = pick(ITEMS);
      lines.push({ menu_item: item, category, quantity: 1 + Math.floor(random() * 2), amount: 500 });
      if (item === 'Burger' && random() < 0.6)
        lines.push({ menu_item: 'Fries', category: 'Sides', quantity: 1, amount: 300 });
    }
    return {
      location_id: pick(locations),
      check_number: `B-${number}`,
      opened_at: new Date(closed.getTime() - 45 * 60_000),
      closed_at: closed,
      total: 1000,
      guest: random() < 0.25 ? undefined : { pos_id: `P-${Math.floor(random() * 40)}` },
      lines,
    };
  }

  const figures = (companyId: number, query: Record<string, unknown>) =>
    basketService(db, () => new Date('2025-03-25T12:00:00Z')).figures(
      companyId,
      BasketQuerySchema.parse(query),
    );

  beforeAll(async () => {
    await db.owner((sql) =>
      sql.query('UPDATE companies SET time_zone = $2 WHERE id = $1', [companyA, COMPANY_ZONE]),
    );
    locations = [
      (await makeLocation(db, companyA, 'North')).id,
      (await makeLocation(db, companyA, 'South')).id,
    ];
    for (let n = 0; n < 400; n++) checks.push(makeCheck(n));
    await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), checks));
    // Company B's checks use the same names: none of them may count for A.
    const other = (await makeLocation(db, companyB, 'Elsewhere')).id;
    const theirs = checks.slice(0, 100).map((check) => ({ ...check, location_id: other }));
    await db.tenant(companyB, (sql) => ingestChecks(sql, systemScope(companyB), theirs));
  });

  const itemGuests = (companyId: number, query: Record<string, unknown>) =>
    basketService(db, () => new Date('2025-03-25T12:00:00Z')).itemGuests(
      companyId,
      BasketItemGuestsQuerySchema.parse(query),
    );

  const guestOf = (check: IngestCheck) => check.guest?.pos_id ?? null;

  async function expectMatches(answer: Basket, filter: Filter) {
    const model = bruteForce(checks, guestOf, filter);
    expect(answer.totals.checks).toBe(model.total);
    expect(answer.totals.units).toBe(model.units);
    expect(answer.totals.multi_item_rate).toBeCloseTo(model.total ? (model.multi / model.total) * 100 : 0, 9);
    expect(answer.totals.guests).toBe(model.guests);
    expect(Object.fromEntries(answer.items.map((item) => [item.name, item.checks]))).toEqual(
      Object.fromEntries(model.itemChecks),
    );
    for (const item of answer.items) {
      expect(item.units).toBe(model.itemUnits.get(item.name));
      // "Guests who ordered X" is asked one item at a time, with the same filters.
      const counted = await itemGuests(companyA, {
        from_date: filter.from,
        to_date: filter.to,
        menu_item_id: item.menu_item_id,
        ...(filter.locations ? { location_id: filter.locations } : {}),
        ...(filter.dayPart ? { day_part: filter.dayPart } : {}),
      });
      expect(counted).toMatchObject({
        menu_item_id: item.menu_item_id,
        guests: model.itemGuests.get(item.name)!.size,
      });
      expect(item.attach_rate).toBeCloseTo((model.itemChecks.get(item.name)! / model.total) * 100, 9);
    }
    expect(
      Object.fromEntries(answer.categories.map((category) => [category.category, category.checks])),
    ).toEqual(Object.fromEntries(model.categoryChecks));
    // Eight items: all of them are within the pair bound, so every pair at or above the support is listed.
    expect(ITEMS.length).toBeLessThan(BASKET_BOUNDS.pairItems);
    const rules = new Map(answer.pairs.map((rule) => [`${rule.item}→${rule.with_item}`, rule]));
    expect([...rules.keys()].sort()).toEqual([...model.rules.keys()].sort());
    for (const [key, expected] of model.rules) {
      const rule = rules.get(key)!;
      expect(rule.checks).toBe(expected.checks);
      expect(rule.support).toBeCloseTo(expected.support, 9);
      expect(rule.confidence).toBeCloseTo(expected.confidence, 9);
      expect(rule.lift).toBeCloseTo(expected.lift, 9);
    }
    return model;
  }

  it('counts items, categories, attach rates and pairs over every location and the whole range', async () => {
    const filter = { locations: null, from: '2025-02-28', to: '2025-03-22', dayPart: null, minSupport: 0 };
    const answer = await figures(companyA, { from_date: filter.from, to_date: filter.to, min_support: 0 });
    const model = await expectMatches(answer, filter);
    expect(model.rules.size).toBeGreaterThan(20);
    // The planted pair stands out.
    const burgerFries = answer.pairs.find((rule) => rule.item === 'Burger' && rule.with_item === 'Fries')!;
    expect(burgerFries.lift).toBeGreaterThan(1);
  });

  it('filters by location, day part, minimum support and range', async () => {
    const cases: Filter[] = [
      { locations: [locations[0]!], from: '2025-03-03', to: '2025-03-12', dayPart: null, minSupport: 2 },
      { locations: null, from: '2025-03-01', to: '2025-03-20', dayPart: 'dinner', minSupport: 1.5 },
      { locations: [locations[1]!], from: '2025-03-05', to: '2025-03-18', dayPart: 'late', minSupport: 5 },
      { locations: null, from: '2025-03-08', to: '2025-03-08', dayPart: 'lunch', minSupport: 0 },
      // Two picked locations: no presence rows count them, so the guests are counted from the checks.
      { locations: [...locations], from: '2025-03-02', to: '2025-03-21', dayPart: null, minSupport: 1 },
    ];
    for (const filter of cases) {
      const answer = await figures(companyA, {
        from_date: filter.from,
        to_date: filter.to,
        min_support: filter.minSupport,
        ...(filter.locations ? { location_id: filter.locations } : {}),
        ...(filter.dayPart ? { day_part: filter.dayPart } : {}),
      });
      const model = await expectMatches(answer, filter);
      expect(model.total).toBeGreaterThan(0);
    }
  });

  it('answers only the pairs of the focus item, and the previous period with compare', async () => {
    const all = await figures(companyA, { from_date: '2025-03-01', to_date: '2025-03-20', min_support: 0 });
    const burger = all.items.find((item) => item.name === 'Burger')!;
    const focused = await figures(companyA, {
      from_date: '2025-03-11',
      to_date: '2025-03-20',
      min_support: 0,
      menu_item_id: burger.menu_item_id,
      compare: 'previous',
    });
    const model = bruteForce(checks, guestOf, {
      locations: null,
      from: '2025-03-11',
      to: '2025-03-20',
      dayPart: null,
      minSupport: 0,
    });
    const expected = [...model.rules.keys()].filter((key) => key.startsWith('Burger→')).sort();
    expect(focused.pairs.map((rule) => `${rule.item}→${rule.with_item}`).sort()).toEqual(expected);
    expect(focused.previous).toEqual({ from: '2025-03-01', to: '2025-03-10' });
    const before = bruteForce(checks, guestOf, {
      locations: null,
      from: '2025-03-01',
      to: '2025-03-10',
      dayPart: null,
      minSupport: 0,
    });
    expect(focused.previous_totals!.checks).toBe(before.total);
    expect(focused.previous_totals!.units).toBe(before.units);
    expect(focused.previous_totals!.guests).toBe(before.guests);
  });

  it('keeps companies apart and says why a range has nothing', async () => {
    const theirs = await figures(companyB, { from_date: '2025-02-28', to_date: '2025-03-22' });
    expect(theirs.totals.checks).toBe(100);
    const empty = await figures(companyA, { from_date: '2024-01-01', to_date: '2024-01-31' });
    expect(empty.totals).toEqual({
      checks: 0,
      units: 0,
      revenue: 0,
      guests: 0,
      units_per_check: 0,
      multi_item_rate: 0,
    });
    expect(empty.items).toEqual([]);
    expect(empty.pairs).toEqual([]);
    expect(empty.segment.reason).toBe('past_range');
    // Another company's item is unknown here: its guests are not counted.
    const burger = (await figures(companyA, { from_date: '2025-03-01', to_date: '2025-03-20' })).items.find(
      (item) => item.name === 'Burger',
    )!;
    await expect(
      itemGuests(companyB, {
        from_date: '2025-03-01',
        to_date: '2025-03-20',
        menu_item_id: burger.menu_item_id,
      }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("sums an item's guests from the item presence rows at any day part, and keeps other picks' for the company's day", async () => {
    const range = { from_date: '2025-03-01', to_date: '2025-03-20' };
    const burger = (await figures(companyA, range)).items.find((item) => item.name === 'Burger')!;
    const ask = (at: Date, filters: Record<string, unknown> = {}) =>
      basketService(db, () => at).itemGuests(
        companyA,
        BasketItemGuestsQuerySchema.parse({ ...range, ...filters, menu_item_id: burger.menu_item_id }),
      );
    const newCheckOpens = new Date('2025-03-10T18:00:00Z');
    // The day part of the new guests' checks.
    const part = dayPart(newCheckOpens);
    const expected = (places: number[] | null, picked: string | null = null, from = range.from_date) =>
      bruteForce(checks, guestOf, {
        locations: places,
        from,
        to: range.to_date,
        dayPart: picked,
        minSupport: 0,
      }).itemGuests.get('Burger')!.size;
    // A guest never seen before orders a burger in the range, at the first location.
    const newBurgerGuest = async (posId: string) => {
      const check: IngestCheck = {
        location_id: locations[0]!,
        check_number: `K-${posId}`,
        opened_at: newCheckOpens,
        closed_at: new Date('2025-03-10T19:00:00Z'),
        total: 900,
        guest: { pos_id: posId },
        lines: [{ menu_item: 'Burger', category: 'Mains', quantity: 1, amount: 900 }],
      };
      await db.tenant(companyA, (sql) => ingestChecks(sql, systemScope(companyA), [check]));
      checks.push(check);
    };
    await forgetKeptAudiences(db, companyA);
    const morning = new Date('2025-03-25T16:00:00Z'); // 09:00 in the company's zone
    // Every location and one location, at any day part or one: sums as current as the checks, with no counted time.
    const everywhere = await ask(morning);
    expect(everywhere).toEqual({
      menu_item_id: burger.menu_item_id,
      guests: expected(null),
      counted_at: null,
    });
    const north = await ask(morning, { location_id: [locations[0]] });
    expect(north).toEqual({ ...everywhere, guests: expected([locations[0]!]) });
    const atPart = await ask(morning, { day_part: part });
    expect(atPart).toEqual({ ...everywhere, guests: expected(null, part) });
    const northAtPart = await ask(morning, { day_part: part, location_id: [locations[0]] });
    expect(northAtPart).toEqual({ ...everywhere, guests: expected([locations[0]!], part) });
    // Another set of locations (both picked one by one, which no presence scope counts): counted and kept.
    const both = { day_part: part, location_id: [...locations] };
    const first = await ask(morning, both);
    expect(first).toEqual({
      ...everywhere,
      guests: expected([...locations], part),
      counted_at: morning.toISOString(),
    });
    await newBurgerGuest('P-kept-1');
    const noon = new Date('2025-03-25T20:00:00Z');
    expect(await ask(noon)).toEqual({ ...everywhere, guests: everywhere.guests + 1 });
    expect(await ask(noon, { location_id: [locations[0]] })).toEqual({ ...north, guests: north.guests + 1 });
    expect(await ask(noon, { day_part: part })).toEqual({ ...atPart, guests: atPart.guests + 1 });
    expect(await ask(noon, { day_part: part, location_id: [locations[0]] })).toEqual({
      ...northAtPart,
      guests: northAtPart.guests + 1,
    });
    // The same day: the kept count, from before the new guest.
    expect(await ask(noon, both)).toEqual(first);
    // Another range is its own count, made now.
    const other = await ask(noon, { ...both, from_date: '2025-03-05' });
    expect(other).toEqual({
      ...first,
      guests: expected([...locations], part, '2025-03-05'),
      counted_at: noon.toISOString(),
    });
    await forgetKeptAudiences(db, companyA);
    const recounted = await ask(noon, both);
    expect(recounted.guests).toBe(first.guests + 1);
    expect(recounted).toEqual({
      ...first,
      guests: expected([...locations], part),
      counted_at: noon.toISOString(),
    });
    // The next day counts again, and only that day's counts stay.
    await newBurgerGuest('P-kept-2');
    const nextMorning = new Date('2025-03-26T16:00:00Z');
    expect(await ask(nextMorning, both)).toEqual({
      ...first,
      guests: first.guests + 2,
      counted_at: nextMorning.toISOString(),
    });
    const { rows } = await db.owner((sql) =>
      sql.query<{ day: string }>(
        `SELECT DISTINCT to_char(counted_on, 'YYYY-MM-DD') AS day FROM kept_audiences WHERE company_id = $1`,
        [companyA],
      ),
    );
    expect(rows).toEqual([{ day: '2025-03-26' }]);
    // A range reaching today still takes checks (the one a segment is made from): counted at each ask, not kept.
    const toToday = { ...both, to_date: '2025-03-26' };
    const live = await ask(nextMorning, toToday);
    const filter = {
      locations: [...locations],
      from: range.from_date,
      to: '2025-03-26',
      dayPart: part,
      minSupport: 0,
    };
    expect(live.guests).toBe(bruteForce(checks, guestOf, filter).itemGuests.get('Burger')!.size);
    await newBurgerGuest('P-live');
    const later = new Date('2025-03-26T18:00:00Z');
    expect(live.counted_at).toBeNull();
    expect(await ask(later, toToday)).toEqual({ ...first, guests: live.guests + 1, counted_at: null });
  });
});
