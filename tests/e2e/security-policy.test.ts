import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { DEMO_OWNER, signIn } from './support/pages.js';
import { startServer, type RunningServer } from './support/server.js';

async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/e2e-security-${name}.png`, fullPage: true });
}

describe('the Content-Security-Policy in a browser', () => {
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

  it('signs in and uses the app without a single violation, Mantine styles carrying the nonce', async () => {
    const { page } = watched;
    await page.goto('/subscriber-list');
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in');
    await signIn(page, DEMO_OWNER);
    await page.waitForURL(/\/subscriber-list$/);
    await page.getByRole('heading', { name: 'Subscriber lists' }).waitFor();
    await page.getByRole('row').nth(1).waitFor();

    // A dialog renders in a portal with its own transitions and styles.
    await page.getByRole('button', { name: 'Create list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a list' });
    await dialog.getByLabel('List name').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Recommendations' }).waitFor();
    await screenshot(page, 'dashboard');

    const styles = await page.evaluate(() =>
      [...document.querySelectorAll('style')].map((element) => element.nonce),
    );
    expect(styles.length).toBeGreaterThan(0);
    expect(styles.every((nonce) => (nonce ?? '').length >= 16)).toBe(true);
    // The page's text the server filled in: the placeholder never reaches a browser.
    expect(await page.content()).not.toContain('CSP_NONCE_PLACEHOLDER');
    expect(watched.policyViolations).toEqual([]);
  });

  it('opens /api/docs, expands a call, without a violation', async () => {
    const { page } = watched;
    const response = await page.goto('/api/docs');
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: /Regulars API/ }).waitFor();
    // Tags start folded (server/app.ts): unfold Accounts, then open the sign-in call.
    await page.locator('.opblock-tag[data-tag="Accounts"]').click();
    await page.getByText('/api/accounts/login/').first().click();
    await page.getByText('Request body').first().waitFor();
    await screenshot(page, 'api-docs');
    expect(watched.policyViolations).toEqual([]);
  });

  it('the browser refuses an inline script the policy does not allow (the listener works)', async () => {
    const { page } = watched;
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Recommendations' }).waitFor();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.body.append(script);
    });
    await expect.poll(() => watched.policyViolations.length).toBeGreaterThan(0);
    expect(
      await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected),
    ).toBeUndefined();
    watched.policyViolations.length = 0;
    watched.errors.length = 0;
  });
});
