import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSettingsFrom } from '../../server/auth/settings.js';
import type { RouteAccess } from '../../server/http/access.js';
import { isComingSoon, ROUTES } from '../../src/app/routes.js';
import { buildAppWithServices, type BuiltApp } from '../../server/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

/**
 * Every dashboard page's feature gate (src/app/routes.ts) is the gate its dashboard calls enforce: a company that
 * may open the page may load its figures, and one that may not open it cannot read them either. A dashboard page
 * of issue 17 whose screen is built must have its calls listed here, so a new dashboard fails this test until its
 * calls are named (and then checked).
 */

/** The dashboard pages of issue 17 (spec §2). */
const DASHBOARD_PAGES = [
  '/dashboard',
  '/marketing-analytics',
  '/analytics',
  '/aben-overview',
  '/basket-analytics',
  '/guest/analytics',
  '/demographics',
  '/consumer/insights/analytics',
  '/heatmap',
] as const;

/** The figure calls each built dashboard page makes (`METHOD /api/path`). */
const PAGE_CALLS: Partial<Record<(typeof DASHBOARD_PAGES)[number], readonly string[]>> = {
  '/dashboard': ['GET /api/analytics/recommendations/', 'GET /api/analytics/chart-data/'],
  '/marketing-analytics': ['GET /api/analytics/recommendations/', 'GET /api/analytics/chart-data/'],
  '/analytics': ['GET /api/analytics/summary/'],
  '/aben-overview': ['GET /api/analytics/overview/'],
  '/basket-analytics': ['GET /api/analytics/basket/', 'GET /api/analytics/basket/item-guests/'],
  '/guest/analytics': ['GET /api/analytics/guests/'],
  '/demographics': ['GET /api/analytics/demographics/'],
  '/heatmap': ['GET /api/analytics/customer-journey/'],
  '/consumer/insights/analytics': ['GET /api/analytics/consumer-insights/'],
};

/** Each API route's access rule, by `METHOD /api/path`. */
function accessOf(routes: readonly RouteOptions[]): Map<string, RouteAccess | undefined> {
  const found = new Map<string, RouteAccess | undefined>();
  for (const route of routes) {
    const config = (route.config ?? {}) as { access?: RouteAccess };
    for (const method of [route.method].flat()) found.set(`${method} ${route.url}`, config.access);
  }
  return found;
}

describe('dashboard pages and their calls share one feature gate', () => {
  let database: TestDatabase;
  let built: BuiltApp;

  beforeAll(async () => {
    database = await openTestDatabase();
    built = await buildAppWithServices({
      db: database.db,
      logLevel: 'silent',
      clientDir: null,
      auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
    });
    await built.app.ready();
  });
  afterAll(async () => {
    await built.app.close();
    await database.drop();
  });

  it('lists the calls of every built dashboard page', () => {
    const shown = DASHBOARD_PAGES.filter((path) => {
      const route = ROUTES.find((one) => one.pattern === path);
      expect(route, `${path} is a page`).toBeDefined();
      return !isComingSoon(route!);
    });
    expect(shown.length).toBeGreaterThanOrEqual(Object.keys(PAGE_CALLS).length);
    for (const path of shown) expect(PAGE_CALLS[path], `the calls of ${path}`).toBeDefined();
  });

  it('gates each call by its page’s feature', () => {
    const calls = accessOf(built.routes);
    for (const [path, names] of Object.entries(PAGE_CALLS)) {
      const page = ROUTES.find((one) => one.pattern === path)!;
      for (const name of names) {
        expect(calls.has(name), `${name} exists`).toBe(true);
        const rule = calls.get(name);
        expect(rule, `${name} has an access rule`).toBeDefined();
        expect(rule!.feature ?? null, `${path} → ${name}`).toBe(page.feature);
      }
    }
  });
});
