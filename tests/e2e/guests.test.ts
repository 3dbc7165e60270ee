import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

/** The demo owner (see README, Demo sign-in). */
const OWNER = { email: 'owner@harborvine.example', password: 'regulars-demo' };

const NEW_ROWS = 940;
const DUPLICATES = 50;
const INVALID = 10;

/**
 * A 1,000-row subscriber file: 940 new people, 50 rows repeating one of them (in another letter case and
 * with spaces, as spreadsheets make them), and 10 rows with an address that is not valid.
 */
function subscriberFile(): string {
  const lines = ['Email,First_Name,Last_Name,Zip'];
  for (let i = 1; i <= NEW_ROWS; i++) lines.push(`journey.${i}@example.com,Journey,Person ${i},97201`);
  for (let i = 1; i <= DUPLICATES; i++) lines.push(` JOURNEY.${i * 7}@Example.com ,Journey,Again ${i},97201`);
  for (let i = 1; i <= INVALID; i++) lines.push(`not-an-address-${i},Broken,Row ${i},97201`);
  return `${lines.join('\r\n')}\r\n`;
}

/** Waits for the report figure labelled `label` to read `value`. */
async function expectFigure(page: Page, label: string, value: number): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Upload subscribers' });
  await expect
    .poll(async () => dialog.getByText(label, { exact: true }).locator('xpath=..').innerText())
    .toContain(value.toLocaleString('en-US'));
}

describe('guests and subscribers in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    watched = await openPage(browser, server.url);
    const { page } = watched;
    await page.goto('/subscribers');
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/subscribers$/);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('uploads a CSV, reads the report, finds a subscriber, notes on the profile and deletes a guest', async () => {
    const { page } = watched;
    const folder = await mkdtemp(join(tmpdir(), 'regulars-journey-'));
    const file = join(folder, 'journey-subscribers.csv');
    await writeFile(file, subscriberFile());

    // Upload: the report counts every row and lists the rejected ones by line.
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload subscribers' });
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByLabel('CSV file').click();
    await (await chooser).setFiles(file);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText('Import finished').waitFor({ timeout: 60_000 });
    await expectFigure(page, 'Rows read', 1000);
    await expectFigure(page, 'New', NEW_ROWS);
    await expectFigure(page, 'Duplicates', DUPLICATES);
    await expectFigure(page, 'Invalid', INVALID);
    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/e2e-guests-upload-report.png', fullPage: true });
    // Line 1 is the header: the first repeat is line 942 and repeats line 8 (journey.7@…).
    await dialog.getByRole('row', { name: /^942\s+email\s+Repeats line 8$/ }).waitFor();
    // The rejected-rows file has all 60, each with its line and reason; the first invalid one is line 992.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download 60 rejected rows' }).click();
    const rejected = await readFile(await (await download).path(), 'utf8');
    const rejectedLines = rejected.trim().split(/\r?\n/);
    expect(rejectedLines).toHaveLength(1 + DUPLICATES + INVALID);
    expect(rejectedLines.find((line) => line.startsWith('992,'))).toMatch(
      /Email is not valid.*not-an-address-1,/,
    );
    await dialog.getByRole('button', { name: 'Done' }).click();

    // A second file with known emails updates them (spec §5): filled cells win, a blank keeps what is stored.
    const again = join(folder, 'journey-again.csv');
    await writeFile(
      again,
      'Email,First_Name,Last_Name,Zip\r\nJourney.512@example.com,,,97299\r\njourney.513@example.com,Jo,,\r\n',
    );
    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const secondChooser = page.waitForEvent('filechooser');
    await dialog.getByLabel('CSV file').click();
    await (await secondChooser).setFiles(again);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText('Import finished').waitFor({ timeout: 60_000 });
    await expectFigure(page, 'Updated', 2);
    await expectFigure(page, 'New', 0);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Search finds one of the new subscribers; its profile opens.
    await page.getByLabel('Search subscribers').fill('journey.512@');
    const row = page.getByRole('row', { name: /journey\.512@example\.com/ });
    await row.waitFor();
    await row
      .getByRole('button', { name: /^(Profile|Open the profile of)/ })
      .first()
      .click();
    await page.waitForURL(/\/subscriber\/profile\/-\/[^/]+\/\d+$/);
    await page.getByRole('heading', { name: 'Journey Person 512' }).waitFor();
    // The update kept the names the second file left blank and took its zip code.
    await page.getByText('97299', { exact: true }).first().waitFor();

    // A note is kept and shown with its author.
    await page.getByLabel('New note').fill('Prefers the window table');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Prefers the window table').waitFor();
    await page.reload();
    await page.getByText('Prefers the window table').waitFor();

    // A guest is deleted from the guest list; searching its POS id then finds no one.
    await page.getByRole('link', { name: 'Guest analytics' }).first().click();
    await page.waitForURL(/\/guest\/analytics$/);
    const deleteButton = page.getByRole('button', { name: /^Delete / }).first();
    await deleteButton.waitFor();
    const guestRow = page.getByRole('row').filter({ has: deleteButton });
    const posId = (await guestRow.getByRole('cell').nth(2).innerText()).trim();
    expect(posId).not.toBe('');
    await deleteButton.click();
    await page
      .getByRole('dialog', { name: 'Delete this guest?' })
      .getByRole('button', { name: 'Delete guest' })
      .click();
    await page.getByText('The guest was deleted.').waitFor();
    await page.getByLabel('Search guests').fill(posId);
    await page.getByText(`No guest matches “${posId}”.`).waitFor();
    await page.screenshot({ path: 'test-results/e2e-guests-deleted.png', fullPage: true });
    expect(watched.errors).toEqual([]);
  });

  it('imports POS checks from the guest list: the report counts whole checks and the new guest is listed', async () => {
    const { page } = watched;
    // The company's first location, as the locations screen reads it.
    const listed = page.waitForResponse(
      (response) => /\/api\/customers\/locations\/\?/.test(response.url()) && response.ok(),
    );
    await page.goto('/locations');
    const location = (await (await listed).json()).results[0].id as number;
    await page.goto('/guest/analytics');
    const header =
      'location_id,check_number,opened_at,closed_at,total,pos_id,menu_item,category,quantity,amount';
    const row = (at: number, number: string, item: string, amount: string) =>
      `${at},${number},2025-06-01T18:00:00Z,2025-06-01T19:00:00Z,30.00,E2E-CHECKS-1,${item},Food,1,${amount}`;
    const folder = await mkdtemp(join(tmpdir(), 'regulars-checks-'));
    const file = join(folder, 'pos-checks.csv');
    await writeFile(
      file,
      [
        header,
        row(location, 'E2E-1', 'Soup', '10.00'),
        row(location, 'E2E-1', 'Steak', '20.00'),
        row(location, 'E2E-2', 'Steak', '30.00'),
        // No such location in this company: refused.
        row(999_999_999, 'E2E-3', 'Soup', '30.00'),
      ].join('\n'),
    );

    await page.getByRole('button', { name: 'Import POS checks' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import POS checks' });
    const chooser = page.waitForEvent('filechooser');
    await dialog.getByLabel('CSV file').click();
    await (await chooser).setFiles(file);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await dialog.getByText('Import finished').waitFor({ timeout: 60_000 });
    await dialog.getByText('Checks: 2 stored, 0 already there, 1 rejected.').waitFor();
    await dialog.getByRole('row', { name: /^5\s+location_id\s+Not valid$/ }).waitFor();
    await page.screenshot({ path: 'test-results/e2e-guests-checks-report.png', fullPage: true });
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.getByLabel('Search guests').fill('E2E-CHECKS-1');
    await page.getByRole('row', { name: /E2E-CHECKS-1/ }).waitFor();
    expect(watched.errors).toEqual([]);
  });
});
