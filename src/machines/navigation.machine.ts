import { matchRoutes } from 'react-router';
import { assign, setup } from 'xstate';
import { roleAtLeast, type UserRole } from '../schemas/roles.js';

/** Who may open a route: a company role and every more powerful one, or `staff` for support staff only. */
export type RouteRole = UserRole | 'staff';

/** What the navigation machine knows of one route: its path pattern and who may open it. */
export interface RouteRule {
  /** e.g. `/dashboard` or `/flows/builder/:id`. */
  pattern: string;
  /** The company feature the page belongs to (spec section 6), or null for every company. */
  feature: string | null;
  /** The least role that may open it (owner > admin > marketer > analyst), `staff`, or null for everyone. */
  leastRole: RouteRole | null;
  /** The i18n keys of the breadcrumb trail shown above the page (the last one is the page itself). */
  breadcrumbs?: readonly string[];
}

/** What the signed-in user may open: from verify's features, role and staff flag. */
export interface Access {
  features: readonly string[];
  role: UserRole;
  isStaff: boolean;
}

/** The sign-in page. */
export const LOGIN_ROUTE = '/login';
/** Where sign-in finishes. */
export const AUTHENTICATE_ROUTE = '/authenticate';
/** Where a signed-in user lands. */
export const HOME_ROUTE = '/dashboard';
/** Where platform staff land when their own company has no dashboard: the list of users to act as. */
export const STAFF_HOME_ROUTE = '/hijack';
/** Shown when the company lacks the page's feature. */
export const NO_ACCESS_ROUTE = '/no-access';
/** Shown when the user's role may not open the page. */
export const ACCESS_DENIED_ROUTE = '/access-denied';
/** Shown for an unknown path. */
export const NOT_FOUND_ROUTE = '/404';

/** The path without a query string, hash or trailing slash (the root stays `/`). */
export function normalizePath(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '/';
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The path with its percent-encoding decoded, or null when it is malformed (`%E0%A4%A`, names no page). */
function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** A route table prepared for matching: react-router route objects (the rule in `handle`) and answers so far. */
interface Matcher {
  objects: { path: string; handle: RouteRule }[];
  /** Paths already matched (react-router ranks the whole table on every call; guards ask several times). */
  found: Map<string, RouteRule | null>;
}

/** One matcher per route table. */
const matchers = new WeakMap<readonly RouteRule[], Matcher>();

/** Enough remembered paths for every route and the pages a session visits; past that, it starts afresh. */
const MAX_REMEMBERED_PATHS = 500;

function matcherFor(rules: readonly RouteRule[]): Matcher {
  let matcher = matchers.get(rules);
  if (!matcher) {
    matcher = { objects: rules.map((rule) => ({ path: rule.pattern, handle: rule })), found: new Map() };
    matchers.set(rules, matcher);
  }
  return matcher;
}

/**
 * The route shown at a path, ranked as react-router ranks it (a static segment beats a parameter), or
 * null for an unknown path and for one that does not decode.
 */
export function findRoute<Rule extends RouteRule>(rules: readonly Rule[], path: string): Rule | null {
  const pathname = normalizePath(path);
  const matcher = matcherFor(rules);
  if (matcher.found.has(pathname)) return matcher.found.get(pathname) as Rule | null;
  // The decoded value is kept, not just tried: a minifier drops an unused decode as pure.
  const route =
    decodedPath(pathname) === null
      ? null
      : ((matchRoutes(matcher.objects, pathname)?.at(-1)?.route.handle as Rule | undefined) ?? null);
  if (matcher.found.size >= MAX_REMEMBERED_PATHS) matcher.found.clear();
  matcher.found.set(pathname, route);
  return route;
}

/** True when the user may open a route needing `leastRole`: by the role ranking, or as staff for `staff`. */
export function roleAllowed(leastRole: RouteRole | null, access: Access): boolean {
  if (leastRole === null) return true;
  return leastRole === 'staff' ? access.isStaff : roleAtLeast(access.role, leastRole);
}

/** The breadcrumb trail of the route shown at a path, or none for an unknown path. */
export function breadcrumbsFor(rules: readonly RouteRule[], path: string): readonly string[] {
  return findRoute(rules, path)?.breadcrumbs ?? [];
}

/** The sign-in pages, which a signed-in user may not re-enter. */
function isSignInPage(path: string): boolean {
  const normalized = normalizePath(path);
  return normalized === LOGIN_ROUTE || normalized === AUTHENTICATE_ROUTE;
}

/** True when the user's company lacks the feature of the route at `path`. */
function featureMissingAt(rules: readonly RouteRule[], path: string, access: Access): boolean {
  const route = findRoute(rules, path);
  return route !== null && route.feature !== null && !access.features.includes(route.feature);
}

/** Where this user lands: the dashboard, or for staff whose own company has none, the users to act as. */
export function homeFor(rules: readonly RouteRule[], access: Access): string {
  return access.isStaff && featureMissingAt(rules, HOME_ROUTE, access) ? STAFF_HOME_ROUTE : HOME_ROUTE;
}

/** The check run before each navigation (spec section 2): re-entry to the sign-in page is blocked. */
export function pathBeforeNavigation(
  rules: readonly RouteRule[],
  path: string,
  access: Access | null,
): string {
  return access !== null && isSignInPage(path) ? homeFor(rules, access) : path;
}

/** The navigation machine's context. */
export interface NavigationContext {
  routes: readonly RouteRule[];
  /** The path the router shows (normalized). */
  path: string;
  /** Null until the user is verified, and after sign-out. */
  access: Access | null;
  /** Where the machine is sending the browser, while redirecting. */
  redirectTo: string | null;
  /** The breadcrumb keys of the current route, recomputed on every navigation. */
  breadcrumbs: readonly string[];
  /** True while the phone-width navigation drawer is open; every navigation closes it. */
  navbarOpened: boolean;
}

/** What the navigation machine starts from. */
export interface NavigationInput {
  routes: readonly RouteRule[];
  path: string;
}

/** Every event the navigation machine handles. */
export type NavigationEvent =
  /** The router moved to a path (a link, back/forward, a deep link, or a navigation the machine asked for). */
  | { type: 'route.changed'; path: string }
  /** A machine or button asks to go to a path (links go through the router and arrive as `route.changed`). */
  | { type: 'route.navigate'; path: string }
  /** The signed-in user changed: what they may open, or null when nobody is signed in. */
  | { type: 'session.changed'; access: Access | null }
  /** The burger button opens or closes the phone-width navigation drawer. */
  | { type: 'navbar.toggle' }
  /** The drawer's backdrop, Escape or close button closes it. */
  | { type: 'navbar.close' };

/**
 * The guard around react-router (spec section 2): it hears every location the router commits as
 * `route.changed`, blocks re-entry to /login while signed in (to the user's home: /dashboard, or /hijack for
 * staff whose company has no dashboard), sends `/` to /login and unknown or malformed
 * paths to /404, and after each navigation checks the route's feature against the company's features
 * (/no-access) and its roles against the user (/access-denied). Before each navigation the layout is reset
 * (the phone-width drawer closes) and the breadcrumbs are recomputed from the route. It moves the router
 * only through the `pushPath` and `replacePath` actions, so a logged event sequence replays to the same
 * states without a router.
 * Tags: `ready` when the page may render, `loading` while redirecting.
 */
export const navigationMachine = setup({
  types: {
    context: {} as NavigationContext,
    events: {} as NavigationEvent,
    input: {} as NavigationInput,
  },
  actions: {
    /** Asks the router for a new history entry (provided by src/app/wiring/session.ts). */
    pushPath: (_, _params: { path: string }) => undefined,
    /** Asks the router to replace the current history entry (provided by src/app/wiring/session.ts). */
    replacePath: (_, _params: { path: string }) => undefined,
  },
  guards: {
    isRoot: ({ context }) => context.path === '/',
    isUnknown: ({ context }) => findRoute(context.routes, context.path) === null,
    isSignInWhileSignedIn: ({ context }) => context.access !== null && isSignInPage(context.path),
    // The dashboard of a user who lands elsewhere (staff): their own start page, not /no-access.
    isHomeOfAnother: ({ context }) =>
      context.access !== null &&
      context.path === HOME_ROUTE &&
      homeFor(context.routes, context.access) !== HOME_ROUTE,
    featureMissing: ({ context }) =>
      context.access !== null && featureMissingAt(context.routes, context.path, context.access),
    roleMissing: ({ context }) => {
      const route = findRoute(context.routes, context.path);
      return context.access !== null && route !== null && !roleAllowed(route.leastRole, context.access);
    },
  },
}).createMachine({
  id: 'navigation',
  context: ({ input }) => ({
    routes: input.routes,
    path: normalizePath(input.path),
    access: null,
    redirectTo: null,
    breadcrumbs: breadcrumbsFor(input.routes, input.path),
    navbarOpened: false,
  }),
  on: {
    'route.changed': {
      target: '.checking',
      actions: assign(({ context, event }) => ({
        path: normalizePath(event.path),
        breadcrumbs: breadcrumbsFor(context.routes, event.path),
        navbarOpened: false,
      })),
    },
    'navbar.toggle': { actions: assign(({ context }) => ({ navbarOpened: !context.navbarOpened })) },
    'navbar.close': { actions: assign({ navbarOpened: false }) },
    'session.changed': { target: '.checking', actions: assign(({ event }) => ({ access: event.access })) },
    'route.navigate': {
      actions: [
        // Before each navigation: the layout is reset, so the drawer never covers the next page.
        assign({ navbarOpened: false }),
        {
          type: 'pushPath',
          params: ({ context, event }) => ({
            path: pathBeforeNavigation(context.routes, event.path, context.access),
          }),
        },
      ],
    },
  },
  initial: 'checking',
  states: {
    checking: {
      always: [
        { guard: 'isRoot', target: 'redirecting', actions: assign({ redirectTo: LOGIN_ROUTE }) },
        { guard: 'isUnknown', target: 'redirecting', actions: assign({ redirectTo: NOT_FOUND_ROUTE }) },
        {
          guard: 'isSignInWhileSignedIn',
          target: 'redirecting',
          actions: assign(({ context }) => ({
            redirectTo: context.access && homeFor(context.routes, context.access),
          })),
        },
        {
          guard: 'isHomeOfAnother',
          target: 'redirecting',
          actions: assign(({ context }) => ({
            redirectTo: context.access && homeFor(context.routes, context.access),
          })),
        },
        { guard: 'featureMissing', target: 'redirecting', actions: assign({ redirectTo: NO_ACCESS_ROUTE }) },
        { guard: 'roleMissing', target: 'redirecting', actions: assign({ redirectTo: ACCESS_DENIED_ROUTE }) },
        { target: 'showing', actions: assign({ redirectTo: null }) },
      ],
    },
    redirecting: {
      tags: ['loading'],
      entry: { type: 'replacePath', params: ({ context }) => ({ path: context.redirectTo ?? HOME_ROUTE }) },
    },
    showing: {
      tags: ['ready'],
    },
  },
});
