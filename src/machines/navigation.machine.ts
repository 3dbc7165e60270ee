import { assign, setup } from 'xstate';
import type { UserRole } from '../schemas/accounts.js';

/** Who may open a route: a company role, or `staff` for support staff. */
export type RouteRole = UserRole | 'staff';

/** What the navigation machine knows of one route: its path pattern and who may open it. */
export interface RouteRule {
  /** e.g. `/dashboard` or `/flows/builder/:id`. */
  pattern: string;
  /** The company feature the page belongs to (spec section 6), or null for every company. */
  feature: string | null;
  /** The roles that may open it, or null for everyone signed in. */
  roles: readonly RouteRole[] | null;
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
/** Shown when the company lacks the page's feature. */
export const NO_ACCESS_ROUTE = '/no-access';
/** Shown when the user's role may not open the page. */
export const ACCESS_DENIED_ROUTE = '/access-denied';
/** Shown for an unknown path. */
export const NOT_FOUND_ROUTE = '/404';

/** The path without a trailing slash (the root stays `/`). */
export function normalizePath(path: string): string {
  const pathname = path.split(/[?#]/)[0] ?? '/';
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The parameters when `path` matches `pattern` (`:name` segments), else null. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const patternParts = normalizePath(pattern).split('/');
  const pathParts = normalizePath(path).split('/');
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index] ?? '';
    if (part.startsWith(':')) {
      if (actual === '') return null;
      params[part.slice(1)] = decodeURIComponent(actual);
    } else if (part !== actual) {
      return null;
    }
  }
  return params;
}

/** The first route whose pattern matches the path, or null. */
export function findRoute<Rule extends RouteRule>(rules: readonly Rule[], path: string): Rule | null {
  return rules.find((rule) => matchPattern(rule.pattern, path) !== null) ?? null;
}

/** True when the user's role (or staff flag) is among the route's roles. */
export function roleAllowed(roles: readonly RouteRole[] | null, access: Access): boolean {
  if (roles === null) return true;
  return roles.includes(access.role) || (access.isStaff && roles.includes('staff'));
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

/** The check run before each navigation (spec section 2): re-entry to the sign-in page is blocked. */
export function pathBeforeNavigation(path: string, access: Access | null): string {
  return access !== null && isSignInPage(path) ? HOME_ROUTE : path;
}

/** The navigation machine's context. */
export interface NavigationContext {
  routes: readonly RouteRule[];
  /** The path the browser shows (normalized). */
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
  /** The browser moved to a path (back/forward, or a push/replace the app made). */
  | { type: 'route.changed'; path: string }
  /** A link or button asks to go to a path. */
  | { type: 'route.navigate'; path: string }
  /** The signed-in user changed: what they may open, or null when nobody is signed in. */
  | { type: 'session.changed'; access: Access | null }
  /** The burger button opens or closes the phone-width navigation drawer. */
  | { type: 'navbar.toggle' }
  /** The drawer's backdrop, Escape or close button closes it. */
  | { type: 'navbar.close' };

/**
 * The current page (spec section 2): holds the path the browser shows, blocks re-entry to /login while
 * signed in, sends `/` to /login and unknown paths to /404, and after each navigation checks the route's
 * feature against the company's features (/no-access) and its roles against the user (/access-denied).
 * Before each navigation the layout is reset (the phone-width drawer closes; the frame scrolls to the top
 * when the path changes) and the breadcrumbs are recomputed from the route.
 * Tags: `ready` when the page may render, `loading` while redirecting.
 */
export const navigationMachine = setup({
  types: {
    context: {} as NavigationContext,
    events: {} as NavigationEvent,
    input: {} as NavigationInput,
  },
  actions: {
    /** Adds a history entry (provided by src/app). */
    pushPath: (_, _params: { path: string }) => undefined,
    /** Replaces the current history entry (provided by src/app). */
    replacePath: (_, _params: { path: string }) => undefined,
  },
  guards: {
    isRoot: ({ context }) => context.path === '/',
    isUnknown: ({ context }) => findRoute(context.routes, context.path) === null,
    isSignInWhileSignedIn: ({ context }) => context.access !== null && isSignInPage(context.path),
    featureMissing: ({ context }) => {
      const route = findRoute(context.routes, context.path);
      return (
        context.access !== null &&
        route !== null &&
        route.feature !== null &&
        !context.access.features.includes(route.feature)
      );
    },
    roleMissing: ({ context }) => {
      const route = findRoute(context.routes, context.path);
      return context.access !== null && route !== null && !roleAllowed(route.roles, context.access);
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
          params: ({ context, event }) => ({ path: pathBeforeNavigation(event.path, context.access) }),
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
          actions: assign({ redirectTo: HOME_ROUTE }),
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
