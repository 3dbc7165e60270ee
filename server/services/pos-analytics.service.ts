import type {
  MenuItemQuery,
  MenuItemSales,
  OptionalRangeQuery,
  Revenue,
  RevenueQuery,
  Sales,
  SalesQuery,
} from '../../src/schemas/pos-analytics.js';
import type { Database, Sql } from '../db/database.js';
import { notFound } from '../http/errors.js';
import {
  listMenuItemSales,
  menuCategoryFigures,
  menuItemFigures,
  resolveLocationScope,
  revenueByPeriod,
  revenueCenterSales,
  salesFigures,
} from '../repositories/pos-analytics.repository.js';
import { presenceScopeFor } from './dashboard-scope.js';

/** Cents as dollars. */
const dollars = (cents: number | string) => Number(cents) / 100;

/** The locations of a call's `location_id` and `location_group_id`; another company's id is a 404. */
export async function scopeOf(
  sql: Sql,
  companyId: number,
  query: { location_id: number[]; location_group_id: number[] },
): Promise<number[] | null> {
  const scope = await resolveLocationScope(sql, companyId, query.location_id, query.location_group_id);
  if (scope.kind === 'unknown') throw notFound(scope.field === 'location_id' ? 'Location' : 'Location group');
  return scope.ids;
}

/** The day `days` after a `YYYY-MM-DD` day (before, when negative). */
export function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The same-length range just before an inclusive range (`is_prev_sales`). */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const length = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  return { from: shiftDay(from, -length), to: shiftDay(from, -1) };
}

/** The menu, revenue and sales calls of spec section 7, from the daily rollups. */
export function posAnalyticsService(db: Database) {
  const rangeOf = (query: { from_date?: string | undefined; to_date?: string | undefined }) => ({
    from: query.from_date ?? null,
    to: query.to_date ?? null,
  });
  return {
    /** Revenue per period of the range, every period listed. */
    async revenue(companyId: number, query: RevenueQuery): Promise<Revenue> {
      const rows = await db.tenant(companyId, async (sql) =>
        revenueByPeriod(
          sql,
          companyId,
          await scopeOf(sql, companyId, query),
          { from: query.from_date, to: query.to_date },
          query.interval,
        ),
      );
      return {
        interval: query.interval,
        from_date: query.from_date,
        to_date: query.to_date,
        results: rows.map((row) => ({ period: row.period, revenue: dollars(row.revenue_cents) })),
      };
    },
    /** The range's sales, or those of the same-length range before it. */
    async sales(companyId: number, query: SalesQuery): Promise<Sales> {
      const range =
        query.is_prev_sales === 'true'
          ? previousRange(query.from_date, query.to_date)
          : { from: query.from_date, to: query.to_date };
      const row = await db.tenant(companyId, async (sql) =>
        scopeOf(sql, companyId, query).then(async (ids) =>
          salesFigures(sql, companyId, ids, range, await presenceScopeFor(sql, companyId, ids, query)),
        ),
      );
      const checks = Number(row.checks);
      const revenueCents = Number(row.revenue_cents);
      return {
        from_date: range.from,
        to_date: range.to,
        revenue: dollars(revenueCents),
        checks,
        guests: Number(row.guests),
        average_check: checks === 0 ? 0 : Math.round(revenueCents / checks) / 100,
        new_guests: Number(row.new_guests),
        returning_guests: Number(row.guests) - Number(row.new_guests),
      };
    },
    /** A page of menu items with their units, revenue and checks in the range. */
    async menuItems(
      companyId: number,
      query: MenuItemQuery,
      window: { limit: number; offset: number },
    ): Promise<{ count: number; results: MenuItemSales[] }> {
      const { count, rows } = await db.tenant(companyId, async (sql) =>
        listMenuItemSales(
          sql,
          companyId,
          {
            locations: await scopeOf(sql, companyId, query),
            range: rangeOf(query),
            categoryIds: query.category,
            q: query.q,
          },
          window,
        ),
      );
      return {
        count,
        results: rows.map((row) => ({
          id: row.id,
          name: row.name,
          category_id: row.category_id,
          category: row.category,
          location_id: row.location_id,
          price: dollars(row.price_cents),
          is_active: row.is_active,
          units: Number(row.units),
          revenue: dollars(row.revenue_cents),
          checks: Number(row.checks),
        })),
      };
    },
    /** Every revenue center of the locations asked, with its revenue and checks in the range. */
    async revenueCenters(companyId: number, query: OptionalRangeQuery) {
      const rows = await db.tenant(companyId, async (sql) =>
        revenueCenterSales(sql, companyId, await scopeOf(sql, companyId, query), rangeOf(query)),
      );
      return {
        results: rows.map((row) => ({
          id: row.id,
          name: row.name,
          location_id: row.location_id,
          location_name: row.location_name,
          revenue: dollars(row.revenue_cents),
          checks: Number(row.checks),
        })),
      };
    },
    /** Units, revenue and checks per item sold in the range, most revenue first. */
    async menuItemFigures(companyId: number, query: OptionalRangeQuery) {
      const rows = await db.tenant(companyId, async (sql) =>
        menuItemFigures(sql, companyId, await scopeOf(sql, companyId, query), rangeOf(query)),
      );
      return {
        results: rows.map((row) => ({
          menu_item_id: row.menu_item_id,
          name: row.name,
          category_id: row.category_id,
          category: row.category,
          units: Number(row.units),
          revenue: dollars(row.revenue_cents),
          checks: Number(row.checks),
        })),
      };
    },
    /** Units and revenue per category in the range, most revenue first. */
    async menuCategoryFigures(companyId: number, query: OptionalRangeQuery) {
      const rows = await db.tenant(companyId, async (sql) =>
        menuCategoryFigures(sql, companyId, await scopeOf(sql, companyId, query), rangeOf(query)),
      );
      return {
        results: rows.map((row) => ({
          category_id: row.category_id,
          category: row.category,
          units: Number(row.units),
          revenue: dollars(row.revenue_cents),
        })),
      };
    },
  };
}

/** The POS analytics service's interface. */
export type PosAnalyticsService = ReturnType<typeof posAnalyticsService>;
