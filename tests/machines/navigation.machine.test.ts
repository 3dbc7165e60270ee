import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { customErrorPath, ROUTE_RULES, ROUTES } from '../../src/app/routes.js';
import { customErrorFor } from '../../src/app/ScreenBoundary.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import {
  type Access,
  breadcrumbsFor,
  findRoute,
  type NavigationEvent,
  navigationMachine,
  normalizePath,
  pathBeforeNavigation,
  roleAllowed,
} from '../../src/machines/navigation.machine.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const OWNER: Access = { features: ALL_FEATURES, role: 'owner', isStaff: false };
const ANALYST_WITHOUT_DASHBOARD: Access = { features: [], role: 'analyst', isStaff: false };
const STAFF: Access = { features: ['Recommendations', 'Locations'], role: 'admin', isStaff: true };
/** Platform staff as their own support company sees them: no marketing features at all. */
const PLATFORM_STAFF: Access = { features: [], role: 'owner', isStaff: true };
const MARKETER: Access = { features: ALL_FEATURES, role: 'marketer', isStaff: false };

/** A path of each route, with sample values for its parameters. */
const ROUTE_PATHS = ROUTE_RULES.map((rule) =>
  rule.pattern.replace(/:(\w+)/g, (_, name: string) => `sample-${name}`),
);

/** A link whose percent-encoding is broken: it must be a 404, never a crash. */
const MALFORMED = '/guest/profile/%E0%A4%A/x/1';

const PATHS = [
  '/',
  ...ROUTE_PATHS,
  '/dashboard/',
  '/nowhere',
  '/custom-error/error-9',
  '/flows/builder',
  MALFORMED,
];

/** Every event the walk tries: history changes to each path, link clicks, and each kind of user. */
const EVENTS: NavigationEvent[] = [
  ...PATHS.map((path): NavigationEvent => ({ type: 'route.changed', path })),
  { type: 'route.navigate', path: '/login' },
  { type: 'route.navigate', path: '/account' },
  { type: 'navbar.toggle' },
  { type: 'navbar.close' },
  { type: 'session.changed', access: null },
  { type: 'session.changed', access: MARKETER },
  { type: 'session.changed', access: OWNER },
  { type: 'session.changed', access: ANALYST_WITHOUT_DASHBOARD },
  { type: 'session.changed', access: STAFF },
  { type: 'session.changed', access: PLATFORM_STAFF },
];

/** Who may open what a role may (owner > admin > marketer > analyst), written out apart from src/schemas. */
const MAY_ACT_AS: Record<Access['role'], readonly string[]> = {
  owner: ['owner', 'admin', 'marketer', 'analyst'],
  admin: ['admin', 'marketer', 'analyst'],
  marketer: ['marketer', 'analyst'],
  analyst: ['analyst'],
};

/** Where a user lands, written out apart from the machine: staff whose company has no dashboard at /hijack. */
function homeOf(access: Access): string {
  return access.isStaff && !access.features.includes('Recommendations') ? '/hijack' : '/dashboard';
}

/** The rules written out independently of the machine: where a path must be sent, or null to show it. */
function expectedRedirect(path: string, access: Access | null): string | null {
  if (path === '/') return '/login';
  const route = findRoute(ROUTE_RULES, path);
  if (!route) return '/404';
  if (access === null) return null;
  const home = homeOf(access);
  if (path === '/login' || path === '/authenticate') return home;
  if (path === '/dashboard' && home !== '/dashboard') return home;
  if (route.feature !== null && !access.features.includes(route.feature)) return '/no-access';
  const { leastRole } = route;
  if (leastRole === 'staff' && !access.isStaff) return '/access-denied';
  if (leastRole !== null && leastRole !== 'staff' && !MAY_ACT_AS[access.role].includes(leastRole))
    return '/access-denied';
  return null;
}

/** Each route's title key, which its breadcrumb trail ends with. */
const ROUTES_BY_PATTERN = new Map(ROUTES.map((route) => [route.pattern, route.titleKey]));

type NavigationSnapshot = SnapshotFrom<typeof navigationMachine>;
const INPUT = { routes: ROUTE_RULES, path: '/' };

function startSut() {
  const effects: { type: 'pushPath' | 'replacePath'; path: string }[] = [];
  const actor = createActor(
    navigationMachine.provide({
      actions: {
        pushPath: (_, { path }) => void effects.push({ type: 'pushPath', path }),
        replacePath: (_, { path }) => void effects.push({ type: 'replacePath', path }),
      },
    }),
    { input: INPUT },
  );
  actor.start();
  return { actor, effects };
}

type Sut = ReturnType<typeof startSut>;

function assertMeaning(state: NavigationSnapshot, sut: Sut): void {
  const live = sut.actor.getSnapshot();
  expect(live.value).toEqual(state.value);
  expect(live.context).toEqual(state.context);
  const { path, access, redirectTo, breadcrumbs } = state.context;
  expect(path).toBe(normalizePath(path));
  // The breadcrumbs are always the current route's, the group first and the page last.
  expect(breadcrumbs).toEqual(breadcrumbsFor(ROUTE_RULES, path));
  const route = findRoute(ROUTE_RULES, path);
  if (route && route.breadcrumbs?.length)
    expect(breadcrumbs.at(-1)).toBe(ROUTES_BY_PATTERN.get(route.pattern));
  const expected = expectedRedirect(path, access);
  if (state.matches('showing')) {
    expect(state.hasTag('ready')).toBe(true);
    expect(expected).toBeNull();
    expect(redirectTo).toBeNull();
  } else if (state.matches('redirecting')) {
    expect(state.hasTag('loading')).toBe(true);
    expect(redirectTo).toBe(expected);
    // The browser is sent there, replacing the refused entry (so Back does not return to it).
    expect(sut.effects.filter((effect) => effect.type === 'replacePath').at(-1)).toEqual({
      type: 'replacePath',
      path: expected,
    });
  } else {
    throw new Error(`No meaning written for state ${JSON.stringify(state.value)}`);
  }
}

describe('navigation machine (model-based)', () => {
  const model = createTestModel(navigationMachine, { events: EVENTS, input: INPUT });
  const { reached, transitions } = everyTransition(navigationMachine, model);

  it('reaches every resting state', () => {
    const values = new Set(reached.map((path) => valueKey(path.state)));
    // checking only decides; no snapshot rests in it.
    expect([...values].sort()).toEqual(['redirecting', 'showing']);
  });

  it('shows every route to someone and never shows an unknown path', () => {
    const shownPaths = reached
      .filter((path) => path.state.matches('showing'))
      .map((path) => path.state.context.path);
    const shown = new Set(shownPaths.map((path) => findRoute(ROUTE_RULES, path)?.pattern));
    for (const rule of ROUTE_RULES) expect(shown).toContain(rule.pattern);
    expect(shownPaths).not.toContain('/nowhere');
    expect(shownPaths).not.toContain('/custom-error/error-9');
    expect(shownPaths).not.toContain('/');
    expect(shownPaths).not.toContain(MALFORMED);
  });

  // Grouped by source state and signed-in role, so each test stays well inside the time-out.
  const bySource = groupBy(transitions, (path) => {
    const source = path.steps.at(-2)?.state ?? path.state;
    const access = source.context.access;
    return `${valueKey(source)} (${access ? `${access.role}${access.isStaff ? ', staff' : ''}` : 'signed out'})`;
  });
  for (const [source, paths] of bySource) {
    it(`takes each of the ${paths.length} transitions out of ${source}`, async () => {
      for (const path of paths) {
        let sut: Sut | null = null;
        let previous: NavigationSnapshot | null = null;
        const execute = ({ event, state }: { event: NavigationEvent; state: NavigationSnapshot }) => {
          if ((event.type as string) === 'xstate.init') {
            sut = startSut();
          } else {
            const running = sut;
            if (!running || !previous) throw new Error('The walk sent an event before starting');
            const before = running.effects.length;
            running.actor.send(event);
            if (event.type === 'route.changed' || event.type === 'route.navigate') {
              // Before each navigation the layout resets: the phone-width drawer is closed.
              expect(running.actor.getSnapshot().context.navbarOpened).toBe(false);
            }
            if (event.type === 'navbar.toggle')
              expect(state.context.navbarOpened).toBe(!previous.context.navbarOpened);
            if (event.type === 'navbar.close') expect(state.context.navbarOpened).toBe(false);
            if (event.type === 'route.navigate') {
              // Before each navigation: the sign-in page is not re-entered while signed in.
              expect(running.effects.slice(before)).toEqual([
                {
                  type: 'pushPath',
                  path: pathBeforeNavigation(ROUTE_RULES, event.path, previous.context.access),
                },
              ]);
              if (previous.context.access && event.path === '/login')
                expect(running.effects.at(-1)?.path).toBe(homeOf(previous.context.access));
              expect(state.value).toEqual(previous.value);
            }
          }
          previous = state;
        };
        const events = Object.fromEntries(
          ['xstate.init', ...new Set(EVENTS.map((event) => event.type))].map((type) => [type, execute]),
        );
        await model.testPath(path, {
          events,
          states: { '*': (state) => assertMeaning(state, sut as unknown as Sut) },
        });
        (sut as Sut | null)?.actor.stop();
      }
    });
  }
});

describe('route table', () => {
  it('has every route of spec section 2', () => {
    const patterns = ROUTE_RULES.map((rule) => rule.pattern);
    for (const pattern of [
      '/dashboard',
      '/marketing-analytics',
      '/rfm-dashboard',
      '/basket-analytics',
      '/analytics/campaign-level',
      '/locations',
      '/locations-setup',
      '/benchmark/analytics',
      '/guest/analytics',
      '/segments',
      '/subscribers',
      '/subscriber-list',
      '/demographics',
      '/campaigns',
      '/campaign/analytics',
      '/flows',
      '/flows/builder/:id',
      '/templates',
      '/editor-template',
      '/editor-template/:id',
      '/account',
      '/compset',
      '/compset/:selectedLocationId',
      '/heatmap',
      '/aben-overview',
      '/analytics',
      '/access-denied',
      '/no-access',
      '/subscriber/profile/:posId/:hashid/:id',
      '/guest/profile/:posId/:hashid/:id',
      '/invoice-list',
      '/invoice',
      '/consumer/insights/analytics',
      '/login',
      '/authenticate',
      '/hijack',
      '/support/machines',
      '/support/replay',
      '/404',
      '/custom-error/error-1',
      '/custom-error/error-6',
    ])
      expect(patterns, pattern).toContain(pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('gates pages by their features and keeps locations setup to owners and admins', () => {
    const rule = (pattern: string) => ROUTE_RULES.find((candidate) => candidate.pattern === pattern);
    expect(rule('/marketing-analytics')?.feature).toBe('Recommendations');
    expect(rule('/flows/builder/:id')?.feature).toBe('Campaign Flows');
    expect(rule('/guest/profile/:posId/:hashid/:id')?.feature).toBe('Subscribers');
    expect(rule('/locations-setup')?.leastRole).toBe('admin');
    expect(rule('/invoice-list')?.leastRole).toBe('admin');
    expect(breadcrumbsFor(ROUTE_RULES, '/flows/builder/7')).toEqual([
      'pages.groups.marketing',
      'pages.titles.flows',
      'pages.titles.flowBuilder',
    ]);
    expect(breadcrumbsFor(ROUTE_RULES, '/nowhere')).toEqual([]);
  });
});

describe('support pages', () => {
  it('keeps the machine visualiser and the replay to staff, in the frame, listed under Settings', () => {
    for (const pattern of ['/support/machines', '/support/replay']) {
      const route = ROUTES.find((candidate) => candidate.pattern === pattern);
      expect(route, pattern).toMatchObject({
        feature: null,
        leastRole: 'staff',
        frame: true,
        group: 'settings',
      });
      expect(route?.breadcrumbs.at(-1)).toBe(route?.titleKey);
      expect(expectedRedirect(pattern, STAFF)).toBeNull();
      expect(expectedRedirect(pattern, OWNER)).toBe('/access-denied');
    }
  });
});

describe('custom error pages', () => {
  const named = (name: string, message: string) => Object.assign(new Error(message), { name });

  it('sends a failed page download to error-1, failed styles to error-2 and anything else to error-5', () => {
    expect(customErrorFor(named('ChunkLoadError', 'A page took more than 120 s to load'))).toBe(1);
    expect(customErrorFor(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      1,
    );
    expect(customErrorFor(new Error('Unable to preload CSS for /assets/x.css'))).toBe(2);
    expect(customErrorFor(Object.assign(new Error('styles'), { code: 'CSS_CHUNK_LOAD_FAILED' }))).toBe(2);
    expect(customErrorFor(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(5);
  });

  it('remembers the page to retry, which the route table still finds', () => {
    const path = customErrorPath(1, '/flows/builder/7?tab=steps');
    expect(path).toBe('/custom-error/error-1?from=%2Fflows%2Fbuilder%2F7%3Ftab%3Dsteps');
    expect(findRoute(ROUTE_RULES, path)?.pattern).toBe('/custom-error/error-1');
  });
});

describe('route matching', () => {
  it('matches as react-router does: parameters, trailing slashes, a static segment before a parameter', () => {
    expect(findRoute(ROUTE_RULES, '/flows/builder/42')?.pattern).toBe('/flows/builder/:id');
    expect(findRoute(ROUTE_RULES, '/flows/builder/')).toBeNull();
    expect(findRoute(ROUTE_RULES, '/dashboard/')?.pattern).toBe('/dashboard');
    expect(findRoute(ROUTE_RULES, '/account?tab=tokens')?.pattern).toBe('/account');
    expect(findRoute(ROUTE_RULES, '/editor-template/9')?.pattern).toBe('/editor-template/:id');
    expect(findRoute(ROUTE_RULES, '/guest/profile/caf%C3%A9/a1/7')?.pattern).toBe(
      '/guest/profile/:posId/:hashid/:id',
    );
  });

  it('sends a malformed URL to /404 and keeps working afterwards', () => {
    expect(() => decodeURIComponent(MALFORMED)).toThrow(URIError);
    expect(findRoute(ROUTE_RULES, MALFORMED)).toBeNull();
    const { actor, effects } = startSut();
    actor.send({ type: 'session.changed', access: OWNER });
    actor.send({ type: 'route.changed', path: MALFORMED });
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(effects.at(-1)).toEqual({ type: 'replacePath', path: '/404' });
    actor.send({ type: 'route.changed', path: '/404' });
    expect(actor.getSnapshot().matches('showing')).toBe(true);
    actor.send({ type: 'route.changed', path: '/guest/profile/7/a1b2c3/7' });
    expect(actor.getSnapshot().matches('showing')).toBe(true);
    expect(actor.getSnapshot().context.breadcrumbs.at(-1)).toBe('pages.titles.profile');
    actor.stop();
  });

  it('lets staff into staff pages and a role into pages of its rank or below', () => {
    expect(roleAllowed('staff', STAFF)).toBe(true);
    expect(roleAllowed('staff', OWNER)).toBe(false);
    expect(roleAllowed('admin', OWNER)).toBe(true);
    expect(roleAllowed('admin', STAFF)).toBe(true);
    expect(roleAllowed('admin', MARKETER)).toBe(false);
    expect(roleAllowed('marketer', MARKETER)).toBe(true);
    expect(roleAllowed('marketer', ANALYST_WITHOUT_DASHBOARD)).toBe(false);
    expect(roleAllowed(null, ANALYST_WITHOUT_DASHBOARD)).toBe(true);
  });

  it('keeps every redirect target open to everyone, so redirects cannot loop', () => {
    const customErrors = [1, 2, 3, 4, 5, 6].map((code) => `/custom-error/error-${code}`);
    for (const target of ['/login', '/404', '/no-access', '/access-denied', ...customErrors]) {
      const rule = findRoute(ROUTE_RULES, target);
      expect(rule, target).not.toBeNull();
      expect(rule?.feature, target).toBeNull();
      expect(rule?.leastRole, target).toBeNull();
    }
  });
});
