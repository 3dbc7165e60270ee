import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

/** Access tokens live 125 s, so the app renews them 5 s after sign-in (expires_in − 2 minutes). */
const ACCESS_TOKEN_TTL = 125;

interface StoredTokenData {
  access_token: string;
  expires_in: number;
}

function storedTokenData(page: Page): Promise<StoredTokenData | null> {
  return page.evaluate(() => {
    const text = window.localStorage.getItem('tokenData');
    return text ? (JSON.parse(text) as StoredTokenData) : null;
  });
}

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/e2e-signin-${name}.png`, fullPage: true });
}

describe('signing up, in and out in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ env: { ACCESS_TOKEN_TTL: String(ACCESS_TOKEN_TTL) } }),
      launchBrowser(),
    ]);
    watched = await openPage(browser, server.url);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('registers a new company through the real PKCE redirect and lands on the dashboard', async () => {
    const { page } = watched;
    await page.goto('/');
    // No token: the app sends the browser to the provider's sign-in page with a fresh S256 challenge.
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const pkce = await page.evaluate(() => window.localStorage.getItem('pkce'));
    expect(pkce).not.toBeNull();

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Company name').fill('Fig & Thistle');
    await page.getByLabel('First name').fill('Robin');
    await page.getByLabel('Last name').fill('Ashby');
    await page.getByLabel('Email').fill('robin@figthistle.example');
    await page.getByLabel('Password', { exact: true }).fill('a-long-secret');
    await page.getByLabel('Confirm password').fill('a-long-secret');
    await page.getByLabel('I accept the terms & conditions').check();
    await screenshot(page, 'register');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Recommendations' }).waitFor();
    expect(await page.title()).toBe('Dashboard | Regulars');
    const tokenData = await storedTokenData(page);
    expect(tokenData?.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(tokenData?.expires_in).toBe(ACCESS_TOKEN_TTL);
    // The verifier is single-use: gone once the code was exchanged.
    expect(await page.evaluate(() => window.localStorage.getItem('pkce'))).toBeNull();
    await screenshot(page, 'dashboard');
  });

  it('is still signed in after a reload', async () => {
    const { page } = watched;
    await page.reload();
    await page.getByRole('heading', { name: 'Recommendations' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.getByRole('button', { name: /Account menu for/ }).waitFor();
  });

  it('renews the token silently when it is about to expire, without leaving the page', async () => {
    const { page } = watched;
    const before = await storedTokenData(page);
    // A marker on the window survives only if the page is never reloaded or redirected.
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    await page.waitForFunction(
      (previous) => {
        const text = window.localStorage.getItem('tokenData');
        return text !== null && (JSON.parse(text) as { access_token: string }).access_token !== previous;
      },
      before?.access_token,
      { timeout: 30_000, polling: 250 },
    );
    expect(
      await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage),
    ).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // The renewed token works against the API.
    const renewed = await storedTokenData(page);
    const response = await fetch(`${server.url}/api/accounts/verify/`, {
      headers: { authorization: `Bearer ${renewed!.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { email: string }).email).toBe('robin@figthistle.example');
  });

  it('logs out back to /login with the stored token gone and the old token refused', async () => {
    const { page } = watched;
    const last = await storedTokenData(page);
    await page.getByRole('button', { name: /Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login(\?|$)/);
    await page.getByRole('heading', { name: 'You have signed out' }).waitFor();
    expect(await storedTokenData(page)).toBeNull();
    await screenshot(page, 'signed-out');

    const response = await fetch(`${server.url}/api/accounts/verify/`, {
      headers: { authorization: `Bearer ${last!.access_token}` },
    });
    expect(response.status).toBe(401);
  });

  it('asks for the password again after logout, and a wrong one gets the generic message', async () => {
    const { page } = watched;
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('Email').fill('robin@figthistle.example');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The login detail is incorrect').waitFor();

    await page.getByLabel('Password').fill('a-long-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'Recommendations' }).waitFor();
  });

  it('saw no console or page errors apart from the refused password', () => {
    // The provider answers a wrong password with 401, which Chromium reports as a failed resource load.
    const unexpected = watched.errors.filter((error) => !/status of 401/.test(error));
    expect(unexpected).toEqual([]);
  });
});
