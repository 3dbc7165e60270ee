import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ConsumerInsights } from '../../src/schemas/consumer-insights.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, screenshots, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

const PATH = '/api/analytics/consumer-insights/';

/** The next answer of the call that matches `test` (its query), parsed. */
async function nextAnswer(page: Page, test: (query: URLSearchParams) => boolean = () => true) {
  const response = await page.waitForResponse((candidate) => {
    const url = new URL(candidate.url());
    return url.pathname === PATH && test(url.searchParams) && candidate.request().method() === 'GET';
  });
  return { query: new URL(response.url()).searchParams, body: (await response.json()) as ConsumerInsights };
}

/** The digits of the KPI card with this label (the figure as the page writes it, separators dropped). */
async function kpi(page: Page, label: string): Promise<string> {
  const card = page.locator('.mantine-Paper-root', { has: page.getByText(label, { exact: true }) }).first();
  await expect.poll(async () => (await card.locator('[data-figure]').count()) > 0).toBe(true);
  return (await card.locator('[data-figure]').innerText()).replace(/\D/g, '');
}

/** The digits of each body row's cell `column` of a chart's data table (visually hidden until shown). */
async function tableColumn(page: Page, table: string, column: number): Promise<string[]> {
  const rows = page.getByRole('table', { name: table }).locator('tbody tr');
  return rows.evaluateAll<string[], number>(
    (all, index) =>
      all.map((row) => (row.querySelectorAll('td')[index]?.textContent ?? '').replace(/\D/g, '')),
    column,
  );
}

describe('the consumer insights dashboard in a browser', () => {
  const session = signedInSession('/consumer/insights/analytics');

  it('shows the API’s figures, and new ones for another range, a location and a segment', async () => {
    const { page } = session.watched;
    const first = nextAnswer(page);
    await page.reload();
    const { body: month, query } = await first;
    expect(query.get('compare')).toBe('previous');
    expect(month.totals.checks).toBeGreaterThan(0);
    expect(await kpi(page, 'Checks')).toBe(String(month.totals.checks));
    await page.getByRole('heading', { name: 'When guests come' }).waitFor();
    await expect
      .poll(() => tableColumn(page, 'Party size', 1))
      .toEqual(month.party_sizes.map((row) => String(row.checks)));
    await expect
      .poll(() => tableColumn(page, 'Day parts', 1))
      .toEqual(month.day_parts.map((row) => String(row.checks)));
    await expect
      .poll(() => tableColumn(page, 'Time between visits', 1))
      .toEqual(month.visit_gaps.buckets.map((row) => String(row.visits)));
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'consumer-insights', 'last-30-days');

    // Another range: the last 90 days.
    const longer = nextAnswer(page, (q) => q.get('from_date') !== month.range.from);
    await page.getByRole('combobox', { name: 'Date range' }).selectOption('last90');
    const { body: quarter } = await longer;
    expect(quarter.totals.checks).toBeGreaterThan(month.totals.checks);
    await expect.poll(() => kpi(page, 'Checks')).toBe(String(quarter.totals.checks));

    // One location: the header's picker.
    const here = nextAnswer(page, (q) => q.has('location_id'));
    await page.getByRole('button', { name: /^Choose the location to show: / }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a location' });
    await picker.getByRole('button', { name: /^Harbor & Vine Downtown/ }).click();
    await picker.waitFor({ state: 'hidden' });
    const { body: one } = await here;
    expect(one.range).toEqual(quarter.range);
    expect(one.totals.checks).toBeLessThan(quarter.totals.checks);
    await expect.poll(() => kpi(page, 'Checks')).toBe(String(one.totals.checks));

    // A saved segment's favourite categories beside every guest's, by keyboard.
    expect(one.segments.length).toBeGreaterThan(0);
    const segment = one.segments[0]!;
    const chosen = nextAnswer(page, (q) => q.get('segment_id') === String(segment.id));
    const select = page.getByRole('combobox', { name: 'Segment' });
    await select.focus();
    // The search holds the picked name ("All guests"): replace it.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(segment.name);
    await page.getByRole('option', { name: segment.name, exact: true }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const { body: theirs } = await chosen;
    expect(theirs.categories.segment_id).toBe(segment.id);
    const title = `Favourite categories: ${segment.name}`;
    await page.getByRole('heading', { name: title }).waitFor();
    if (theirs.categories.rows.length > 0) {
      await expect
        .poll(() => tableColumn(page, title, 1))
        .toEqual(theirs.categories.rows.map((row) => String(row.units)));
    } else {
      await page.getByText(`No guest of “${segment.name}” bought an item`).waitFor();
    }
  });

  it('fits a phone: nothing wider than the screen', async () => {
    const { page } = session.watched;
    await page.setViewportSize(PHONE);
    await page.goto('/consumer/insights/analytics');
    await page.locator('[data-figure]').first().waitFor();
    await page.locator('.apexcharts-canvas').first().waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
  });
});
