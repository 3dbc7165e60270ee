import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

/** The demo company's owner (see README, Demo sign-in). */
const OWNER = { email: 'owner@harborvine.example', password: 'regulars-demo' };
const NEW_USER = { email: 'e2e.marketer@harborvine.example', password: 'first-password-1' };

/** Signs in at the provider's form, after the app has sent the browser there. */
async function signIn(page: Page): Promise<void> {
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Takes the page at both sizes the design names (desktop and phone) into test-results/. */
async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir('test-results', { recursive: true });
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: `test-results/e2e-account-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('the account screen: users and API tokens', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    watched = await openPage(browser, server.url);
    await watched.page.goto('/account');
    await signIn(watched.page);
    await watched.page.waitForURL(/\/account$/);
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('searches the users, adds one with a first password, deactivates them and deletes them', async () => {
    const { page, errors } = watched;
    await page.getByRole('tab', { name: 'Users' }).click();
    const owner = page.getByRole('row', { name: new RegExp(OWNER.email) });
    await owner.waitFor();
    // Nobody deletes themselves: the owner's row offers an edit only.
    expect(await owner.getByRole('button', { name: `Delete ${OWNER.email}` }).count()).toBe(0);

    await page.getByLabel('Search users').fill('nobody-at-all');
    await page.getByText('No user matches “nobody-at-all”.').waitFor();
    await page.getByLabel('Search users').fill('');
    await owner.waitFor();

    await page.getByRole('button', { name: 'Add user' }).click();
    const create = page.getByRole('dialog', { name: 'Add a user' });
    await create.getByRole('button', { name: 'Add user' }).click();
    // The create schema asks for the email and the first password before any call.
    await create.getByText('Email is required').waitFor();
    await create.getByLabel('Email').fill(NEW_USER.email);
    await create.getByLabel('First password').fill(NEW_USER.password);
    await create.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('The user is added.').waitFor();
    await create.waitFor({ state: 'hidden' });
    const added = page.getByRole('row', { name: new RegExp(NEW_USER.email) });
    await added.getByText('Active', { exact: true }).waitFor();
    await screenshots(page, 'users');
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    await added.getByRole('button', { name: `Edit ${NEW_USER.email}` }).click();
    const edit = page.getByRole('dialog', { name: /^Edit / });
    // The edit dialog asks the username and whether they may sign in, never a password.
    await edit.getByLabel('Username').waitFor();
    expect(await edit.getByLabel('First password').count()).toBe(0);
    await edit.getByRole('switch', { name: 'Active: can sign in' }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The user is saved.').waitFor();
    await added.getByText('Inactive').waitFor();

    await added.getByRole('button', { name: `Delete ${NEW_USER.email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete user' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('The user is deleted.').waitFor();
    expect(await added.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('creates a token, shows its key once, and revokes it', async () => {
    const { page, errors } = watched;
    await page.getByRole('tab', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API token' });
    await create.getByLabel('Name').fill('E2E import');
    await create.getByRole('button', { name: 'Create' }).click();
    const reveal = page.getByRole('dialog', { name: 'Your new API token' });
    const key = await reveal.locator('pre').innerText();
    expect(key).toMatch(/^rgl_[a-z0-9]+_/i);
    await screenshots(page, 'token-key');
    await reveal.getByRole('button', { name: 'Done' }).click();
    await page.getByText('The token is created.').waitFor();
    await reveal.waitFor({ state: 'hidden' });
    // The list never shows the key again, only how it starts.
    expect(await page.getByText(key).count()).toBe(0);

    const row = page.getByRole('row', { name: /E2E import/ });
    await row.getByText('Active', { exact: true }).waitFor();
    await screenshots(page, 'tokens');
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
    await confirm.getByText('Revoke “E2E import”?', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('The token is revoked.').waitFor();
    await row.getByText('Revoked').waitFor();
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    // Checked once the dialog has faded out (axe reads the fading dialog's colours otherwise).
    await confirm.waitFor({ state: 'hidden' });
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    expect(errors).toEqual([]);
  });
});
