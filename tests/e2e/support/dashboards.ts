import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { PHONE, sidewaysOverflow } from './pages.js';

/** The next GET answer of the dashboard call at `path` whose query passes `test`, parsed, with that query. */
export async function nextAnswer<T>(
  page: Page,
  path: string,
  test: (query: URLSearchParams) => boolean = () => true,
): Promise<{ query: URLSearchParams; body: T }> {
  const response = await page.waitForResponse((candidate) => {
    const url = new URL(candidate.url());
    return url.pathname === path && test(url.searchParams) && candidate.request().method() === 'GET';
  });
  return { query: new URL(response.url()).searchParams, body: (await response.json()) as T };
}

/** The digits of the KPI card with this label (the figure as the page writes it, separators dropped). */
export async function kpiDigits(page: Page, label: string): Promise<string> {
  const card = page.locator('.mantine-Paper-root', { has: page.getByText(label, { exact: true }) }).first();
  await expect.poll(async () => (await card.locator('[data-figure]').count()) > 0).toBe(true);
  return (await card.locator('[data-figure]').innerText()).replace(/\D/g, '');
}

/** Picks a location or a location group (by the start of its name) in the header's picker. */
export async function pickLocation(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: /^Choose the location to show: / }).click();
  const picker = page.getByRole('dialog', { name: 'Choose a location' });
  const start = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await picker.getByRole('button', { name: new RegExp(`^${start}`) }).click();
  await picker.waitFor({ state: 'hidden' });
}

/** The digits of each body row's cell `column` of a chart's data table (visually hidden until shown). */
export async function tableColumn(page: Page, table: string, column: number): Promise<string[]> {
  const rows = page.getByRole('table', { name: table }).locator('tbody tr');
  return rows.evaluateAll<string[], number>(
    (all, index) =>
      all.map((row) => (row.querySelectorAll('td')[index]?.textContent ?? '').replace(/\D/g, '')),
    column,
  );
}

/** Opens each dashboard at a phone's size once its figures and first chart are drawn: nothing wider than the screen. */
export async function expectDashboardsFitPhone(page: Page, paths: readonly string[]): Promise<void> {
  await page.setViewportSize(PHONE);
  for (const path of paths) {
    await page.goto(path);
    await page.locator('[data-figure]').first().waitFor();
    await page.locator('.apexcharts-canvas').first().waitFor();
    expect(await sidewaysOverflow(page), path).toBe(0);
  }
}
