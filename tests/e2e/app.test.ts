import { mkdir } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

describe('the built app in a browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // Server and browser start side by side: each takes seconds, and neither needs the other yet.
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends a visitor without a session from the root to the sign-in page, without errors', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const { page } = watched;
      await page.goto('/');
      await page.waitForURL(/\/oidc\/interaction\//);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      await page.getByLabel('Email').waitFor();

      await mkdir('test-results', { recursive: true });
      await page.screenshot({ path: 'test-results/e2e-login.png', fullPage: true });
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
    }
  });

  it('shows the Locations operations in the OpenAPI UI', async () => {
    const watched = await openPage(browser, server.url);
    try {
      const { page } = watched;
      await page.goto('/api/docs', { waitUntil: 'networkidle' });
      // Tags start folded (server/app.ts): unfold Locations.
      await page.locator('.opblock-tag[data-tag="Locations"]').click();
      // Swagger UI gives each operation an id of `operations-<tag>-<operationId>`.
      const operations = page.locator('.opblock[id^="operations-Locations-"]');
      await operations.first().waitFor({ state: 'visible' });
      const summaries = await operations.evaluateAll((blocks) =>
        blocks.map((block) => {
          const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
          const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
          return `${method} ${path}`;
        }),
      );
      expect(summaries).toEqual(
        expect.arrayContaining([
          'GET /api/customers/locations/',
          'POST /api/customers/locations/',
          'GET /api/customers/groups/',
        ]),
      );
      expect(watched.errors).toEqual([]);
    } finally {
      await watched.close();
    }
  });

  it('answers the health check from its embedded database', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'pglite' });
  });
});
