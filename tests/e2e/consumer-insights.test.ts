import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ConsumerInsights } from '../../src/schemas/consumer-insights.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { kpiDigits, nextAnswer, pickLocation, tableColumn } from './support/dashboards.js';
import { PHONE, screenshots, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

const PATH = '/api/analytics/consumer-insights/';

/** The next answer of the call whose query passes `test`, parsed. */
const insightsAnswer = (page: Page, test?: (query: URLSearchParams) => boolean) =>
  nextAnswer<ConsumerInsights>(page, PATH, test);

describe('the consumer insights dashboard in a browser', () => {
  const session = signedInSession('/consumer/insights/analytics');

  it('shows the API’s figures, and new ones for another range, a location and a segment', async () => {
    const { page } = session.watched;
    const first = insightsAnswer(page);
    await page.reload();
    const { body: month, query } = await first;
    expect(query.get('compare')).toBe('previous');
    expect(month.totals.checks).toBeGreaterThan(0);
    expect(await kpiDigits(page, 'Checks')).toBe(String(month.totals.checks));
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
    const longer = insightsAnswer(page, (q) => q.get('from_date') !== month.range.from);
    await page.getByRole('combobox', { name: 'Date range' }).selectOption('last90');
    const { body: quarter } = await longer;
    expect(quarter.totals.checks).toBeGreaterThan(month.totals.checks);
    await expect.poll(() => kpiDigits(page, 'Checks')).toBe(String(quarter.totals.checks));

    // One location: the header's picker.
    const here = insightsAnswer(page, (q) => q.has('location_id'));
    await pickLocation(page, 'Harbor & Vine Downtown');
    const { body: one } = await here;
    expect(one.range).toEqual(quarter.range);
    expect(one.totals.checks).toBeLessThan(quarter.totals.checks);
    await expect.poll(() => kpiDigits(page, 'Checks')).toBe(String(one.totals.checks));

    // A saved segment's favourite categories beside every guest's, by keyboard.
    expect(one.segments.length).toBeGreaterThan(0);
    const segment = one.segments[0]!;
    const chosen = insightsAnswer(page, (q) => q.get('segment_id') === String(segment.id));
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
