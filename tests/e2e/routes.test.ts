import { mkdir } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/app/routes.js';
import type { MessageTree } from '../../src/i18n/resources.js';
import { messagesFor } from '../../src/i18n/resources.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

const OWNER = { email: 'owner@harborvine.example', password: 'regulars-demo' };
const ENGLISH = messagesFor('en');
/** The server runs with BRAND_NAME set, so titles prove the brand is configurable. */
const BRAND = 'Harbor Loyalty';
/** How long the pointer rests on the rail before it expands (product spec section 9). */
const MENU_HOVER_PAUSE_MS = 800;

/** The English text of an i18n key. */
function english(key: string): string {
  let node: string | MessageTree | undefined = ENGLISH;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`No English text for ${key}`);
  // Texts that name the product nest it as $t(brand): the page shows the installation's BRAND_NAME.
  return node.replaceAll('$t(brand)', BRAND);
}

/** A path of the route with sample parameter values. */
function samplePath(pattern: string): string {
  // The campaign editor's sample is a new campaign: no campaign 7 is promised by the demo data.
  if (pattern === '/campaigns/:id') return '/campaigns/new';
  return pattern.replace(/:(\w+)/g, (_, name: string) => (name === 'hashid' ? 'a1b2c3' : '7'));
}

/** Where the demo owner ends up: signed-in users never re-enter sign-in, and only staff open /hijack. */
function landingOf(path: string): string {
  if (path === '/login' || path === '/authenticate') return '/dashboard';
  // Staff-only pages: the demo owner is not platform staff.
  if (path === '/hijack' || path.startsWith('/support/')) return '/access-denied';
  return path;
}

function titleOf(path: string): string {
  const route = ROUTES.find((candidate) => samplePath(candidate.pattern) === path);
  if (!route) throw new Error(`No route at ${path}`);
  return `${english(route.titleKey)} | ${BRAND}`;
}

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/e2e-routes-${name}.png`, fullPage: true });
}

/** Moves the single-page app to a path the way back/forward does, without reloading the document. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Waits for the page's title and for its screen to finish loading. */
async function settle(page: Page, title: string): Promise<void> {
  await page.waitForFunction((expected) => document.title === expected, title, { timeout: 20_000 });
  await page.waitForFunction(() => !document.querySelector('[role="status"] .mantine-Loader-root'), null, {
    timeout: 20_000,
  });
  // Checked once settled: a screen loading its data gets a moment (some keep a loader, e.g. a picker).
  await page
    .waitForFunction(() => !document.querySelector('main .mantine-Loader-root'), null, { timeout: 5_000 })
    .catch(() => undefined);
}

/** The page's serious or critical axe violations, described for the failure message. */
async function unexpectedViolations(page: Page, path: string): Promise<string> {
  const violations = await seriousA11yViolations(page);
  return violations.length ? `${path}\n${describeViolations(violations)}` : '';
}

async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await unexpectedViolations(page, where)).toBe('');
}

/**
 * Waits for page work that needs the page's own short timers (axe's steps) while the page's clock is paused:
 * the clock is moved on in 10 ms steps, at most `budgetMs` in all, so a timed behaviour due later never fires.
 */
async function withinClockBudget<T>(page: Page, budgetMs: number, work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  for (let spent = 0; !settled; spent += 10) {
    if (spent >= budgetMs) throw new Error(`The page's work needed more than ${budgetMs} ms of its clock`);
    await page.clock.runFor(10);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done;
}

/** Resolves once the element and every ancestor are fully opaque (a fade-in has ended). */
async function untilOpaque(element: Locator): Promise<void> {
  await element.evaluate(
    (node) =>
      new Promise<void>((resolve) => {
        const opaque = () => {
          for (let at: Element | null = node; at; at = at.parentElement) {
            if (Number(getComputedStyle(at).opacity) < 1) return false;
          }
          return true;
        };
        const check = () => (opaque() ? resolve() : requestAnimationFrame(check));
        check();
      }),
  );
}

describe('every route of the app in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ env: { BRAND_NAME: BRAND } }), launchBrowser()]);
    watched = await openPage(browser, server.url);
    const { page } = watched;
    // The page's timers run on Playwright's clock from the first load (it flows as usual), so a test can
    // stop it and count a pause on it rather than on the wall.
    await page.clock.install();
    await page.goto('/dashboard');
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await settle(page, `Dashboard | ${BRAND}`);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('shows each route with its title, no errors and no serious accessibility violations', async () => {
    const { page, errors } = watched;
    const problems: string[] = [];
    for (const route of ROUTES) {
      const path = samplePath(route.pattern);
      const landing = landingOf(path);
      await visit(page, path);
      await page.waitForURL((url) => url.pathname === landing, { timeout: 20_000 });
      await settle(page, titleOf(landing));
      if (route.pattern.includes(':hashid')) {
        // The sample profile link names no one: the API's 404 is expected and the screen must say so.
        await page.getByText('This profile was not found').waitFor();
        expect(errors.splice(0), path).toEqual([expect.stringMatching(/status of 404 .*\/api\//)]);
      }
      if (route.pattern === '/editor-template/:id') {
        // No template 7 in the demo company: the editor says so after the API's 404.
        await page.getByText('This template no longer exists.').waitFor();
        expect(errors.splice(0), path).toEqual([expect.stringMatching(/status of 404 .*\/api\//)]);
      }
      if (route.pattern === '/flows/builder/:id') {
        // No flow 7 in the demo company: the builder shows not-found after the API's 404.
        await page.getByText('Page not found').first().waitFor();
        expect(errors.splice(0), path).toEqual([expect.stringMatching(/status of 404 .*\/api\//)]);
      }
      expect(errors, path).toEqual([]);
      const found = await unexpectedViolations(page, path);
      if (found) problems.push(found);
      if (['/dashboard', '/segments', '/flows/builder/7', '/custom-error/error-3', '/404'].includes(path))
        await screenshot(page, `desktop${path.replaceAll('/', '-')}`);
    }
    expect(problems.join('\n\n')).toBe('');
  });

  it('highlights the current page in the sidebar and shows its breadcrumbs', async () => {
    const { page } = watched;
    await visit(page, '/flows/builder/7');
    await settle(page, `Flow builder | ${BRAND}`);
    // The sample flow does not exist: the builder's 404 is expected (the page around it is what is checked).
    await page.getByText('Page not found').first().waitFor();
    expect(watched.errors.splice(0)).toEqual([expect.stringMatching(/status of 404 .*\/api\//)]);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await crumbs.getByRole('link', { name: 'Flows' }).click();
    await page.waitForURL(/\/flows$/);
    await settle(page, `Flows | ${BRAND}`);
    const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
    expect(await sidebar.locator('[aria-current="page"]').textContent()).toBe('Flows');
    await sidebar.getByRole('link', { name: 'Guest segments' }).click();
    await page.waitForURL(/\/segments$/);
    await settle(page, `Guest segments | ${BRAND}`);
    expect(await sidebar.locator('[aria-current="page"]').textContent()).toBe('Guest segments');
  });

  it('folds the sidebar to a rail that expands after the hover pause and shows flyouts', async () => {
    const { page, errors } = watched;
    await visit(page, '/dashboard');
    await settle(page, `Dashboard | ${BRAND}`);
    const width = () =>
      page.evaluate(() => document.getElementById('app-sidebar')?.getBoundingClientRect().width);
    expect(await width()).toBe(256);
    await page.getByRole('button', { name: 'Collapse the sidebar' }).click();
    await page.mouse.move(800, 400);
    await page.waitForFunction(
      () => document.getElementById('app-sidebar')?.getBoundingClientRect().width === 68,
    );
    await screenshot(page, 'desktop-rail');
    // Resting on the rail: nothing before the 800 ms pause, expanded over the page when it ends. The clock
    // stands still meanwhile, so however slow this machine is, no page timer fires unless the test says so.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.mouse.move(34, 700);
    await page.clock.runFor(MENU_HOVER_PAUSE_MS - 1);
    // Room for an early expansion to render, were there one (the paused clock fires nothing meanwhile).
    await page.waitForTimeout(300);
    expect(await width()).toBe(68);
    await page.clock.runFor(1);
    await expect.poll(width, { timeout: 5_000 }).toBe(256);
    await page.mouse.move(800, 400);
    await expect.poll(width, { timeout: 5_000 }).toBe(68);
    // A group's flyout lists its pages. Hovering it rests on the rail too, so the clock only runs the
    // flyout's opening, never the rail's pause, while the flyout is checked and used.
    await page.getByRole('button', { name: 'Marketing' }).hover();
    await page.clock.runFor(100);
    const flyout = page.getByRole('navigation', { name: 'Marketing' });
    await flyout.getByRole('link', { name: 'Campaigns' }).waitFor();
    // The flyout's fade-in ends on the paused clock before its colours are checked (300 ms in all, as
    // before, however slow the machine is).
    await withinClockBudget(page, 200, untilOpaque(flyout));
    await withinClockBudget(page, MENU_HOVER_PAUSE_MS - 350, expectAccessible(page, 'the Marketing flyout'));
    await flyout.getByRole('link', { name: 'Campaigns' }).click();
    await page.waitForURL(/\/campaigns$/);
    await page.mouse.move(800, 400);
    await page.clock.resume();
    await settle(page, `Campaigns | ${BRAND}`);
    await expectAccessible(page, '/campaigns with the rail');
    await page.mouse.move(800, 400);
    await page.getByRole('button', { name: 'Expand the sidebar' }).click();
    await page.waitForFunction(
      () => document.getElementById('app-sidebar')?.getBoundingClientRect().width === 256,
    );
    expect(errors).toEqual([]);
  });

  it('keeps the header menus accessible when open', async () => {
    const { page } = watched;
    await page.getByRole('button', { name: /Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();
    await page.waitForTimeout(300);
    await expectAccessible(page, 'the open user menu');
    await page.keyboard.press('Escape');
  });

  it('sends an unknown path to /404', async () => {
    const { page } = watched;
    await visit(page, '/no/such/page');
    await page.waitForURL(/\/404$/);
    await settle(page, `Page not found | ${BRAND}`);
  });

  describe('at phone width', () => {
    let phone: WatchedPage;

    beforeAll(async () => {
      const storageState = await watched.context.storageState();
      const context = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 390, height: 844 },
        storageState,
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      // A policy violation shows here as a console error ("Refused to …").
      phone = { page, context, errors, policyViolations: [], close: () => context.close() };
    });

    afterAll(async () => {
      await phone?.close();
    });

    it('lands on custom error 1 when a page’s code fails to download, and Retry loads it', async () => {
      const { page, errors } = phone;
      await page.route(/\/assets\/ComingSoonScreen-[^/]*\.js$/, (route) => route.abort());
      await page.goto('/dashboard');
      await settle(page, `Dashboard | ${BRAND}`);
      await visit(page, '/campaign/analytics');
      await page.waitForURL(/\/custom-error\/error-1\?from=%2Fcampaign%2Fanalytics$/, { timeout: 20_000 });
      await settle(page, `This page could not load | ${BRAND}`);
      await expectAccessible(page, '/custom-error/error-1 after a failed chunk');
      await screenshot(page, 'phone-chunk-failed');
      // The failed download itself is reported by the browser and React; nothing else may be.
      expect(
        errors.filter(
          (error) => !/ComingSoonScreen|Failed to load resource|dynamically imported/.test(error),
        ),
      ).toEqual([]);
      errors.length = 0;
      await page.unroute(/\/assets\/ComingSoonScreen-[^/]*\.js$/);
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.waitForURL(/\/campaign\/analytics$/);
      await settle(page, titleOf('/campaign/analytics'));
      expect(errors).toEqual([]);
    });

    it('opens the menu as a drawer, closes it on navigation, and stays accessible', async () => {
      const { page, errors } = phone;
      for (const path of [
        '/dashboard',
        '/segments',
        '/guest/profile/7/a1b2c3/7',
        '/account',
        '/custom-error/error-6',
      ]) {
        await visit(page, path);
        await settle(page, titleOf(path));
        // As on the desktop: the sample profile link names no one, so its 404 is expected.
        if (path.startsWith('/guest/profile/')) {
          await page.getByText('This profile was not found').waitFor();
          errors.splice(0);
        }
        await expectAccessible(page, path);
        await screenshot(page, `phone${path.replaceAll('/', '-')}`);
      }
      await visit(page, '/dashboard');
      await settle(page, `Dashboard | ${BRAND}`);
      const sidebar = page.getByRole('navigation', { name: 'Main navigation' });
      const drawerClosed = () =>
        page.waitForFunction(() => {
          const nav = document.getElementById('app-sidebar');
          return nav !== null && nav.getBoundingClientRect().right <= 0;
        });
      await drawerClosed();
      await page.getByRole('button', { name: 'Open the menu' }).click();
      await sidebar.getByRole('link', { name: 'Demographics' }).waitFor({ state: 'visible' });
      await expectAccessible(page, 'open drawer at 390 px');
      await screenshot(page, 'phone-drawer');
      await sidebar.getByRole('link', { name: 'Demographics' }).click();
      await page.waitForURL(/\/demographics$/);
      await settle(page, `Demographics | ${BRAND}`);
      // Before each navigation the layout resets: the drawer closes.
      await drawerClosed();
      expect(errors).toEqual([]);
    });
  });
});
