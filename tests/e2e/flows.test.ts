import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, screenshots, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** Drags a palette entry onto the canvas at a point of the pane (HTML drag and drop, as a mouse does it). */
async function dropStep(page: Page, type: string, at: { x: number; y: number }): Promise<void> {
  await page
    .locator(`[data-palette="${type}"]`)
    .dragTo(page.locator('.react-flow__pane'), { targetPosition: at });
}

/** The canvas's nodes (key and type) and links, as drawn. */
async function drawnGraph(page: Page): Promise<{ nodes: string[]; edges: string[] }> {
  const nodes = await page
    .locator('[data-node-key]')
    .evaluateAll((all) =>
      all.map((node) => `${node.getAttribute('data-node-key')}:${node.getAttribute('data-node-type')}`),
    );
  const edges = await page
    .locator('.react-flow__edge')
    .evaluateAll((all) =>
      all.map((edge) => edge.getAttribute('data-id') ?? edge.getAttribute('aria-label') ?? ''),
    );
  return { nodes: nodes.sort(), edges: edges.sort() };
}

describe('flows in a browser', () => {
  const session = signedInSession('/flows');

  it('builds a flow by dragging and adding steps, sets them, saves, reloads the same graph and publishes it', async () => {
    const { page, errors } = session.watched;
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    // The demo's welcome flow is listed with its state.
    await page.getByRole('cell', { name: 'Welcome new guests', exact: true }).waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'flows', 'list');

    await page.getByRole('button', { name: 'New flow' }).first().click();
    await page.getByRole('dialog').getByLabel('Name').fill('Journey welcome');
    await page.getByRole('button', { name: 'Create and open' }).click();
    await page.waitForURL((url) => /^\/flows\/builder\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Journey welcome' }).waitFor();
    await expect
      .poll(() => page.locator('[data-problem-count]').getAttribute('data-problem-count'))
      .toBe('1');

    await dropStep(page, 'first_visit', { x: 120, y: 40 });
    await page.locator('[data-node-key="n1"]').waitFor();
    // A click adds below the selected step (the trigger just dropped), linked from it.
    await page.locator('[data-palette="wait"]').click();
    await page.locator('[data-node-key="n2"]').waitFor();
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next']);
    // With the delay selected, the email goes below it, linked.
    await page.locator('[data-palette="send_email"]').click();
    await page.locator('[data-node-key="n3"]').waitFor();
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next', 'n2:next']);

    // The email has no template yet: its problem shows until one is chosen and a subject written.
    const email = page.locator('[data-node-key="n3"]');
    await expect.poll(() => email.getAttribute('data-problems')).toBe('missing_template missing_subject');
    await email.click();
    const panel = page.getByRole('region', { name: 'Step settings' });
    await panel.getByLabel('Template').click();
    await page.getByRole('listbox').getByRole('option').first().click();
    await panel.getByLabel('Subject').fill('Welcome to Harbor & Vine');
    await expect.poll(() => email.getAttribute('data-problems')).toBe('');
    await expect(email.locator('[data-problem]').count()).resolves.toBe(0);

    // The delay: three days instead of one.
    await page.locator('[data-node-key="n2"]').click();
    await panel.getByLabel('How long').fill('3');
    await page.locator('[data-node-key="n2"]').getByText('Wait 3 days').waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'flows', 'builder');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    const before = await drawnGraph(page);
    expect(before.nodes).toEqual(['n1:first_visit', 'n2:wait', 'n3:send_email']);

    await page.reload();
    await page.locator('[data-node-key="n3"]').waitFor();
    await expect.poll(async () => (await drawnGraph(page)).edges.length).toBe(2);
    expect(await drawnGraph(page)).toEqual(before);
    await page.locator('[data-node-key="n2"]').getByText('Wait 3 days').waitFor();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Live', { exact: true }).first().waitFor();
    await page.getByText('Version 1').waitFor();

    await page.setViewportSize(PHONE);
    expect(await sidewaysOverflow(page)).toBe(0);
    // The per-node counts come with the engine; until then their call answers 404, and the canvas shows none.
    expect(errors.filter((error) => !error.includes('/node-counts/'))).toEqual([]);
  });
});
