import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './browser.js';
import { DEMO_OWNER, signIn } from './pages.js';
import { startServer, type RunningServer, type StartServerOptions } from './server.js';

/** What a describe block's tests share: the server, the browser and a page signed in at the block's path. */
export interface SignedInSession {
  readonly server: RunningServer;
  readonly browser: Browser;
  readonly watched: WatchedPage;
}

/**
 * Registers the hooks of a describe block whose tests share one signed-in page: before them a fresh server
 * (demo data) and Chromium, the page opened at `path` and signed in (the demo owner unless told), and after
 * them everything closed. The returned object's fields are set once the block's `beforeAll` has run.
 */
export function signedInSession(
  path: string,
  options: { user?: { email: string; password: string }; server?: StartServerOptions } = {},
): SignedInSession {
  const session = {} as { server: RunningServer; browser: Browser; watched: WatchedPage };
  beforeAll(async () => {
    [session.server, session.browser] = await Promise.all([startServer(options.server), launchBrowser()]);
    session.watched = await openPage(session.browser, session.server.url);
    await session.watched.page.goto(path);
    await signIn(session.watched.page, options.user ?? DEMO_OWNER);
    await session.watched.page.waitForURL((url) => url.pathname === path);
  });
  afterAll(async () => {
    await session.watched?.close();
    await session.browser?.close();
    await session.server?.stop();
  });
  return session;
}
