import type {
  Basket,
  BasketItemGuests,
  BasketItemGuestsQuery,
  BasketPair,
  BasketQuery,
  BasketTotals,
} from '../../src/schemas/basket-analytics.js';
import { dollars } from '../../src/schemas/dashboard-figures.js';
import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { CompanyId, Sql } from '../db/database.js';
import {
  basketCheckGuests,
  basketFigures,
  basketItemGuests,
  basketTotals,
  hasMenuItem,
  type BasketFilter,
  type BasketPairRow,
  type BasketTotalsRow,
} from '../repositories/basket.repository.js';
import {
  dayPartPresenceGuests,
  itemPresenceGuests,
  presenceTotals,
  type PresenceScope,
} from '../repositories/guest-presence.repository.js';
import { daysIn } from '../../src/schemas/dashboard-query.js';
import { companyToday } from '../repositories/company-clock.repository.js';
import { resolveDashboardScope } from './dashboard-scope.js';
import { audienceKey, keptOrCounted } from './kept-audiences.js';

/** The bounds of one answer (docs/dashboards.md, "Basket"). */
export const BASKET_BOUNDS = { itemLimit: 100, pairItems: 40, pairLimit: 300 } as const;

const percent = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);

function totalsOf(row: BasketTotalsRow, guests: number): BasketTotals {
  return {
    checks: row.checks,
    units: row.units,
    revenue: dollars(row.revenue_cents),
    guests,
    units_per_check: row.checks === 0 ? 0 : row.units / row.checks,
    multi_item_rate: percent(row.multi_item_checks, row.checks),
  };
}

/** Both rules of an unordered pair, a → b and b → a. */
function rulesOf(pair: BasketPairRow, checks: number): BasketPair[] {
  const support = percent(pair.checks, checks);
  const lift = (pair.checks * checks) / (pair.a_checks * pair.b_checks);
  return [
    {
      item_id: pair.a,
      item: pair.a_name,
      with_item_id: pair.b,
      with_item: pair.b_name,
      checks: pair.checks,
      support,
      confidence: percent(pair.checks, pair.a_checks),
      lift,
    },
    {
      item_id: pair.b,
      item: pair.b_name,
      with_item_id: pair.a,
      with_item: pair.a_name,
      checks: pair.checks,
      support,
      confidence: percent(pair.checks, pair.b_checks),
      lift,
    },
  ];
}

/**
 * The range's distinct guests: summed from the presence rollup when its rows count these locations (at a day part
 * from the item presence rows of any check, migration 0057), else counted from the range's checks.
 */
async function rangeGuests(
  sql: Sql,
  companyId: CompanyId,
  filter: BasketFilter,
  presence: PresenceScope | null,
): Promise<number> {
  if (!presence) return basketCheckGuests(sql, companyId, filter);
  if (filter.dayPart === null) return (await presenceTotals(sql, companyId, presence, filter)).guests;
  return dayPartPresenceGuests(sql, companyId, presence, filter, filter.dayPart);
}

/** What the basket's rows are read over: the query's range and day part at the scope's locations. */
function filterOf(
  query: Pick<BasketQuery, 'from_date' | 'to_date' | 'day_part'>,
  locations: number[] | null,
  zone: string,
): BasketFilter {
  return { locations, from: query.from_date, to: query.to_date, zone, dayPart: query.day_part ?? null };
}

/** The key an item's guests are kept under: the basket's kind, the item and every filter of the count. */
function itemGuestsKey(filter: BasketFilter, itemId: number): string {
  return audienceKey({
    kind: 'basket_item_guests',
    menu_item_id: itemId,
    locations: filter.locations && [...filter.locations].sort((a, b) => a - b),
    from: filter.from,
    to: filter.to,
    day_part: filter.dayPart,
    zone: filter.zone,
  });
}

/** The basket dashboard's figures (`GET /analytics/basket/`). */
export function basketService(db: Database, now: () => Date = () => new Date()) {
  return {
    /**
     * Items, categories, attach rates and pairs of the range's checks at the picked locations (and day part);
     * the previous period's totals with `compare=previous`. Another company's location, group or item is a 404.
     */
    async figures(companyId: number, query: BasketQuery): Promise<Basket> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        const locations = scope.locationIds;
        // The dashboard scope's days are never open: the query requires both ends.
        const previous = scope.previous ? { from: scope.previous.from!, to: scope.previous.to! } : null;
        const focus = query.menu_item_id ?? null;
        if (focus !== null && !(await hasMenuItem(sql, companyId, focus))) throw notFound('Menu item');
        const { zone, today } = await companyToday(sql, companyId, now());
        const dayPart = query.day_part ?? null;
        const filter = filterOf(query, locations, zone);
        const rows = await basketFigures(sql, companyId, filter, {
          minSupportBasisPoints: Math.round(query.min_support * 100),
          focusItem: focus,
          ...BASKET_BOUNDS,
        });
        const guests = await rangeGuests(sql, companyId, filter, scope.presence);
        const previousFilter = previous ? { ...filter, ...previous } : null;
        const previousTotals = previousFilter
          ? totalsOf(
              await basketTotals(sql, companyId, previousFilter),
              await rangeGuests(sql, companyId, previousFilter, scope.presence),
            )
          : null;
        const checks = rows.totals.checks;
        const pairs = rows.pairs
          .flatMap((pair) => rulesOf(pair, checks))
          .filter((rule) => focus === null || rule.item_id === focus);
        // The segment's window runs from from_date to today: it matches only a range that reaches today.
        const reachesToday = query.from_date <= today && query.to_date >= today;
        const reason = dayPart !== null ? 'day_part' : reachesToday ? 'ok' : 'past_range';
        return {
          range: { from: query.from_date, to: query.to_date },
          previous,
          totals: totalsOf(rows.totals, guests),
          previous_totals: previousTotals,
          min_support: query.min_support,
          day_part: dayPart,
          items: rows.items.map((item) => ({
            menu_item_id: item.menu_item_id,
            name: item.name,
            category_id: item.category_id,
            category: item.category,
            units: item.units,
            revenue: dollars(item.revenue_cents),
            checks: item.checks,
            attach_rate: percent(item.checks, checks),
          })),
          item_limit: BASKET_BOUNDS.itemLimit,
          categories: rows.categories.map((category) => ({
            category_id: category.category_id,
            category: category.category,
            units: category.units,
            revenue: dollars(category.revenue_cents),
            checks: category.checks,
            attach_rate: percent(category.checks, checks),
          })),
          pairs,
          pair_item_limit: BASKET_BOUNDS.pairItems,
          pair_limit: BASKET_BOUNDS.pairLimit,
          segment: {
            location_ids: locations,
            window_days: reason === 'ok' ? daysIn({ from: query.from_date, to: today }) : null,
            reason,
          },
        };
      });
    },

    /**
     * "Guests who ordered X": distinct guests with a check in the range (locations, day part) holding the item.
     * Summed from the item presence rollup for every location, one location or one ready group, at any day part or
     * one (migrations 0055 and 0057); else counted from its checks and lines, with when it was counted: a range of
     * finished days once a day and kept (docs/dashboards.md, "Kept audiences"), a range reaching today at each ask.
     * Another company's location, group or item is a 404.
     */
    async itemGuests(companyId: number, query: BasketItemGuestsQuery): Promise<BasketItemGuests> {
      return db.tenant(companyId, async (sql) => {
        const scope = await resolveDashboardScope(sql, companyId, query);
        if (!(await hasMenuItem(sql, companyId, query.menu_item_id))) throw notFound('Menu item');
        const asOf = now();
        const { zone, today } = await companyToday(sql, companyId, asOf);
        const filter = filterOf(query, scope.locationIds, zone);
        // The company, one location or a ready group: a sum over the item presence rows, kept with the checks, so
        // as current as a count.
        if (scope.presence) {
          const guests = await itemPresenceGuests(
            sql,
            companyId,
            scope.presence,
            query.menu_item_id,
            filter,
            filter.dayPart,
          );
          return { menu_item_id: query.menu_item_id, guests, counted_at: null };
        }
        const count = () => basketItemGuests(sql, companyId, filter, query.menu_item_id);
        // A range reaching today still takes checks (and voids) — the one a segment is made from: counted live.
        if (filter.to >= today) {
          return { menu_item_id: query.menu_item_id, guests: await count(), counted_at: null };
        }
        const [kept] = await keptOrCounted(
          sql,
          companyId,
          { asOf, today },
          [itemGuestsKey(filter, query.menu_item_id)],
          async () => [await count()],
        );
        return {
          menu_item_id: query.menu_item_id,
          guests: kept!.audience,
          counted_at: kept!.counted_at.toISOString(),
        };
      });
    },
  };
}

/** The basket service. */
export type BasketService = ReturnType<typeof basketService>;
