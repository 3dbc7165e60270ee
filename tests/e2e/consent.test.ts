import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { screenshots, signIn } from './support/pages.js';
import { startServer, type RunningServer } from './support/server.js';

/** The consent answers each badge carries (`data-consent`) on one page, in order. */
async function consentsOn(page: Page, scope = page.locator('main')): Promise<string[]> {
  return scope
    .locator('[data-consent]')
    .evaluateAll((nodes) => nodes.map((node) => node.dataset.consent ?? ''));
}

describe('email consent and guests to invite in a browser (issue 11)', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    watched = await openPage(browser, server.url);
    await watched.page.goto('/guest/analytics');
    await signIn(watched.page);
    await watched.page.waitForURL(/\/guest\/analytics$/);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('shows each guest the same consent in the list and on the profile, apart from the kind of record', async () => {
    const { page } = watched;
    const table = page.getByRole('table').first();
    await table.locator('[data-consent]').first().waitFor();
    const rows = table.getByRole('row').filter({ has: page.locator('[data-consent]') });
    const count = await rows.count();
    // One guest of each answer the first page shows: the list's badge and the profile's must agree.
    const seen = new Map<string, number>();
    for (let index = 0; index < count; index++) {
      const consent = await rows.nth(index).locator('[data-consent]').getAttribute('data-consent');
      if (consent && !seen.has(consent)) seen.set(consent, index);
    }
    expect(seen.size).toBeGreaterThan(0);
    for (const [consent, index] of seen) {
      const row = rows.nth(index);
      const name = (await row.getByRole('button').first().innerText()).trim();
      await row.getByRole('button', { name: /^Open/ }).first().click();
      await page.waitForURL(/\/guest\/profile\//);
      await page.getByRole('heading', { name, level: 2 }).waitFor();
      // The header names the kind of record and the consent separately; the panel repeats the same answer.
      await expect.poll(() => consentsOn(page)).toEqual([consent, consent]);
      await page.getByText('Guest record', { exact: true }).waitFor();
      expect(await page.getByText('Subscriber record', { exact: true }).count()).toBe(0);
      // The POS's card digits and the linked payment cards are named apart.
      await page.getByRole('heading', { name: 'Linked payment cards' }).waitFor();
      await page.getByText(/^Card on POS checks •••• \d{4}$/).waitFor();
      if (consent === 'never_asked') {
        await page.getByText(/^No subscriber record is linked to this guest/).waitFor();
      } else {
        await screenshots(page, 'consent', `guest-${consent}`);
        await page.getByRole('button', { name: 'Open subscriber profile' }).click();
        await page.waitForURL(/\/subscriber\/profile\//);
        await page.getByText('Subscriber record', { exact: true }).waitFor();
        await expect.poll(async () => (await consentsOn(page))[0]).toBe(consent);
        await screenshots(page, 'consent', `subscriber-${consent}`);
      }
      await page.goto('/guest/analytics');
      await table.locator('[data-consent]').first().waitFor();
    }
    expect(watched.errors).toEqual([]);
  });

  it("keeps a linked card's Remove button whole on a phone, however long the card's details", async () => {
    const { page } = watched;
    await page.goto('/guest/analytics');
    const table = page.getByRole('table').first();
    await table.locator('[data-consent]').first().waitFor();
    await table.getByRole('button', { name: /^Open/ }).first().click();
    await page.waitForURL(/\/guest\/profile\//);
    await page.getByRole('button', { name: 'Add card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Link a card' });
    await dialog.getByLabel('Last four digits').fill('4242');
    await dialog.getByLabel('Name on card').fill('ALEXANDRA MONTGOMERY-WHITFIELD OF THE HARBOUR');
    await dialog.getByRole('button', { name: 'Link card' }).click();
    const remove = page.getByRole('button', { name: 'Remove card •••• 4242' });
    await remove.waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await remove.innerText()).toBe('Remove');
    expect(
      await remove.evaluate((button) =>
        [button, ...button.querySelectorAll('*')].every((part) => part.scrollWidth <= part.clientWidth + 1),
      ),
    ).toBe(true);
    await screenshots(page, 'consent', 'linked-card');
    await remove.click();
    await remove.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('counts every guest to invite, not the rows read, and exports them all', async () => {
    const { page } = watched;
    const counted = page.waitForResponse(
      (response) =>
        response.url().includes('/api/pos/guests/?') && response.url().includes('is_subscriber=false'),
    );
    await page.goto('/guest/analytics');
    const { count } = (await (await counted).json()) as { count: number };
    const formatted = count.toLocaleString('en-US');
    const badge = page.getByText(`Guests to invite: ${formatted}`);
    await badge.waitFor();
    // Only the first file has been read: the listed rows are fewer than the total the badge gives.
    await page.getByText(/of them to invite/).waitFor();
    const listed = Number(
      (await page.getByText(/of them to invite/).innerText())
        .match(/([\d,]+) of them to invite/)![1]!
        .replace(/,/g, ''),
    );
    expect(listed).toBeLessThan(count);
    await screenshots(page, 'consent', 'guests-to-invite');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Export all/ }).click();
    const csv = await readFile(await (await download).path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines).toHaveLength(count + 1);
    expect(lines.slice(1).every((line) => line.endsWith(',false,never_asked'))).toBe(true);
    await page.getByText('exported as CSV').waitFor();
    expect(watched.errors).toEqual([]);
  });
});
