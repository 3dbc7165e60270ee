import { mkdir } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { signIn } from './support/pages.js';
import { startServer, type RunningServer } from './support/server.js';

/** The demo data's platform staff member and the owner they help (see README, Demo sign-in). */
const STAFF = { email: 'support@regulars.example', password: 'regulars-demo' };
const OWNER = { name: 'Dana Whitfield', email: 'owner@harborvine.example' };

describe('support staff acting as a company user', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    watched = await openPage(browser, server.url);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('starts from /hijack, shows a banner naming both people all along, and ends with one click', async () => {
    const { page } = watched;
    await page.goto('/hijack');
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('Email').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Sign-in returns to the page the visitor asked for.
    await page.waitForURL(/\/hijack$/);
    await page.getByRole('heading', { name: 'Act as a user' }).waitFor();

    await page.getByLabel('Search users').fill('harborvine');
    const row = page.getByRole('row', { name: new RegExp(OWNER.email) });
    await row.getByRole('button', { name: 'Act as' }).click();
    await page.getByRole('button', { name: `Act as ${OWNER.name}` }).click();

    const banner = page.getByText(/^Sasha Support is acting as Dana Whitfield .* of Harbor & Vine/);
    await banner.waitFor();
    await page.getByRole('button', { name: new RegExp(`Account menu for ${OWNER.name}`) }).waitFor();
    // The banner stays on every page while the impersonation lasts, including after a reload.
    await page.getByRole('link', { name: 'Account' }).first().click();
    await page.waitForURL(/\/account$/);
    await banner.waitFor();
    await page.reload();
    await banner.waitFor();
    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/e2e-hijack-banner.png', fullPage: true });

    // A note written while acting names both people.
    await page.goto('/subscribers');
    const firstRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: /^(Profile|Open the profile of)/ }) })
      .first();
    await firstRow
      .getByRole('button', { name: /^(Profile|Open the profile of)/ })
      .first()
      .click();
    await page.waitForURL(/\/subscriber\/profile\//);
    await page.getByLabel('New note').fill('Called about the private room');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Called about the private room').waitFor();
    await page
      .getByText(/^Sasha Support for Dana Whitfield · /)
      .first()
      .waitFor();
    await banner.waitFor();

    const impersonationToken = await page.evaluate(() => window.localStorage.getItem('tokenData'));
    await page.getByRole('button', { name: 'End' }).click();
    await page.waitForURL(/\/hijack$/);
    await page.getByRole('heading', { name: 'Act as a user' }).waitFor();
    expect(await banner.count()).toBe(0);

    // The impersonation's token no longer opens anything.
    const { access_token: ended } = JSON.parse(impersonationToken!) as { access_token: string };
    const response = await fetch(`${server.url}/api/accounts/verify/`, {
      headers: { authorization: `Bearer ${ended}` },
    });
    expect(response.status).toBe(401);
    expect(watched.errors).toEqual([]);
  });

  it('takes staff who land on the dashboard to their own start page, /hijack, not to /no-access', async () => {
    const fresh = await openPage(browser, server.url);
    try {
      // Where everyone lands after sign-in; staff have no dashboard, so they are taken on to /hijack.
      await fresh.page.goto('/dashboard');
      await signIn(fresh.page, STAFF);
      await fresh.page.waitForURL(/\/hijack$/);
      await fresh.page.getByRole('heading', { name: 'Act as a user' }).waitFor();
      expect(fresh.errors, JSON.stringify(fresh.errors)).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
