import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { DEMO_OWNER, screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

const OWNER = DEMO_OWNER;
const NEW_USER = { email: 'e2e.marketer@harborvine.example', password: 'first-password-1' };

describe('the account screen: users and API tokens', () => {
  const session = signedInSession('/account');

  it('searches the users, adds one with a first password, deactivates them and deletes them', async () => {
    const { page, errors } = session.watched;
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
    await screenshots(page, 'account', 'users');
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
    // The notice shows as the list starts reloading; the row goes once the new page has arrived.
    await expect.poll(() => added.count(), { timeout: 10_000 }).toBe(0);
    expect(errors).toEqual([]);
  });

  it('creates a token, shows its key once, and revokes it', async () => {
    const { page, errors } = session.watched;
    await page.getByRole('tab', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API token' });
    await create.getByLabel('Name').fill('E2E import');
    await create.getByRole('button', { name: 'Create' }).click();
    const reveal = page.getByRole('dialog', { name: 'Your new API token' });
    const key = await reveal.locator('pre').innerText();
    expect(key).toMatch(/^rgl_[a-z0-9]+_/i);
    await screenshots(page, 'account', 'token-key');
    await reveal.getByRole('button', { name: 'Done' }).click();
    await page.getByText('The token is created.').waitFor();
    await reveal.waitFor({ state: 'hidden' });
    // The list never shows the key again, only how it starts.
    expect(await page.getByText(key).count()).toBe(0);

    const row = page.getByRole('row', { name: /E2E import/ });
    await row.getByText('Active', { exact: true }).waitFor();
    await screenshots(page, 'account', 'tokens');
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

  it('saves the profile and changes the password through their settings forms, the session carrying on', async () => {
    const { page, errors } = session.watched;
    await page.getByRole('tab', { name: 'Profile' }).click();
    const profile = page.getByRole('tabpanel', { name: 'Profile' });
    const username = profile.getByRole('textbox', { name: /^Username/ });
    await expect.poll(() => username.inputValue()).not.toBe('');
    // A blank username is refused on its field before any call.
    await username.fill('');
    await profile.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => username.getAttribute('aria-invalid')).toBe('true');
    await username.fill('dana.e2e');
    await profile.getByRole('button', { name: 'Save' }).click();
    await profile.getByText('Your settings are saved.').waitFor();
    await page.reload();
    await page.getByRole('tab', { name: 'Profile' }).click();
    await expect.poll(() => username.inputValue()).toBe('dana.e2e');

    await page.getByRole('tab', { name: 'Password' }).click();
    const password = page.getByRole('tabpanel', { name: 'Password' });
    const field = (label: string) => password.getByLabel(label, { exact: false }).first();
    await field('Current password').fill(OWNER.password);
    await field('New password').fill('short');
    await field('Confirm password').fill('short');
    await password.getByRole('button', { name: 'Change password' }).click();
    // The spec's rule (at least 8 characters), named on the new password, before any call.
    await password.getByText('New password minimum length is 8').waitFor();
    await field('New password').fill('a-new-e2e-password-1');
    await field('Confirm password').fill('a-new-e2e-password-1');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText(/^Your password is changed\./).waitFor();
    expect(await field('New password').inputValue()).toBe('');
    // The old token was revoked: the session carries on with the one the change answered.
    await page.reload();
    await page.getByRole('tab', { name: 'Password' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(errors).toEqual([]);
  });
});
