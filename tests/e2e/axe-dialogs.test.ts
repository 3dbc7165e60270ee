import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type WatchedPage } from './support/browser.js';
import { closeDialog, dialogViolations, requiredLabels } from './support/dialogs.js';
import { settled, signIn } from './support/pages.js';
import { startServer, type RunningServer } from './support/server.js';

/** A sender this journey adds, so the senders list has a row to edit and delete. */
const SENDER = { name: 'E2E Dialogs', email: 'dialogs@harborvine.example' };

/** Opens the first row's edit or delete dialog of the list on screen (the table's buttons at 1280 px). */
async function openRowDialog(page: Page, action: 'Edit' | 'Delete', row = /./): Promise<void> {
  await page
    .getByRole('row', { name: row })
    .getByRole('button', { name: new RegExp(`^${action} `) })
    .first()
    .click();
}

describe('every dialog of the built screens passes axe while open', () => {
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;
  /** Each dialog's violations in the running test, gathered so one run names all of them. */
  const found: string[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    watched = await openPage(browser, server.url);
    await watched.page.goto('/subscribers');
    await signIn(watched.page);
    await watched.page.waitForURL(/\/subscribers$/);
  });

  beforeEach(() => {
    found.length = 0;
  });

  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.stop();
  });

  it('subscribers: add (email marked required), edit, CSV upload, and the location picker', async () => {
    const { page } = watched;
    await page.getByRole('row').nth(1).waitFor();

    await page.getByRole('button', { name: 'Add subscriber' }).click();
    const add = page.getByRole('dialog', { name: 'Add a subscriber' });
    found.push(await dialogViolations(page, add, 'add subscriber'));
    expect(await requiredLabels(add)).toEqual(['Email']);
    await closeDialog(add);

    await openRowDialog(page, 'Edit');
    const edit = page.getByRole('dialog', { name: /^Edit / });
    found.push(await dialogViolations(page, edit, 'edit subscriber'));
    await closeDialog(edit);

    await page.getByRole('button', { name: 'Upload CSV' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload subscribers' });
    found.push(await dialogViolations(page, upload, 'upload subscribers'));
    await closeDialog(upload);

    await page.getByRole('button', { name: /^Choose the location to show: / }).click();
    const picker = page.getByRole('dialog', { name: 'Choose a location' });
    await picker.getByRole('button', { name: /^All locations/ }).waitFor();
    found.push(await dialogViolations(page, picker, 'location picker'));
    await closeDialog(picker);
    expect(found.filter(Boolean).join('\n')).toBe('');
  });

  it('subscriber lists: create, rename, delete and the member picker', async () => {
    const { page } = watched;
    await page.goto('/subscriber-list');
    await page.getByRole('row').nth(1).waitFor();

    await page.getByRole('button', { name: 'Create list' }).click();
    const create = page.getByRole('dialog', { name: 'Create a list' });
    found.push(await dialogViolations(page, create, 'create list'));
    expect(await requiredLabels(create)).toEqual(['List name']);
    await closeDialog(create);

    await page
      .getByRole('button', { name: /^Rename / })
      .first()
      .click();
    const rename = page.getByRole('dialog', { name: /^Rename / });
    found.push(await dialogViolations(page, rename, 'rename list'));
    await closeDialog(rename);

    await page
      .getByRole('button', { name: /^Delete / })
      .first()
      .click();
    const remove = page.getByRole('dialog', { name: 'Delete list' });
    found.push(await dialogViolations(page, remove, 'delete list'));
    await closeDialog(remove);

    await page
      .getByRole('button', { name: /^Members of / })
      .first()
      .click();
    await page.getByRole('button', { name: 'Add members' }).click();
    const members = page.getByRole('dialog', { name: /^Add subscribers to / });
    await members.getByRole('checkbox').first().waitFor();
    found.push(await dialogViolations(page, members, 'member picker'));
    await closeDialog(members);
    expect(found.filter(Boolean).join('\n')).toBe('');
  });

  it('account: users, tokens and senders dialogs, required fields marked from their schemas', async () => {
    const { page } = watched;
    await page.goto('/account');
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('row').nth(1).waitFor();

    await page.getByRole('button', { name: 'Add user' }).click();
    const addUser = page.getByRole('dialog', { name: 'Add a user' });
    found.push(await dialogViolations(page, addUser, 'add user'));
    expect(await requiredLabels(addUser)).toEqual(['Email', 'Role', 'First password']);
    await closeDialog(addUser);

    await openRowDialog(page, 'Edit');
    const editUser = page.getByRole('dialog', { name: /^Edit / });
    found.push(await dialogViolations(page, editUser, 'edit user'));
    expect(await requiredLabels(editUser)).toEqual(['Username', 'Role']);
    await closeDialog(editUser);

    await page.getByRole('tab', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = page.getByRole('dialog', { name: 'Create an API token' });
    found.push(await dialogViolations(page, token, 'create token'));
    expect(await requiredLabels(token)).toEqual(['Name']);
    await closeDialog(token);

    await page.getByRole('tab', { name: 'Email senders' }).click();
    await page.getByRole('button', { name: 'Add sender' }).click();
    const addSender = page.getByRole('dialog', { name: 'Add a sender' });
    found.push(await dialogViolations(page, addSender, 'add sender'));
    // Name and address are required; the reply-to is not.
    expect(await requiredLabels(addSender)).toEqual(['Sender name', 'Email']);
    await addSender.getByLabel('Sender name').fill(SENDER.name);
    await addSender.getByRole('textbox', { name: 'Email' }).fill(SENDER.email);
    await addSender.getByRole('button', { name: 'Add sender' }).click();
    await addSender.waitFor({ state: 'detached' });
    const senderRow = new RegExp(SENDER.email);
    await page.getByRole('row', { name: senderRow }).waitFor();

    await openRowDialog(page, 'Edit', senderRow);
    const editSender = page.getByRole('dialog', { name: 'Edit sender' });
    found.push(await dialogViolations(page, editSender, 'edit sender'));
    await closeDialog(editSender);

    await openRowDialog(page, 'Delete', senderRow);
    const deleteSender = page.getByRole('dialog', { name: 'Delete sender' });
    found.push(await dialogViolations(page, deleteSender, 'delete sender'));
    await closeDialog(deleteSender);
    expect(found.filter(Boolean).join('\n')).toBe('');
  });

  it('locations: location and group dialogs; the group dropdown leaves Create visible', async () => {
    const { page } = watched;
    await page.goto('/locations');
    await page.getByRole('heading', { name: 'Locations and return on investment' }).waitFor();
    await page.getByRole('row').nth(1).waitFor();

    await page.getByRole('button', { name: 'Add location' }).click();
    const addLocation = page.getByRole('dialog', { name: 'Add a location' });
    found.push(await dialogViolations(page, addLocation, 'add location'));
    expect(await requiredLabels(addLocation)).toEqual(['Name', 'Time zone']);
    await closeDialog(addLocation);

    await openRowDialog(page, 'Edit');
    const editLocation = page.getByRole('dialog', { name: /^Edit / });
    found.push(await dialogViolations(page, editLocation, 'edit location'));
    await closeDialog(editLocation);

    await openRowDialog(page, 'Delete');
    const deleteLocation = page.getByRole('dialog', { name: 'Delete this location?' });
    found.push(await dialogViolations(page, deleteLocation, 'delete location'));
    await closeDialog(deleteLocation);

    await page.getByRole('button', { name: 'New group' }).click();
    const group = page.getByRole('dialog', { name: 'New location group' });
    found.push(await dialogViolations(page, group, 'new group'));
    expect(await requiredLabels(group)).toEqual(['Name']);
    // With the members' dropdown open, Create can still be clicked: nothing lies over it.
    await group.getByLabel('Locations', { exact: true }).click();
    await page.getByRole('listbox').waitFor();
    await settled(page);
    found.push(await dialogViolations(page, group, 'new group with its dropdown open'));
    await group.getByRole('button', { name: 'Create' }).click({ trial: true, timeout: 2000 });
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await closeDialog(group);
    expect(found.filter(Boolean).join('\n')).toBe('');
  });
});
