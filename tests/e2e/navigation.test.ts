import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { signIn } from './support/pages.js';
import { startServer, type RunningServer } from './support/server.js';

/** The demo owner, and the platform staff member whose own company has no features (README, Demo sign-in). */
const OWNER = { email: 'owner@harborvine.example', password: 'regulars-demo' };
const STAFF = { email: 'support@regulars.example', password: 'regulars-demo' };
/** A profile link whose percent-encoding is broken (a truncated UTF-8 sequence). */
const MALFORMED = '/guest/profile/%E0%A4%A/x/1';

/** Moves the app to a path as back/forward does (a history entry and popstate), without a document load. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Waits until the page shows `path` with its title (the screen has rendered, not a loader). */
async function expectPage(page: Page, path: string | RegExp, title: RegExp): Promise<void> {
  await page.waitForURL(
    (url) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname)),
    {
      timeout: 20_000,
    },
  );
  await page.waitForFunction((source) => new RegExp(source).test(document.title), title.source, {
    timeout: 20_000,
  });
}

describe('navigating with the router in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;
  /** The first demo guest's profile path, as the guest list opens it. */
  let profilePath = '';
  let guestName = '';

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    watched = await openPage(browser, server.url);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('returns to a deep link after sign-in and opens a profile from the list', async () => {
    const { page, errors } = watched;
    await page.goto('/guest/analytics');
    await signIn(page, OWNER);
    await expectPage(page, '/guest/analytics', /^Guest analytics \|/);
    const open = page.getByRole('button', { name: /^Open the profile of / }).first();
    await open.waitFor();
    guestName = ((await open.getAttribute('aria-label')) ?? '').replace('Open the profile of ', '');
    await open.click();
    await expectPage(page, /^\/guest\/profile\/[^/]+\/[^/]+\/\d+$/, /^Customer profile \|/);
    profilePath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: guestName }).waitFor();
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await crumbs.getByRole('link', { name: 'Guest analytics' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('reloads on a profile route and shows the same person', async () => {
    const { page, errors } = watched;
    await page.reload();
    await expectPage(page, profilePath, /^Customer profile \|/);
    await page.getByRole('heading', { name: guestName }).waitFor();
    expect(errors).toEqual([]);
  });

  it('goes back and forward between pages the links opened', async () => {
    const { page, errors } = watched;
    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
    await sidebar.getByRole('link', { name: 'Guest segments' }).click();
    await expectPage(page, '/segments', /^Guest segments \|/);
    expect(await sidebar.locator('[aria-current="page"]').textContent()).toBe('Guest segments');
    await page.goBack();
    await expectPage(page, profilePath, /^Customer profile \|/);
    await page.getByRole('heading', { name: guestName }).waitFor();
    await page.goBack();
    await expectPage(page, '/guest/analytics', /^Guest analytics \|/);
    await page.goForward();
    await expectPage(page, profilePath, /^Customer profile \|/);
    await page.goForward();
    await expectPage(page, '/segments', /^Guest segments \|/);
    expect(errors).toEqual([]);
  });

  it('starts a new page at the top and returns to the old scroll position on Back', async () => {
    const { page, errors } = watched;
    await page.setViewportSize({ width: 1280, height: 400 });
    try {
      await page.goto('/guest/analytics');
      await expectPage(page, '/guest/analytics', /^Guest analytics \|/);
      await page
        .getByRole('button', { name: /^Open the profile of / })
        .first()
        .waitFor();
      await page.evaluate(() => window.scrollTo(0, 300));
      await page.waitForFunction(() => window.scrollY === 300);
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Guest segments' })
        .click();
      await expectPage(page, '/segments', /^Guest segments \|/);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.goBack();
      await expectPage(page, '/guest/analytics', /^Guest analytics \|/);
      await page.waitForFunction(() => window.scrollY === 300, null, { timeout: 5_000 });
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    expect(errors).toEqual([]);
  });

  it('never re-enters sign-in while signed in', async () => {
    const { page, errors } = watched;
    await page.goto('/login');
    await expectPage(page, '/dashboard', /^Dashboard \|/);
    expect(errors).toEqual([]);
  });

  it('shows /404 for an unknown path and for a malformed URL, and keeps working', async () => {
    const { page, errors } = watched;
    await page.goto('/no/such/page');
    await expectPage(page, '/404', /^Page not found \|/);
    // In the app (a link, back/forward): the router's path does not decode, so the machine sends it to /404.
    await visit(page, '/segments');
    await expectPage(page, '/segments', /^Guest segments \|/);
    await visit(page, MALFORMED);
    await expectPage(page, '/404', /^Page not found \|/);
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expectPage(page, '/dashboard', /^Dashboard \|/);
    // Typed or pasted into the address bar: the server serves the app, which shows /404 the same way.
    await page.goto(MALFORMED);
    await expectPage(page, '/404', /^Page not found \|/);
    expect(errors).toEqual([]);
  });

  it('shows /access-denied for a page the role may not open', async () => {
    const { page, errors } = watched;
    await page.goto('/support/machines');
    await expectPage(page, '/access-denied', /^Access denied \|/);
    // The refused entry was replaced, so Back leaves the app's last page rather than looping.
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expectPage(page, '/dashboard', /^Dashboard \|/);
    await page.goBack();
    await expectPage(page, '/access-denied', /^Access denied \|/);
    expect(errors).toEqual([]);
  });

  it('shows /no-access for a page of a feature the company lacks', async () => {
    const staff = await openPage(browser, server.url);
    try {
      await staff.page.goto('/segments');
      await signIn(staff.page, STAFF);
      await expectPage(staff.page, '/no-access', /^No access \|/);
      await staff.page.getByRole('link', { name: 'Open account settings' }).waitFor();
      expect(staff.errors).toEqual([]);
    } finally {
      await staff.close();
    }
  });
});
