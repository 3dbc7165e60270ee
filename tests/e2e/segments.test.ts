import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { displayLocationName } from '../../src/schemas/locations.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, screenshots, settled, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The signed-in page's access token, as the app stored it. */
async function accessToken(page: Page): Promise<string> {
  const text = await page.evaluate(() => window.localStorage.getItem('tokenData'));
  return (JSON.parse(text ?? '{}') as { access_token: string }).access_token;
}

/** Picks an option of a Mantine select or multi-select named `name` inside `scope`. */
async function choose(page: Page, field: Locator, option: string | RegExp): Promise<string> {
  await field.click();
  const item = page.getByRole('listbox').getByRole('option', { name: option }).first();
  const text = await item.innerText();
  await item.click();
  // Tab leaves the field (a multi-select stays open after a pick); Escape would close the dialog too.
  await page.keyboard.press('Tab');
  return text.trim();
}

/** A whole number shown with thousands separators. */
const numberIn = (text: string) => Number(text.replace(/[^\d]/g, ''));
/** The figure of a live-count tile: its second non-empty line (label, figure, share). */
const figureOf = (text: string) => numberIn(text.split('\n').filter((line) => line.trim() !== '')[1] ?? '');

describe('segments in a browser', () => {
  const session = signedInSession('/segments');

  it('builds "3+ visits in 90 days at one location and $100+ spent", counts it as the API does, saves, opens, clones and exports it', async () => {
    const { page, errors } = session.watched;
    const base = session.server.url;
    const bearer = { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' };
    await page.getByRole('heading', { name: 'Segments' }).waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // The add dialog: the name is checked before any call.
    await page.getByRole('button', { name: 'Add segment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a segment' });
    await dialog.getByLabel('Segment name').fill('Journey regulars');

    // Rule 1: visits at least 3 in the last 90 days (a new segment starts with a visits rule).
    const first = dialog.getByRole('group', { name: 'Rule 1 of group 1' });
    await first.getByRole('textbox', { name: 'Rule 1 of group 1: Value' }).fill('3');
    await first.getByRole('textbox', { name: 'Rule 1 of group 1: In the last (days)' }).fill('90');

    // Rule 2: a visited location, the company's first (as the API lists them, by the name the app shows).
    const locations = (await (
      await fetch(`${base}/api/customers/locations/?page_size=500`, { headers: bearer })
    ).json()) as { results: { id: number; name: string; street: string }[] };
    const location = locations.results[0]!;
    await dialog.getByRole('button', { name: 'Add a rule (and)' }).click();
    const second = dialog.getByRole('group', { name: 'Rule 2 of group 1' });
    await choose(page, second.getByLabel('Rule 2 of group 1: Rule', { exact: true }), 'Visited location');
    // The value is the row's third field (Mantine's multi-select input carries no label of its own).
    await choose(page, second.locator('input:not([type=hidden])').nth(2), displayLocationName(location));

    // Rule 3: total spend at least $100 (the operator "at least" is kept from the visits rule it copies).
    await dialog.getByRole('button', { name: 'Add a rule (and)' }).click();
    const third = dialog.getByRole('group', { name: 'Rule 3 of group 1' });
    await choose(page, third.getByLabel('Rule 3 of group 1: Rule', { exact: true }), 'Total spend');
    await third.getByRole('textbox', { name: 'Rule 3 of group 1: Value' }).fill('100');

    // The same rules asked of the API directly: the live count must show its answer.
    const rules = {
      segment_groups: [
        {
          segment_rules: [
            { type: 'visit_count', operator: 'gte', value: 3, window_days: 90 },
            { type: 'location', operator: 'in', value: [location.id] },
            { type: 'total_spend', operator: 'gte', value: 100 },
          ],
        },
      ],
    };
    const preview = (await (
      await fetch(`${base}/api/campaigns/segments/?preview=1`, {
        method: 'POST',
        headers: bearer,
        body: JSON.stringify(rules),
      })
    ).json()) as { all_customers: number; marketable_customers: number; trackable_customers: number };
    expect(preview.all_customers).toBeGreaterThan(0);
    const live = dialog.getByTestId('live-count-all');
    await expect
      .poll(async () => figureOf(await live.innerText()), { timeout: 15_000 })
      .toBe(preview.all_customers);
    expect(figureOf(await dialog.getByTestId('live-count-marketable').innerText())).toBe(
      preview.marketable_customers,
    );
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'segments', 'builder');
    await page.setViewportSize(PHONE);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Save: the list shows it with its figures once worked out.
    await dialog.getByRole('button', { name: 'Add segment' }).click();
    await page.getByText('The segment is saved.', { exact: false }).waitFor();
    const row = page.getByRole('row', { name: /Journey regulars/ }).first();
    await expect
      .poll(async () => numberIn((await row.getByRole('cell').nth(1).innerText()).split('\n')[0] ?? ''), {
        timeout: 15_000,
      })
      .toBe(preview.all_customers);

    // Its dashboard: selected in the URL and the session.
    await page.getByRole('button', { name: 'Open the dashboard of Journey regulars' }).click();
    await page.waitForURL(/\/segments\?segment=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('segment'));
    expect(await page.evaluate(() => window.sessionStorage.getItem('segmentId'))).toBe(String(id));

    // The dashboard panel: its charts drawn, and its export (with progress) saves every member.
    await page.getByRole('heading', { name: 'Journey regulars', level: 2 }).waitFor();
    await page.getByRole('img', { name: 'Members by number of visits' }).locator('svg').first().waitFor();
    const panelDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
    const panelCsv = await readFile(await (await panelDownload).path(), 'utf8');
    expect(panelCsv.trim().split(/\r?\n/)).toHaveLength(1 + preview.all_customers);
    await page.getByText(`Export saved: ${preview.all_customers.toLocaleString('en-US')} rows.`).waitFor();
    await screenshots(page, 'segments', 'dashboard');

    // Clone: "… (copy)" offered, saved, listed.
    await page.getByRole('button', { name: 'Clone Journey regulars' }).click();
    const clone = page.getByRole('dialog', { name: 'Clone Journey regulars' });
    expect(await clone.getByLabel('Name of the copy').inputValue()).toBe('Journey regulars (copy)');
    await clone.getByRole('button', { name: 'Clone' }).click();
    await page.getByText('The copy is saved.').waitFor();
    await page.getByRole('row', { name: /Journey regulars \(copy\)/ }).waitFor();

    // Export: the CSV has one row per member.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV of Journey regulars', exact: true }).click();
    const csv = await readFile(await (await download).path(), 'utf8');
    expect(csv.trim().split(/\r?\n/)).toHaveLength(1 + preview.all_customers);
    await page.getByText('The CSV file is downloaded.').waitFor();
    await screenshots(page, 'segments', 'list');

    // In the background: queued from the row, followed in the Exports drawer, downloaded once ready (keyboard).
    await page
      .getByRole('button', { name: 'Export in the background: Journey regulars', exact: true })
      .click();
    await page.getByText('The export is queued. Follow it under Exports.').waitFor();
    await page.getByRole('button', { name: 'Exports', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Exports' });
    const ready = drawer.getByRole('button', {
      name: 'Download the export of Journey regulars',
      exact: true,
    });
    await ready.waitFor();
    // Checked once the drawer has finished sliding in (halfway, its colours are blended with the overlay).
    await settled(page);
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    const background = page.waitForEvent('download');
    await ready.focus();
    await page.keyboard.press('Enter');
    const backgroundCsv = await readFile(await (await background).path(), 'utf8');
    expect(backgroundCsv).toBe(csv);
    expect(backgroundCsv.trim().split(/\r?\n/)).toHaveLength(1 + preview.all_customers);
    await screenshots(page, 'segments', 'exports');
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });
});
