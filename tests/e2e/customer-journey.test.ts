import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { CustomerJourney } from '../../src/schemas/customer-journey.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { kpiDigits, nextAnswer, pickLocation } from './support/dashboards.js';
import { PHONE, screenshots, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

const PATH = '/api/analytics/customer-journey/';

/** The next answer of the call whose query passes `test`, parsed. */
const journeyAnswer = (page: Page, test?: (query: URLSearchParams) => boolean) =>
  nextAnswer<CustomerJourney>(page, PATH, test);
const MATRIX = 'First visit → next visit';

/** A share (0–1) as the KPI card's digits: a percentage with two decimals. */
const percentDigits = (share: number) => (share * 100).toFixed(2).replace(/\D/g, '');

/** The matrix's data table as rows of cell texts (first-visit location, next locations, none, total). */
async function matrixRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('table', { name: MATRIX, exact: true }).locator('tbody tr');
  const cells: string[][] = [];
  for (let index = 0; index < (await rows.count()); index++) {
    cells.push(await rows.nth(index).locator('th, td').allTextContents());
  }
  return cells;
}

/** The rows the matrix's table should hold for an answer, in guests. */
function expectedRows(answer: CustomerJourney): string[][] {
  const firsts = new Set(answer.moves.map((move) => move.from_location_id));
  const nexts = new Set(answer.moves.map((move) => move.to_location_id));
  const columns = answer.locations.filter((location) => firsts.has(location.id) || nexts.has(location.id));
  const count = (from: number, to: number | null) =>
    answer.moves.find((move) => move.from_location_id === from && move.to_location_id === to)?.guests ?? 0;
  return answer.locations
    .filter((location) => firsts.has(location.id))
    .map((location) => {
      const total = answer.moves
        .filter((move) => move.from_location_id === location.id)
        .reduce((sum, move) => sum + move.guests, 0);
      return [
        location.name,
        ...columns.map((column) => String(count(location.id, column.id))),
        String(count(location.id, null)),
        String(total),
      ];
    });
}

/** The KPI cards show the answer's totals. */
async function expectKpis(page: Page, answer: CustomerJourney): Promise<void> {
  await expect
    .poll(() => kpiDigits(page, 'Guests at 2+ locations'))
    .toBe(String(answer.totals.multi_location_guests));
  await expect.poll(() => kpiDigits(page, 'New guests')).toBe(String(answer.totals.new_guests));
  await expect
    .poll(() => kpiDigits(page, 'Share at 2+ locations'))
    .toBe(percentDigits(answer.totals.multi_location_share));
  await expect
    .poll(() => kpiDigits(page, 'Came back after the first visit'))
    .toBe(percentDigits(answer.totals.return_rate));
}

describe('the customer journey in a browser', () => {
  const session = signedInSession('/heatmap');

  it('shows the API’s journey for the demo company, then for another range and a location group', async () => {
    const { page } = session.watched;
    const first = journeyAnswer(page);
    await page.reload();
    const { body: month, query } = await first;
    expect(query.get('compare')).toBe('previous');
    // The demo data has guests at several locations, and new guests who come back to the same one.
    expect(month.company_locations).toBeGreaterThan(1);
    expect(month.totals.multi_location_guests).toBeGreaterThan(0);
    expect(month.moves.some((move) => move.to_location_id === move.from_location_id)).toBe(true);
    await expectKpis(page, month);
    await page.getByRole('heading', { name: MATRIX }).waitFor();
    await expect.poll(() => matrixRows(page)).toEqual(expectedRows(month));
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'customer-journey', 'last-30-days');

    const longer = journeyAnswer(page, (q) => q.get('from_date') !== month.range.from);
    await page.getByRole('combobox', { name: 'Date range' }).selectOption('last90');
    const { body: quarter } = await longer;
    expect(quarter.totals.new_guests).toBeGreaterThan(month.totals.new_guests);
    expect(quarter.totals.multi_location_guests).toBeGreaterThan(month.totals.multi_location_guests);
    await expectKpis(page, quarter);
    await expect.poll(() => matrixRows(page)).toEqual(expectedRows(quarter));
    // Visit numbers 1 to 10+ each with their days until the next visit, as the API answered.
    const gaps = page
      .getByRole('table', { name: 'Days until the next visit', exact: true })
      .locator('tbody tr');
    await expect.poll(() => gaps.count()).toBe(quarter.gaps.length);
    const firstGap = await gaps.first().locator('th, td').allTextContents();
    expect(firstGap[1]!.replace(/\D/g, '')).toBe(String(quarter.gaps[0]!.visits));

    const grouped = journeyAnswer(page, (q) => q.has('location_group_id'));
    await pickLocation(page, 'West Side');
    const { body: west } = await grouped;
    expect(west.range).toEqual(quarter.range);
    expect(west.totals.new_guests).toBeLessThan(quarter.totals.new_guests);
    await expectKpis(page, west);
    await expect.poll(() => matrixRows(page)).toEqual(expectedRows(west));

    // By keyboard: the switch to row percentages, then the table reads shares of each row.
    await page.getByRole('radio', { name: 'Guests', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(async () => (await matrixRows(page))[0]!.slice(1, -1).every((cell) => cell.endsWith('%')))
      .toBe(true);
  });

  it('fits a phone: nothing wider than the screen, the matrix drawn', async () => {
    const { page } = session.watched;
    await page.setViewportSize(PHONE);
    await page.goto('/heatmap');
    await page.locator('[data-figure]').first().waitFor();
    await page.locator('.apexcharts-canvas').first().waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
