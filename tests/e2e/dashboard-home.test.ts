import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../src/format/index.js';
import type { CurrentUser } from '../../src/schemas/accounts.js';
import type { ChartData, HomeDashboard } from '../../src/schemas/home-dashboard.js';
import { accessToken } from './support/api.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

const KPI_KEYS = ['revenue', 'checks', 'guests', 'average_check', 'new_guests', 'returning_guests'] as const;

/**
 * The next whole answer of the recommendations call the page receives: one whose audiences are all counted (the
 * screen asks again while some are being counted in the background).
 */
function nextAnswer(page: Page): Promise<HomeDashboard> {
  return page
    .waitForResponse(
      async (response) =>
        new URL(response.url()).pathname === '/api/analytics/recommendations/' &&
        ((await response.json()) as HomeDashboard).audiences_counting === false,
    )
    .then(async (response) => (await response.json()) as HomeDashboard);
}

/** What a KPI card shows, as digits only (so `$8,563.82` reads 856382 and `95` reads 95). */
async function shownDigits(page: Page, key: string): Promise<string> {
  return (await page.locator(`[data-kpi="${key}"] [data-figure]`).innerText()).replace(/\D/g, '');
}

/** The API's figure written as digits, as the card writes it (currency with two decimals). */
function digitsOf(value: number | null, key: string): string {
  if (value === null) return '';
  return key === 'revenue' || key === 'average_check' ? value.toFixed(2).replace(/\D/g, '') : String(value);
}

describe('the home dashboard in a browser', () => {
  const session = signedInSession('/dashboard');

  it('shows the API’s KPIs, follows a range change and opens a recommendation as its segment', async () => {
    const { page } = session.watched;
    const first = nextAnswer(page);
    await page.reload();
    const month = await first;
    await page.locator('[data-recommendation]').first().waitFor();
    for (const key of KPI_KEYS) {
      await expect.poll(() => shownDigits(page, key)).toBe(digitsOf(month.kpis[key], key));
    }
    expect(month.kpis.checks).toBeGreaterThan(0);
    // When the audiences were counted: kept for the day, said under the list's title in the user's own zone.
    expect(Date.parse(month.audiences_counted_at!)).toBeLessThanOrEqual(Date.now());
    const user = (await (
      await fetch(`${session.server.url}/api/accounts/verify/`, {
        headers: { authorization: `Bearer ${await accessToken(page)}` },
      })
    ).json()) as CurrentUser;
    const when = formatDateTime(month.audiences_counted_at, 'en', user.settings.time_zone);
    expect(when).not.toBe('');
    await expect
      .poll(() => page.getByTestId('recommendations-counted-at').innerText())
      .toContain(`Audiences counted ${when}.`);
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // The last 7 days: fewer checks, and the cards say what the API answered for them.
    const second = nextAnswer(page);
    await page.getByRole('combobox', { name: 'Date range' }).selectOption('last7');
    const week = await second;
    expect(week.range).not.toEqual(month.range);
    expect(week.kpis.checks).toBeLessThan(month.kpis.checks);
    for (const key of KPI_KEYS) {
      await expect.poll(() => shownDigits(page, key)).toBe(digitsOf(week.kpis[key], key));
    }

    // The first recommendation's click saves its segment and opens it; its size is the audience shown.
    const top = week.recommendations[0]!;
    const card = page.locator('[data-recommendation]').first();
    // Polled: the answer may land a moment before the screen draws it.
    await expect.poll(() => card.getAttribute('data-recommendation')).toBe(top.kind);
    await expect
      .poll(() => card.locator('[data-audience]').getAttribute('data-audience'))
      .toBe(String(top.audience));
    await expect.poll(() => page.getByTestId('recommendations-counting').count()).toBe(0);
    await card.getByRole('button').click();
    await page.waitForURL(/\/segments\?segment=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('segment'));
    const bearer = { authorization: `Bearer ${await accessToken(page)}` };
    const segment = (await (
      await fetch(`${session.server.url}/api/campaigns/segments/${id}/`, { headers: bearer })
    ).json()) as { segment_groups: { segment_rules: object[] }[]; segmentcache: { all_customers: number } };
    expect(segment.segmentcache.all_customers).toBe(top.audience);
    expect(segment.segment_groups.map((group) => group.segment_rules)).toEqual(
      top.segment.segment_groups.map((group) => group.segment_rules),
    );
  });

  it('says when audiences are still being counted, and shows the recommendations once they are', async () => {
    const { page } = session.watched;
    // The server's first answer as a large company's first ask of the day gets it: no audience counted yet.
    let held = 0;
    await page.route('**/api/analytics/recommendations/**', async (route) => {
      const response = await route.fetch();
      if (held > 0) return route.fulfill({ response });
      held += 1;
      const answer = (await response.json()) as HomeDashboard;
      await route.fulfill({
        response,
        json: { ...answer, recommendations: [], audiences_counted_at: null, audiences_counting: true },
      });
    });
    try {
      const whole = nextAnswer(page);
      await page.goto('/dashboard');
      await page.getByTestId('recommendations-counting').waitFor();
      expect(
        await page.getByRole('status').filter({ hasText: 'Counting each recommendation’s guests' }).count(),
      ).toBe(1);
      expect(await page.getByTestId('recommendations-empty').count()).toBe(0);
      expect(describeViolations(await seriousA11yViolations(page))).toBe('');
      // Asked again after the pause: the whole answer replaces the line with the ranked list.
      const answer = await whole;
      await page.locator('[data-recommendation]').first().waitFor();
      expect(await page.getByTestId('recommendations-counting').count()).toBe(0);
      expect(await page.locator('[data-recommendation]').count()).toBe(answer.recommendations.length);
    } finally {
      await page.unroute('**/api/analytics/recommendations/**');
    }
  });

  it('draws the revenue line on its own axis with the comparison off', async () => {
    const { page } = session.watched;
    await page.goto('/dashboard');
    await page.locator('[data-recommendation]').first().waitFor();
    const alone = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/analytics/chart-data/' &&
        !new URL(response.url()).searchParams.has('compare'),
    );
    await page.getByLabel('Compare with previous period').uncheck({ force: true });
    const chart = (await (await alone).json()) as ChartData;
    const revenue = chart.charts.find((series) => series.name === 'revenue')!.data.map((point) => point.y);
    const highest = Math.max(...revenue);
    expect(highest).toBeGreaterThan(0);
    // The revenue axis reaches the range's best day (with an axis too many it read $0–$5 and the line left it).
    const top = async () => {
      const texts = await page.locator('.apexcharts-yaxis-label').allTextContents();
      const dollars = texts
        // A label's text is written twice (its title too): the first figure is the label.
        .map((text) => /^\$([\d,]+(?:\.\d+)?)/.exec(text.trim())?.[1])
        .filter((text): text is string => text !== undefined)
        .map((text) => Number(text.replace(/,/g, '')));
      return dollars.length === 0 ? 0 : Math.max(...dollars);
    };
    await expect.poll(top).toBeGreaterThanOrEqual(highest);
    await page.getByLabel('Compare with previous period').check({ force: true });
  });

  it('fits a phone: nothing wider than the screen', async () => {
    const { page } = session.watched;
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard');
    await page.locator('[data-recommendation]').first().waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
  });
});
