import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { findRoute, type RouteRole, type RouteRule } from '../machines/navigation.machine.js';
import type { Feature } from '../schemas/features.js';

/** How long a page's code may take to download before it counts as failed (spec section 9). */
export const CHUNK_TIMEOUT_MS = 120_000;

/** One page of the app: its path pattern, lazily loaded screen, title, feature and roles. */
export interface AppRoute extends RouteRule {
  /** e.g. `/dashboard` or `/flows/builder/:id`. */
  pattern: string;
  /** The screen, downloaded the first time the route is shown. */
  screen: LazyExoticComponent<ComponentType>;
  /** The i18n key of the page name in the title '{page} | {brand}'. */
  titleKey: string;
  /** The company feature the page belongs to (spec section 6), or null. */
  feature: Feature | null;
  /** The roles that may open it (`staff` for support staff), or null for everyone signed in. */
  roles: readonly RouteRole[] | null;
  /** True when the page shows inside the signed-in frame (header, banner). */
  frame: boolean;
}

/** A screen module's default export, downloaded on first use, failing as ChunkLoadError after 2 minutes. */
function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  return lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve, reject) => {
        const timer = setTimeout(() => {
          const error = new Error(`A page took more than ${CHUNK_TIMEOUT_MS / 1000} s to load`);
          error.name = 'ChunkLoadError';
          reject(error);
        }, CHUNK_TIMEOUT_MS);
        load().then(
          (module) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }),
  );
}

/**
 * The route table. The navigation machine checks each route's feature (missing → /no-access) and
 * roles (not allowed → /access-denied) after every navigation; unknown paths go to /404.
 */
export const ROUTES: readonly AppRoute[] = [
  {
    pattern: '/login',
    screen: lazyScreen(() => import('./screens/LoginScreen.js')),
    titleKey: 'auth.titles.signIn',
    feature: null,
    roles: null,
    frame: false,
  },
  {
    pattern: '/authenticate',
    screen: lazyScreen(() => import('./screens/AuthenticateScreen.js')),
    titleKey: 'auth.titles.authenticate',
    feature: null,
    roles: null,
    frame: false,
  },
  {
    pattern: '/dashboard',
    screen: lazyScreen(() => import('./screens/DashboardScreen.js')),
    titleKey: 'shell.titles.dashboard',
    feature: 'Recommendations',
    roles: null,
    frame: true,
  },
  {
    pattern: '/account',
    screen: lazyScreen(() => import('./screens/AccountScreen.js')),
    titleKey: 'shell.titles.account',
    feature: null,
    roles: null,
    frame: true,
  },
  {
    pattern: '/hijack',
    screen: lazyScreen(() => import('./screens/HijackScreen.js')),
    titleKey: 'shell.titles.hijack',
    feature: null,
    roles: ['staff'],
    frame: true,
  },
  {
    pattern: '/no-access',
    screen: lazyScreen(() => import('./screens/NoAccessScreen.js')),
    titleKey: 'shell.titles.noAccess',
    feature: null,
    roles: null,
    frame: true,
  },
  {
    pattern: '/access-denied',
    screen: lazyScreen(() => import('./screens/AccessDeniedScreen.js')),
    titleKey: 'shell.titles.accessDenied',
    feature: null,
    roles: null,
    frame: true,
  },
  {
    pattern: '/404',
    screen: lazyScreen(() => import('./screens/NotFoundScreen.js')),
    titleKey: 'shell.titles.notFound',
    feature: null,
    roles: null,
    frame: false,
  },
];

/** What the navigation machine needs of each route. */
export const ROUTE_RULES: readonly RouteRule[] = ROUTES.map(({ pattern, feature, roles }) => ({
  pattern,
  feature,
  roles,
}));

/** The route shown at a path, or null. */
export function routeAt(path: string): AppRoute | null {
  return findRoute(ROUTES, path);
}
