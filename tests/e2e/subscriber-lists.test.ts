import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

/** The demo owner (see README, Demo sign-in). */
const OWNER = { email: 'owner@harborvine.example', password: 'regulars-demo' };

describe('subscriber lists in a browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    watched = await openPage(browser, server.url);
    const { page } = watched;
    await page.goto('/subscriber-list');
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/subscriber-list$/);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('creates a list, adds a member with the picker, takes them off, renames and deletes the list; axe finds no serious fault', async () => {
    const { page } = watched;
    await page.getByRole('heading', { name: 'Subscriber lists' }).waitFor();
    await page.getByRole('row').nth(1).waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // Create: the kit's add dialog, its name checked before any call.
    await page.getByRole('button', { name: 'Create list' }).click();
    const create = page.getByRole('dialog', { name: 'Create a list' });
    await create.getByRole('button', { name: 'Create list' }).click();
    await create.getByText('List name is required').waitFor();
    await create.getByLabel('List name').fill('Journey regulars');
    await create.getByRole('button', { name: 'Create list' }).click();
    await page.getByText('The list is created.').waitFor();
    const row = page.getByRole('row', { name: /Journey regulars/ });
    await expect.poll(() => row.getByRole('cell').nth(1).innerText()).toBe('0');

    // Its members: none yet; the picker searches subscribers and adds the ticked one.
    await page.getByRole('button', { name: 'Members of Journey regulars' }).click();
    await page.getByRole('heading', { name: 'Journey regulars' }).waitFor();
    await page.getByText('This list has no members yet.').waitFor();
    await page.getByRole('button', { name: 'Add members' }).click();
    const picker = page.getByRole('dialog', { name: 'Add subscribers to Journey regulars' });
    const first = picker.getByRole('checkbox').first();
    await first.waitFor();
    const email = (await first.getAttribute('aria-label'))!.replace(/^Choose /, '');
    await picker.getByLabel('Search subscribers').fill(email);
    const pick = picker.getByRole('checkbox', { name: `Choose ${email}` });
    await expect.poll(() => picker.getByRole('checkbox').count()).toBe(1);
    await pick.check();
    await picker.getByText('Chosen: 1').waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await picker.getByRole('button', { name: 'Add to list' }).click();
    await page.getByText('The subscribers are added to the list.').waitFor();
    await page.getByRole('cell', { name: email, exact: true }).waitFor();
    await page.getByText('Members: 1').waitFor();
    // Checked once the picker has faded out (axe reads the fading dialog's colours otherwise).
    await picker.waitFor({ state: 'detached' });
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // Back to the lists: they reload, so the count shows the new member.
    await page.getByRole('button', { name: '← All lists' }).click();
    await expect.poll(() => row.getByRole('cell').nth(1).innerText()).toBe('1');
    await page.getByRole('button', { name: 'Members of Journey regulars' }).click();

    // Taking a member off asks first; the subscriber stays subscribed.
    await page.getByRole('button', { name: `Remove ${email} from the list` }).click();
    const remove = page.getByRole('dialog', { name: 'Remove from the list' });
    await remove.getByText(`Take ${email} off “Journey regulars”?`, { exact: false }).waitFor();
    await remove.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('The subscriber is removed from the list.').waitFor();
    await page.getByText('This list has no members yet.').waitFor();

    // Back to the lists, reloaded again; then rename (the kit's edit dialog) and delete.
    await page.getByRole('button', { name: '← All lists' }).click();
    await expect.poll(() => row.getByRole('cell').nth(1).innerText()).toBe('0');
    await page.getByRole('button', { name: 'Rename Journey regulars' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename Journey regulars' });
    await rename.getByLabel('List name').fill('Journey VIPs');
    await rename.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The list is renamed.').waitFor();
    await page.getByRole('button', { name: 'Delete Journey VIPs' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete list' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('The list is deleted.').waitFor();
    await expect.poll(() => page.getByRole('row', { name: /Journey VIPs/ }).count()).toBe(0);
    expect(watched.errors).toEqual([]);
  }, 120_000);
});
