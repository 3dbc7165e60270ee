import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACHINE_LIST } from '../../src/machines/registry.js';
import { stateText } from '../../src/replay/replay.js';
import { machineChart } from '../../src/visualiser/graph.js';
import { LEGIBLE_ZOOM } from '../../src/visualiser/viewport.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

const run = promisify(execFile);

/** The demo data's platform staff member (see README, Demo sign-in). */
const STAFF = { name: 'Sasha Support', email: 'support@regulars.example', password: 'regulars-demo' };

/** Shows a machine's chart and waits until every one of its states is drawn. */
async function showMachine(page: Page, id: string): Promise<void> {
  await page.getByRole('button', { name: `Show the statechart of ${id}`, exact: true }).click();
  await page.getByRole('heading', { name: `Statechart of ${id}`, exact: true }).waitFor();
  const expected = machineChart(MACHINE_LIST.find((machine) => machine.id === id)!).nodes.length;
  await page.waitForFunction(
    ({ prefix, count }) =>
      document.querySelectorAll(`[data-testid="statechart"] .react-flow__node [data-state-id^="${prefix}"]`)
        .length === count,
    { prefix: id, count: expected },
    { timeout: 20_000 },
  );
}

/** The followed live actor's id and its state as text, as the screen shows them. */
async function liveState(page: Page): Promise<{ actor: string; state: string }> {
  return {
    actor: (await page.getByTestId('live-actor-id').textContent()) ?? '',
    state: (await page.getByTestId('live-state').textContent()) ?? '',
  };
}

/**
 * The chart opens legible (zoom at least LEGIBLE_ZOOM), its root's left and top edges inside the panel
 * (not cut off), with zoom controls and a minimap.
 */
async function expectOpenedLegible(page: Page, id: string): Promise<void> {
  const chart = page.getByTestId('statechart');
  const transform = (await chart.locator('.react-flow__viewport').getAttribute('style')) ?? '';
  const zoom = Number(/scale\(([\d.]+)\)/.exec(transform)?.[1]);
  expect(zoom, transform).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
  const edges = await page.evaluate((machine) => {
    const panel = document.querySelector('[data-testid="statechart-panel"]')!.getBoundingClientRect();
    const root = document.querySelector(`[data-state-id="${machine}"]`)!.getBoundingClientRect();
    return { left: root.left - panel.left, top: root.top - panel.top };
  }, id);
  expect(edges.left).toBeGreaterThanOrEqual(0);
  expect(edges.top).toBeGreaterThanOrEqual(0);
  await chart.getByRole('button', { name: 'Zoom in' }).waitFor();
  await chart.locator('.react-flow__minimap').waitFor();
}

describe('the machine visualiser', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;
  let workDir: string;

  beforeAll(async () => {
    [server, browser, workDir] = await Promise.all([
      startServer(),
      launchBrowser(),
      mkdtemp(join(tmpdir(), 'regulars-machines-')),
    ]);
    watched = await openPage(browser, server.url);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('lists every machine, draws each chart and follows the live navigation actor', async () => {
    const { page } = watched;
    await page.goto('/support/machines');
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('Email').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/support\/machines$/);
    await page.getByRole('heading', { name: 'State machines', level: 1 }).waitFor();

    const listed = await page
      .locator('tr[data-machine-id]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-machine-id')));
    expect(listed).toEqual(MACHINE_LIST.map((machine) => machine.id));
    for (const machine of MACHINE_LIST) {
      await showMachine(page, machine.id);
      // Each chart either lists its paths with a count or says why they were not computed.
      await page.locator('[data-testid="path-count"], [data-testid="paths-not-computed"]').first().waitFor();
    }

    await showMachine(page, 'navigation');
    const { actor, state } = await liveState(page);
    expect(actor).toMatch(/^navigation#\d+$/);
    expect(state).toBe('showing');
    const highlighted = await page
      .locator('[data-testid="statechart"] [data-active="true"]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-state-id')).sort());
    const parts = state.split('.');
    expect(highlighted).toEqual(
      ['navigation', ...parts.map((_, index) => `navigation.${parts.slice(0, index + 1).join('.')}`)].sort(),
    );
    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/e2e-machines.png', fullPage: true });

    await showMachine(page, 'auth');
    await page.getByTestId('statechart').screenshot({ path: 'test-results/e2e-machines-auth.png' });
    await expectOpenedLegible(page, 'auth');
    // A small chart is fitted whole, in a panel no taller than it needs (no empty band).
    await showMachine(page, 'demoStatus');
    await expectOpenedLegible(page, 'demoStatus');
    const demo = await page.evaluate(() => {
      const panel = document.querySelector('[data-testid="statechart-panel"]')!.getBoundingClientRect();
      const root = document.querySelector('[data-state-id="demoStatus"]')!.getBoundingClientRect();
      return { panelBottom: panel.bottom, rootBottom: root.bottom, panelTop: panel.top, rootTop: root.top };
    });
    expect(demo.rootTop - demo.panelTop).toBeLessThan(40);
    expect(demo.panelBottom - demo.rootBottom).toBeLessThan(40);
    const violations = await seriousA11yViolations(page);
    expect(describeViolations(violations)).toBe('');

    // On a phone the page does not scroll sideways: the list scrolls in itself, the chart pans and zooms.
    await page.setViewportSize({ width: 390, height: 844 });
    await showMachine(page, 'auth');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: 'test-results/e2e-machines-phone.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    expect(watched.errors).toEqual([]);
  });

  it('shows the same final states as the exported log replays to in the terminal', async () => {
    const { page } = watched;
    await page.getByRole('button', { name: new RegExp(`Account menu for ${STAFF.name}`) }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download event log' }).click(),
    ]);
    const file = join(workDir, 'event-log.jsonl');
    await download.saveAs(file);
    await page.keyboard.press('Escape');

    const shown: Record<string, string> = {};
    for (const id of ['auth', 'navigation']) {
      await showMachine(page, id);
      const { actor, state } = await liveState(page);
      expect(actor).toMatch(new RegExp(`^${id}#\\d+$`));
      shown[actor] = state;
    }

    const { stdout } = await run('npx', ['tsx', 'scripts/replay.ts', file, '--json'], {
      cwd: process.cwd(),
      maxBuffer: 64 * 1024 * 1024,
    });
    const finals = new Map(
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { final?: boolean; actor: string; value: unknown })
        .filter((line) => line.final)
        .map((line) => [line.actor, stateText(line.value)]),
    );
    for (const [actor, state] of Object.entries(shown)) expect(finals.get(actor), actor).toBe(state);

    // A log sent to support is listed with who sent it: name and email, not a user number.
    await page.getByRole('button', { name: STAFF.name }).click();
    await page.getByRole('menuitem', { name: 'Send to support' }).click();
    await page
      .getByText(/Sent to support/)
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    await page.goto('/support/replay');
    const sender = page.getByTestId('log-sender').first();
    await sender.waitFor();
    expect(await sender.getByText(STAFF.name, { exact: true }).count()).toBe(1);
    expect(await sender.getByText(STAFF.email, { exact: true }).count()).toBe(1);
    expect(watched.errors).toEqual([]);
  });
});
