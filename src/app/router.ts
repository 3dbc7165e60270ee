import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './AppLayout.js';
import { ROUTES } from './routes.js';

/**
 * The route objects of the app: one layout (sign-in, frame, the navigation machine's gate) whose
 * children are the route table's pages, each rendering its lazily loaded screen and carrying its
 * metadata in `handle`; any other path matches `*`, which the navigation machine sends to /404.
 */
export function appRouteObjects(): RouteObject[] {
  return [
    {
      id: 'app',
      Component: AppLayout,
      children: [
        ...ROUTES.map((route) => ({ path: route.pattern, Component: route.screen, handle: route })),
        { path: '*' },
      ],
    },
  ];
}

/** The app's react-router: the browser's URL and history, and the app's pages. */
export type AppRouter = ReturnType<typeof createBrowserRouter>;

/** Creates the router on the browser's history (one per session, see src/app/wiring/session.ts). */
export function createAppRouter(): AppRouter {
  return createBrowserRouter(appRouteObjects());
}
