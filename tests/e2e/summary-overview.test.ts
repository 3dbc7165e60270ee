import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AnalyticsSummary, SummaryTotals } from '../../src/schemas/analytics-summary.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import {
  expectDashboardsFitPhone,
  kpiDigits,
  nextAnswer,
  pickLocation,
  tableColumn,
} from './support/dashboards.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The next answer of the Summary's call whose query passes `test`. */
const summaryAnswer = (page: Page, test?: (query: URLSearchParams) => boolean) =>
  nextAnswer<AnalyticsSummary>(page, '/api/analytics/summary/', test);

/** The next answer of the Overview's call (the same figures) whose query passes `test`. */
const overviewAnswer = (page: Page, test?: (query: URLSearchParams) => boolean) =>
  nextAnswer<AnalyticsSummary>(page, '/api/analytics/overview/', test);

/** The six KPI cards' labels, by the answer's field. */
const KPI_LABELS: [keyof SummaryTotals, string][] = [
  ['revenue', 'Revenue'],
  ['checks', 'Checks'],
  ['guests', 'Guests'],
  ['average_check', 'Average check'],
  ['new_guests', 'New guests'],
  ['returning_guests', 'Returning guests'],
];

/** A figure of the answer as the page writes it, digits only (money with its two decimals). */
const digits = (value: number, money: boolean) =>
  (money ? value.toFixed(2) : String(value)).replace(/\D/g, '');

/** Every KPI card shows the answer's figure. */
async function expectKpis(page: Page, totals: SummaryTotals): Promise<void> {
  for (const [key, label] of KPI_LABELS) {
    const money = key === 'revenue' || key === 'average_check';
    await expect.poll(() => kpiDigits(page, label), { message: label }).toBe(digits(totals[key] ?? 0, money));
  }
}

/** The per-location table as rows of [name, revenue digits, checks digits, guests digits]. */
async function locationRows(page: Page): Promise<string[][]> {
  return page
    .getByTestId('location-table')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '');
        return [cells[0]!, ...cells.slice(1, 4).map((cell) => cell.replace(/\D/g, ''))];
      }),
    );
}

/** The over-time chart's data table (hidden until shown, named by the chart's title) holds every period's figures. */
async function expectOverTime(page: Page, answer: AnalyticsSummary, title: string): Promise<void> {
  await expect
    .poll(() => tableColumn(page, title, 1))
    .toEqual(answer.series.map((row) => digits(row.revenue, true)));
  expect(await tableColumn(page, title, 2)).toEqual(answer.series.map((row) => String(row.checks)));
}

/** A change in percent as the page writes it, digits only; blank without one. */
const changeDigits = (change: number | null) => (change === null ? '' : digits(change, true));

/** The answer's locations as `locationRows` reads them from the page. */
const expectedRows = (answer: AnalyticsSummary) =>
  answer.locations.map((row) => [
    row.name,
    digits(row.revenue, true),
    String(row.checks),
    String(row.guests),
  ]);

describe('the Summary and Overview dashboards in a browser', () => {
  const session = signedInSession('/analytics');

  it('Summary shows the API’s figures, and new ones for another range and a location group', async () => {
    const { page } = session.watched;
    // The page the session opened has its figures: the reload's answer is the one awaited.
    await page.locator('[data-figure]').first().waitFor();
    const first = summaryAnswer(page);
    await page.reload();
    const { body: month, query } = await first;
    // The dashboards start on the last 30 days compared with the 30 before, day by day.
    expect(query.get('compare')).toBe('previous');
    expect(month.interval).toBe('day');
    expect(month.totals.checks).toBeGreaterThan(0);
    expect(month.locations.length).toBe(6);
    await expectKpis(page, month.totals);
    await expect.poll(() => locationRows(page)).toEqual(expectedRows(month));
    await expectOverTime(page, month, 'Revenue and checks per day');
    await page.getByText("Each day of the range, in the company's time zone.").waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'summary-overview', 'summary-30-days');

    // The last 90 days: week by week, more checks.
    const longer = summaryAnswer(page, (q) => q.get('from_date') !== month.range.from);
    await page.getByRole('combobox', { name: 'Date range' }).selectOption('last90');
    const { body: quarter } = await longer;
    expect(quarter.interval).toBe('week');
    expect(quarter.totals.checks).toBeGreaterThan(month.totals.checks);
    await expectKpis(page, quarter.totals);
    await expectOverTime(page, quarter, 'Revenue and checks per week');
    await page.getByText('Weeks start on Monday; the first and last week may be partial.').waitFor();
    await expect.poll(() => locationRows(page)).toEqual(expectedRows(quarter));

    // A location group: only its locations, whose figures add up to the group's.
    const grouped = summaryAnswer(page, (q) => q.has('location_group_id'));
    await pickLocation(page, 'West Side');
    const { body: west } = await grouped;
    expect(west.range).toEqual(quarter.range);
    expect(west.locations.length).toBeGreaterThan(0);
    expect(west.locations.length).toBeLessThan(quarter.locations.length);
    const revenueOf = (answer: AnalyticsSummary) =>
      answer.locations.reduce((total, row) => total + Math.round(row.revenue * 100), 0);
    expect(revenueOf(west)).toBe(Math.round(west.totals.revenue * 100));
    expect(west.locations.reduce((total, row) => total + row.checks, 0)).toBe(west.totals.checks);
    await expectKpis(page, west.totals);
    await expect.poll(() => locationRows(page)).toEqual(expectedRows(west));
    await expectOverTime(page, west, 'Revenue and checks per week');
  });

  it('Overview shows each location against the previous period, and drops it with the comparison', async () => {
    const { page } = session.watched;
    const answered = overviewAnswer(page);
    // Through the sidebar, as a user goes: the session's range and group come along.
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    const { body, query } = await answered;
    // The range and the group chosen on the Summary hold here too.
    expect(query.has('location_group_id')).toBe(true);
    expect(body.interval).toBe('week');
    await page.getByRole('heading', { name: 'Overview', level: 2 }).waitFor();
    await expectKpis(page, body.totals);
    await expect.poll(() => locationRows(page)).toEqual(expectedRows(body));
    // The bars' data table: this period and the previous one per location, and the change.
    const byLocation = 'Revenue by location';
    const headers = () => page.getByRole('table', { name: byLocation }).locator('thead th').allTextContents();
    expect(await headers()).toEqual(['Location', 'This period', 'Previous period', 'Revenue change']);
    await page.getByText('This period beside the previous one.').waitFor();
    await expect
      .poll(() => tableColumn(page, byLocation, 1))
      .toEqual(body.locations.map((row) => digits(row.revenue, true)));
    expect(await tableColumn(page, byLocation, 2)).toEqual(
      body.locations.map((row) => digits(row.previous_revenue!, true)),
    );
    expect(await tableColumn(page, byLocation, 3)).toEqual(
      body.locations.map((row) => changeDigits(row.revenue_change)),
    );
    expect(body.locations.some((row) => row.revenue_change !== null)).toBe(true);
    // Each trend line names its figures: the location's revenue per week of the range.
    const first = body.locations[0]!;
    expect(first.trend.length).toBe(body.series.length);
    const trend = page.getByRole('img', { name: `Revenue trend of ${first.name}:` });
    const spoken = (await trend.getAttribute('aria-label'))!.split(': ')[1]!.split(', ');
    expect(spoken.map((value) => value.replace(/\D/g, ''))).toEqual(
      first.trend.map((value) => digits(value, true)),
    );
    // Every KPI card says its change against the previous period.
    expect(await page.locator('[data-change]').count()).toBe(6);
    expect(await page.locator('[data-kpi-change]').count()).toBe(6);
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'summary-overview', 'overview-90-days-west-side');

    // Without the comparison: no previous figures anywhere, the same range's own figures.
    const alone = overviewAnswer(page, (q) => !q.has('compare'));
    await page.getByLabel('Compare with previous period').uncheck({ force: true });
    const { body: single } = await alone;
    expect(single.previous_totals).toBeNull();
    expect(single.totals).toEqual(body.totals);
    expect(
      single.locations.every((row) => row.previous_revenue === null && row.revenue_change === null),
    ).toBe(true);
    // The bars' table and note speak of this period alone: no empty columns of previous figures.
    await expect.poll(headers).toEqual(['Location', 'This period']);
    expect(await tableColumn(page, byLocation, 1)).toEqual(
      single.locations.map((row) => digits(row.revenue, true)),
    );
    await page.getByText("Each location's revenue in this period.").waitFor();
    expect(await page.getByText('This period beside the previous one.').count()).toBe(0);
    await expect.poll(() => page.locator('[data-change]').count()).toBe(0);
    // Nor do the KPI cards speak of a previous period ("— vs previous period").
    expect(await page.locator('[data-kpi-change]').count()).toBe(0);
    expect(await page.getByText('vs previous period').count()).toBe(0);
  });

  it('fits a phone: nothing wider than the screen on either dashboard', async () => {
    await expectDashboardsFitPhone(session.watched.page, ['/analytics', '/aben-overview']);
  });
});
