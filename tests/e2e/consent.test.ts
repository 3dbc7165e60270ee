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
    const table = page.getByRole('table', { name: 'Guests', exact: true });
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
    const table = page.getByRole('table', { name: 'Guests', exact: true });
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

  it('adds a guest to invite as a subscriber from its row: a notice, one fewer to invite, the profile subscribed', async () => {
    const { page } = watched;
    const counted = page.waitForResponse(
      (response) =>
        response.url().includes('/api/pos/guests/?') && response.url().includes('is_subscriber=false'),
    );
    await page.goto('/guest/analytics');
    const { count } = (await (await counted).json()) as { count: number };
    await page.getByText(`Guests to invite: ${count.toLocaleString('en-US')}`).waitFor();

    // The first guest to invite: its row names it, and its POS id is the one the dialog links.
    const add = page.getByRole('button', { name: /^Add as subscriber: / }).first();
    await add.waitFor();
    const name = (await add.getAttribute('aria-label'))!.replace(/^Add as subscriber: /, '');
    const row = page.getByRole('row').filter({ has: add });
    const posId = (await row.getByRole('cell').nth(2).innerText()).trim();
    await add.click();
    const dialog = page.getByRole('dialog', { name: `Add ${name} as a subscriber` });
    await dialog.waitFor();
    const [first, ...rest] = name.split(/\s+/);
    expect(await dialog.getByLabel('First name').inputValue()).toBe(first);
    expect(await dialog.getByLabel('Last name').inputValue()).toBe(rest.join(' '));
    const posField = dialog.getByLabel('POS id');
    expect(await posField.inputValue()).toBe(posId);
    expect(await posField.getAttribute('readonly')).not.toBeNull();

    // No email: refused beside the field before any call.
    await dialog.getByRole('button', { name: 'Add subscriber' }).click();
    await dialog.getByText('Email is required').waitFor();
    const email = `invited.${posId.toLowerCase().replace(/[^a-z0-9]/g, '')}@example.com`;
    await dialog.getByLabel(/^Email/).fill(email);
    await screenshots(page, 'consent', 'add-guest-as-subscriber');
    await dialog.getByRole('button', { name: 'Add subscriber' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByText(`${name} is now a subscriber.`).waitFor();
    await page.getByText(`Guests to invite: ${(count - 1).toLocaleString('en-US')}`).waitFor();
    // The invite rows are read again without the new subscriber's POS id.
    await page
      .getByRole('button', { name: /^Add as subscriber: / })
      .first()
      .waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('row')
          .filter({ has: page.getByRole('cell', { name: posId, exact: true }) })
          .count(),
      )
      .toBe(0);
    // On a phone each row's action sits under the name: the invite table fits without a sideways scroll.
    await page.setViewportSize({ width: 390, height: 844 });
    const inviteTable = page
      .getByRole('table')
      .filter({ has: page.getByRole('button', { name: /^Add as subscriber: / }) });
    await expect
      .poll(() => inviteTable.evaluate((table) => table.scrollWidth <= table.parentElement!.clientWidth + 1))
      .toBe(true);
    await screenshots(page, 'consent', 'guest-added-as-subscriber');

    // The guest's profile now says subscribed and leads to the subscriber record.
    await page.getByLabel('Search guests').fill(posId);
    const guestRow = page
      .getByRole('table', { name: 'Guests', exact: true })
      .getByRole('row')
      .filter({ hasText: name })
      .first();
    await expect
      .poll(async () => guestRow.locator('[data-consent]').getAttribute('data-consent'))
      .toBe('subscribed');
    await guestRow.getByRole('button', { name: /^Open/ }).first().click();
    await page.waitForURL(/\/guest\/profile\//);
    await expect.poll(() => consentsOn(page)).toEqual(['subscribed', 'subscribed']);
    await page.getByText('Email: subscribed').first().waitFor();
    await page.getByRole('button', { name: 'Open subscriber profile' }).click();
    await page.waitForURL(/\/subscriber\/profile\//);
    await page.getByText('Subscriber record', { exact: true }).waitFor();
    await page.getByText(email).first().waitFor();
    expect(watched.errors).toEqual([]);
  });

  it('offers no invite action to an analyst, who only reads', async () => {
    const { page } = watched;
    const analyst = { email: 'e2e.analyst@harborvine.example', password: 'analyst-password-1' };
    await page.goto('/account');
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Add user' }).click();
    const create = page.getByRole('dialog', { name: 'Add a user' });
    await create.getByLabel('Email').fill(analyst.email);
    await create.getByLabel('First password').fill(analyst.password);
    await create.getByLabel(/^Role/).first().click();
    await page.getByRole('option', { name: 'Analyst' }).click();
    await create.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('The user is added.').waitFor();

    const reader = await openPage(browser, server.url);
    try {
      await reader.page.goto('/guest/analytics');
      await signIn(reader.page, analyst);
      await reader.page.waitForURL(/\/guest\/analytics$/);
      await reader.page.getByText(/^Guests to invite: [\d,]+$/).waitFor();
      await reader.page.getByText(/of them to invite/).waitFor();
      expect(await reader.page.getByRole('button', { name: /^Add as subscriber/ }).count()).toBe(0);
      expect(reader.errors).toEqual([]);
    } finally {
      await reader.close();
    }
  });
});
