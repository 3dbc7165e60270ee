import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { RfmDashboard } from '../../src/schemas/rfm.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The signed-in page's access token, as the app stored it. */
async function accessToken(page: Page): Promise<string> {
  const text = await page.evaluate(() => window.localStorage.getItem('tokenData'));
  return (JSON.parse(text ?? '{}') as { access_token: string }).access_token;
}

/**
 * Loads the dashboard until its scores are computed (the demo's first CLV refresh scores them once its history
 * has loaded) and answers what the API sent the page.
 */
async function computedDashboard(page: Page): Promise<RfmDashboard> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const answered = page.waitForResponse((response) =>
      new URL(response.url()).pathname.startsWith('/api/benchmark/rfm-dashboard/'),
    );
    await page.reload();
    const body = (await (await answered).json()) as RfmDashboard;
    if (body.computed_at) return body;
    await page.waitForTimeout(3000);
  }
  throw new Error('the RFM scores were not computed');
}

describe('the RFM dashboard in a browser', () => {
  const session = signedInSession('/rfm-dashboard');

  it('shows the API’s grid, opens a cell’s guests and saves the cell as a segment of the same guests', async () => {
    const { page } = session.watched;
    const dashboard = await computedDashboard(page);
    await page.getByTestId('rfm-computed-at').waitFor();

    // Every square of the heatmap and every row of the table says what the API counted.
    for (const square of dashboard.grid) {
      const button = page.getByTestId(`rfm-square-${square.r}-${square.f}`);
      expect(await button.getAttribute('data-guests')).toBe(String(square.guests));
      expect((await button.innerText()).replace(/\D/g, '')).toBe(String(square.guests));
    }
    for (const cell of dashboard.cells) {
      const shown = await page.getByTestId(`rfm-cell-guests-${cell.cell}`).innerText();
      expect(shown.replace(/\D/g, ''), cell.cell).toBe(String(cell.guests));
    }
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // The busiest cell, opened from the keyboard on one of its squares: its guests, a page at a time.
    const cell = dashboard.cells.reduce((best, next) => (next.guests > best.guests ? next : best));
    const square = dashboard.grid.find((candidate) => candidate.cell === cell.cell)!;
    await page.getByTestId(`rfm-square-${square.r}-${square.f}`).focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('rfm-cell-guests').waitFor();
    expect((await drawer.getByTestId('rfm-cell-count').innerText()).replace(/\D/g, '')).toBe(
      String(cell.guests),
    );
    const rows = drawer.getByTestId('rfm-cell-guests').locator('tbody tr');
    expect(await rows.count()).toBe(Math.min(cell.guests, 25));
    if (cell.guests > 25) {
      await drawer.getByRole('button', { name: 'Show more' }).click();
      await expect.poll(() => rows.count()).toBe(Math.min(cell.guests, 50));
    }
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // A guest's name opens their profile; back on the dashboard the cell opens again.
    await rows.first().getByRole('button').click();
    await page.waitForURL(/\/guest\/profile\//);
    await page.goBack();
    await page.waitForURL(/\/rfm-dashboard$/);
    await page.getByTestId(`rfm-square-${square.r}-${square.f}`).click();
    await drawer.getByTestId('rfm-cell-guests').waitFor();

    // Saved as a segment: the segment list opens on it, and its preview counts the cell's guests.
    const name = `RFM journey ${Date.now()}`;
    await drawer.getByLabel('Segment name').fill(name);
    await drawer.getByRole('button', { name: 'Save as segment' }).click();
    await page.waitForURL(/\/segments\?segment=\d+$/);
    const id = Number(new URL(page.url()).searchParams.get('segment'));
    const bearer = { authorization: `Bearer ${await accessToken(page)}` };
    const segment = (await (
      await fetch(`${session.server.url}/api/campaigns/segments/${id}/`, { headers: bearer })
    ).json()) as {
      name: string;
      segment_groups: { segment_rules: object[] }[];
      segmentcache: { all_customers: number };
    };
    expect(segment.name).toBe(name);
    expect(segment.segmentcache.all_customers).toBe(cell.guests);
    const preview = await fetch(`${session.server.url}/api/campaigns/segments/?preview=1`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({
        segment_groups: segment.segment_groups.map(({ segment_rules }) => ({ segment_rules })),
      }),
    });
    expect(((await preview.json()) as { all_customers: number }).all_customers).toBe(cell.guests);
  });

  it('fits a phone: nothing wider than the screen, the heatmap and the table in reach', async () => {
    const { page } = session.watched;
    await page.setViewportSize(PHONE);
    await page.goto('/rfm-dashboard');
    await page.getByTestId('rfm-square-5-5').waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.getByTestId('rfm-cells').scrollIntoViewIfNeeded();
    await page.getByTestId('rfm-square-1-1').click();
    await page.getByRole('dialog').getByTestId('rfm-cell-count').waitFor();
    expect(await sidewaysOverflow(page)).toBe(0);
  });
});
