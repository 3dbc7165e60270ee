import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Basket, BasketItemGuests } from '../../src/schemas/basket-analytics.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The signed-in page's access token, as the app stored it. */
async function accessToken(page: Page): Promise<string> {
  const text = await page.evaluate(() => window.localStorage.getItem('tokenData'));
  return (JSON.parse(text ?? '{}') as { access_token: string }).access_token;
}

/** The next basket answer whose query has every one of `params`. */
function basketAnswer(page: Page, params: Record<string, string> = {}): Promise<Response> {
  return page.waitForResponse((response) => {
    const url = new URL(response.url());
    return (
      url.pathname === '/api/analytics/basket/' &&
      response.status() === 200 &&
      Object.entries(params).every(([name, value]) => url.searchParams.get(name) === value)
    );
  });
}

/** The digits a KPI card shows. */
const kpiDigits = (page: Page, key: string) =>
  page.getByTestId(`basket-kpi-${key}`).locator('[data-figure]').innerText();

describe('the basket dashboard in a browser', () => {
  const session = signedInSession('/basket-analytics');

  it('shows the API’s figures, follows the range and minimum support, and makes a "guests who ordered X" segment', async () => {
    const { page } = session.watched;
    const first = basketAnswer(page);
    const firstCount = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/analytics/basket/item-guests/' &&
        response.status() === 200,
    );
    await page.reload();
    let basket = (await (await first).json()) as Basket;
    await expect.poll(() => kpiDigits(page, 'checks')).toBe(basket.totals.checks.toLocaleString('en-US'));
    expect(basket.totals.checks).toBeGreaterThan(0);
    // Every location without a day part: summed from the item presence rows, as current as the checks, so the
    // card says no time.
    const opening = (await (await firstCount).json()) as BasketItemGuests;
    expect(opening.menu_item_id).toBe(basket.items[0]!.menu_item_id);
    expect(opening.counted_at).toBeNull();
    await expect
      .poll(async () => (await page.getByTestId('basket-segment-count').innerText()).replace(/\D/g, ''))
      .toBe(String(opening.guests));
    expect(await page.getByTestId('basket-segment-counted-at').count()).toBe(0);
    // A day part is summed from the item presence rows too (migration 0057): as current as the checks, no time said.
    const dinnerCount = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return (
        url.pathname === '/api/analytics/basket/item-guests/' &&
        response.status() === 200 &&
        url.searchParams.get('day_part') === 'dinner'
      );
    });
    const dinnerBasket = basketAnswer(page, { day_part: 'dinner' });
    await page.getByRole('combobox', { name: 'Day part' }).click();
    await page.getByRole('option', { name: 'Dinner', exact: true }).click();
    const dinner = (await (await dinnerCount).json()) as BasketItemGuests;
    expect(dinner.counted_at).toBeNull();
    expect(dinner.guests).toBeGreaterThan(0);
    expect(dinner.guests).toBeLessThanOrEqual(opening.guests);
    await expect
      .poll(async () => (await page.getByTestId('basket-segment-count').innerText()).replace(/\D/g, ''))
      .toBe(String(dinner.guests));
    expect(await page.getByTestId('basket-segment-counted-at').count()).toBe(0);
    // The KPI cards are the dinner basket's, its guests among them.
    const atDinner = (await (await dinnerBasket).json()) as Basket;
    expect(atDinner.totals.guests).toBeLessThan(basket.totals.guests);
    await expect.poll(() => kpiDigits(page, 'guests')).toBe(atDinner.totals.guests.toLocaleString('en-US'));
    const allDay = basketAnswer(page);
    await page.getByRole('combobox', { name: 'Day part' }).click();
    await page.getByRole('option', { name: 'All day', exact: true }).click();
    await allDay;

    // This month runs to today, so its guests can become a segment.
    const monthStart = `${new Date().toISOString().slice(0, 7)}-01`;
    const thisMonth = basketAnswer(page, { from_date: monthStart });
    await page.getByRole('combobox', { name: 'Date range' }).selectOption('thisMonth');
    basket = (await (await thisMonth).json()) as Basket;
    expect(basket.range.from <= monthStart).toBe(true);
    await expect.poll(() => kpiDigits(page, 'checks')).toBe(basket.totals.checks.toLocaleString('en-US'));
    await expect.poll(() => kpiDigits(page, 'units')).toBe(basket.totals.units.toLocaleString('en-US'));

    // A higher minimum support: fewer pairs, each listed as the API answered.
    const stricter = basketAnswer(page, { min_support: '0.2' });
    const support = page.getByRole('textbox', { name: /Minimum support/ });
    await support.fill('0.2');
    basket = (await (await stricter).json()) as Basket;
    // The 30 highest by lift are listed.
    await expect.poll(() => page.getByTestId('basket-pair').count()).toBe(Math.min(30, basket.pairs.length));
    for (const pair of basket.pairs) expect(pair.support).toBeGreaterThanOrEqual(0.2);
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // "Guests who ordered X": the item picked is counted, the count shown is the API's, and the segment made
    // holds exactly those guests.
    expect(basket.segment.reason).toBe('ok');
    const item = basket.items[1]!;
    const counted = page.waitForResponse((response) => {
      const url = new URL(response.url());
      return (
        url.pathname === '/api/analytics/basket/item-guests/' &&
        response.status() === 200 &&
        url.searchParams.get('menu_item_id') === String(item.menu_item_id) &&
        url.searchParams.get('from_date') === basket.range.from
      );
    });
    await page.getByRole('combobox', { name: 'Item', exact: true }).click();
    await page.getByRole('option', { name: item.name, exact: true }).click();
    const { guests, counted_at: countedAt } = (await (await counted).json()) as BasketItemGuests;
    expect(guests).toBeGreaterThan(0);
    await expect
      .poll(async () => (await page.getByTestId('basket-segment-count').innerText()).replace(/\D/g, ''))
      .toBe(String(guests));
    // This month reaches today: counted at the ask, so no time is said.
    expect(countedAt).toBeNull();
    expect(await page.getByTestId('basket-segment-counted-at').count()).toBe(0);
    await page.getByRole('button', { name: 'Make segment' }).click();
    await page.waitForURL(/\/segments\?segment=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('segment'));
    const bearer = { authorization: `Bearer ${await accessToken(page)}` };
    const segment = (await (
      await fetch(`${session.server.url}/api/campaigns/segments/${id}/`, { headers: bearer })
    ).json()) as { name: string; segmentcache: { all_customers: number } };
    expect(segment.name).toBe(`Guests who ordered ${item.name}`);
    expect(segment.segmentcache.all_customers).toBe(guests);
  });

  it('fits a phone: nothing wider than the screen', async () => {
    const { page } = session.watched;
    await page.setViewportSize(PHONE);
    const answered = basketAnswer(page);
    await page.goto('/basket-analytics');
    await answered;
    await page.getByTestId('basket-kpi-checks').locator('[data-figure]').waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
  });
});
