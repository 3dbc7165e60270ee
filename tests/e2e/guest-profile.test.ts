import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HARBOR_AND_VINE } from '../../server/seed/blueprints.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, screenshots, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The signed-in page's access token, as the app stored it. */
async function accessToken(page: Page): Promise<string> {
  const text = await page.evaluate(() => window.localStorage.getItem('tokenData'));
  return (JSON.parse(text ?? '{}') as { access_token: string }).access_token;
}

/** The text of the value panel's tile labelled `label`. */
function tile(page: Page, label: string) {
  return page
    .getByRole('region', { name: 'Visits and value' })
    .getByText(label, { exact: true })
    .locator('xpath=..');
}

describe('a check posted by a POS connector in the guest’s profile', () => {
  const session = signedInSession('/guest/analytics');

  it('shows a new guest’s visit, spend and item at once, and the next check after a refresh', async () => {
    const { page } = session.watched;
    const base = session.server.url;
    // A connector's company token, made by the signed-in owner as the account screen would.
    const bearer = { authorization: `Bearer ${await accessToken(page)}` };
    const made = await fetch(`${base}/api/accounts/company-tokens/`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'E2E connector' }),
    });
    expect(made.status).toBe(201);
    const connector = { authorization: `Token ${((await made.json()) as { key: string }).key}` };
    const locations = (await (
      await fetch(`${base}/api/customers/locations/`, { headers: connector })
    ).json()) as {
      results: { id: number; name: string }[];
    };
    const location = locations.results[0]!;

    const posId = `E2E-${Date.now()}`;
    const post = (number: string, minutesAgo: number, total: number, lines: object[]) =>
      fetch(`${base}/api/pos/checks/`, {
        method: 'POST',
        headers: { ...connector, 'content-type': 'application/json' },
        body: JSON.stringify({
          checks: [
            {
              location_id: location.id,
              check_number: number,
              opened_at: new Date(Date.now() - (minutesAgo + 45) * 60_000).toISOString(),
              closed_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
              total,
              guest: { pos_id: posId, customer_name: 'Robin Journey', last_four_digits: '4821' },
              lines,
            },
          ],
        }),
      });
    const first = await post(`${posId}-1`, 90, 42.5, [
      { menu_item: 'Journey Smoked Trout', category: 'Mains', quantity: 2, amount: 34 },
      { menu_item: 'Journey Lemonade', category: 'Drinks', quantity: 1, amount: 8.5 },
    ]);
    expect(await first.json()).toEqual({ created: 1, unchanged: 0, rejected: [] });

    const found = (await (
      await fetch(`${base}/api/pos/guests/?q=${posId}`, { headers: connector })
    ).json()) as {
      results: { id: number; hashid: string; pos_id: string }[];
    };
    const guest = found.results[0]!;
    await page.goto(`/guest/profile/${guest.pos_id}/${guest.hashid}/${guest.id}`);

    const panel = page.getByRole('region', { name: 'Visits and value' });
    await panel.waitFor();
    await expect.poll(() => tile(page, 'Visits').innerText()).toContain('1');
    expect(await tile(page, 'Total spend').innerText()).toContain('$42.50');
    expect(await tile(page, 'Average check').innerText()).toContain('$42.50');
    // 90 minutes ago is "yesterday" in the company's zone just after its midnight.
    const localDay = (at: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: HARBOR_AND_VINE.timeZone }).format(at);
    const sameDay = localDay(Date.now() - 90 * 60_000) === localDay(Date.now());
    expect(await tile(page, 'Last visit').innerText()).toContain(sameDay ? 'today' : 'yesterday');
    await panel.getByText('Journey Smoked Trout × 2').waitFor();
    expect(await panel.getByText(location.name, { exact: true }).count()).toBe(1);
    await panel.getByText('Trackable', { exact: true }).waitFor();
    // The recent visits and locations visited tables count the check too.
    expect(await page.getByRole('cell', { name: '$42.50', exact: true }).count()).toBe(2);
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'guest-profile', 'one-check');

    // A second check: the profile reads it on refresh, without leaving the page.
    const second = await post(`${posId}-2`, 5, 19.75, [
      { menu_item: 'Journey Smoked Trout', category: 'Mains', quantity: 1, amount: 19.75 },
    ]);
    expect(await second.json()).toMatchObject({ created: 1 });
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => tile(page, 'Visits').innerText()).toContain('2');
    expect(await tile(page, 'Total spend').innerText()).toContain('$62.25');
    await panel.getByText('Journey Smoked Trout × 3').waitFor();

    await page.setViewportSize(PHONE);
    await panel.getByText('Journey Smoked Trout × 3').waitFor();
    // Polled: the shell's layout settles a frame or two after the viewport shrinks.
    await expect.poll(() => sidewaysOverflow(page)).toBe(0);
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'guest-profile', 'two-checks');
  });
});
