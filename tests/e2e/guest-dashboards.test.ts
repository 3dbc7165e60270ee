import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Demographics } from '../../src/schemas/demographics-dashboard.js';
import type { GuestAnalytics } from '../../src/schemas/guest-analytics-dashboard.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { expectDashboardsFitPhone, kpiDigits, nextAnswer, pickLocation } from './support/dashboards.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

describe('the guest dashboards in a browser', () => {
  const session = signedInSession('/guest/analytics');

  it('shows the API’s guest figures, and new ones for another range and a location group', async () => {
    const { page } = session.watched;
    const first = nextAnswer<GuestAnalytics>(page, '/api/analytics/guests/');
    await page.reload();
    const { body: month, query } = await first;
    // The dashboards start on the last 30 days compared with the 30 before.
    expect(query.get('compare')).toBe('previous');
    expect(month.totals.guests).toBeGreaterThan(0);
    expect(await kpiDigits(page, 'Guests')).toBe(String(month.totals.guests));
    expect(await kpiDigits(page, 'New guests')).toBe(String(month.totals.new_guests));
    await page.getByRole('heading', { name: 'Cohort retention' }).waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'guest-dashboards', 'guest-analytics-30-days');

    const longer = nextAnswer<GuestAnalytics>(
      page,
      '/api/analytics/guests/',
      (q) => q.get('from_date') !== month.range.from,
    );
    await page.getByRole('combobox', { name: 'Date range' }).selectOption('last90');
    const { body: quarter } = await longer;
    expect(quarter.period).toBe('week');
    await expect.poll(() => kpiDigits(page, 'Guests')).toBe(String(quarter.totals.guests));
    expect(quarter.totals.guests).toBeGreaterThan(month.totals.guests);

    const grouped = nextAnswer<GuestAnalytics>(page, '/api/analytics/guests/', (q) =>
      q.has('location_group_id'),
    );
    await pickLocation(page, 'West Side');
    const { body: west } = await grouped;
    expect(west.range).toEqual(quarter.range);
    expect(west.totals.guests).toBeLessThan(quarter.totals.guests);
    await expect.poll(() => kpiDigits(page, 'Guests')).toBe(String(west.totals.guests));
    await expect.poll(() => kpiDigits(page, 'Returning guests')).toBe(String(west.totals.returning_guests));
  });

  it('shows the API’s demographics for the same group, in all its charts', async () => {
    const { page } = session.watched;
    const answered = nextAnswer<Demographics>(page, '/api/analytics/demographics/');
    await page.goto('/demographics');
    const { body, query } = await answered;
    // The group chosen on the other dashboard holds after a new page load; the range starts again on 30 days.
    expect(query.has('location_group_id')).toBe(true);
    expect(body.range.to).toBe(query.get('to_date'));
    expect(Date.parse(body.range.to) - Date.parse(body.range.from)).toBe(29 * 86_400_000);
    expect(body.share.people).toBeGreaterThan(0);
    expect(await kpiDigits(page, 'People')).toBe(String(body.share.people));
    expect(await kpiDigits(page, 'No birthday on file')).toBe(String(body.no_birthday));
    // The age table (visually hidden until shown) holds the API's counts per band.
    const ages = page.getByRole('table', { name: 'Age' });
    for (const [index, band] of body.age_bands.entries()) {
      const cells = ages.locator('tbody tr').nth(index).locator('td');
      expect((await cells.nth(1).textContent())?.replace(/\D/g, ''), band.band).toBe(String(band.people));
    }
    // The chart's CSV holds the same counts, one line per band after the headers, marked UTF-8 for spreadsheets.
    const ageCard = page.locator('.mantine-Paper-root', {
      has: page.getByRole('heading', { name: 'Age', exact: true }),
    });
    const download = page.waitForEvent('download');
    await ageCard.getByRole('button', { name: 'Download CSV' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await readFile(await saved.path(), 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual(
      body.age_bands.map((band) => String(band.people)),
    );
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'guest-dashboards', 'demographics-30-days-west-side');

    const everywhere = nextAnswer<Demographics>(
      page,
      '/api/analytics/demographics/',
      (q) => !q.has('location_group_id'),
    );
    await pickLocation(page, 'All locations');
    const { body: all } = await everywhere;
    expect(all.share.people).toBeGreaterThan(body.share.people);
    await expect.poll(() => kpiDigits(page, 'People')).toBe(String(all.share.people));
  });

  it('fits a phone: nothing wider than the screen on either dashboard', async () => {
    await expectDashboardsFitPhone(session.watched.page, ['/guest/analytics', '/demographics']);
  });
});
