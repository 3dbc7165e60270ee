import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { apiAs } from './support/api.js';
import { screenshots, settled } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The value shown under a label of the profile's details list. */
function detail(page: Page, label: string): Locator {
  return page.locator(`xpath=//dt[normalize-space(.)="${label}"]/following-sibling::dd[1]`);
}

describe('a subscriber’s details in a browser (issue 11)', () => {
  const session = signedInSession('/subscribers');

  it('adds a subscriber with phone, zip and birthday, sees them on the profile, edits one and sees the change', async () => {
    const { page } = session.watched;
    await page.getByRole('button', { name: 'Add subscriber' }).click();
    const add = page.getByRole('dialog', { name: 'Add a subscriber' });
    await add.getByRole('textbox', { name: 'Email' }).fill('dana.details@example.com');
    await add.getByLabel('First name', { exact: true }).fill('Dana');
    await add.getByLabel('Last name', { exact: true }).fill('Details');
    await add.getByLabel('Phone', { exact: true }).fill('5035554585');
    await add.getByLabel('Zip code', { exact: true }).fill('97201');
    await add.getByLabel('Birthday', { exact: true }).fill('1988-07-14');
    await add.getByRole('button', { name: 'Add subscriber' }).click();
    await add.waitFor({ state: 'hidden' });

    // Typed as digits, shown in one readable form in the list.
    await page.getByLabel('Search subscribers', { exact: true }).fill('dana.details@');
    const row = page.getByRole('row', { name: /dana\.details@example\.com/ });
    await row.getByText('(503) 555-4585').waitFor();
    await row
      .getByRole('button', { name: /^(Profile|Open the profile of)/ })
      .first()
      .click();
    await page.waitForURL(/\/subscriber\/profile\/-\/[^/]+\/\d+$/);
    await page.getByRole('heading', { name: 'Details', exact: true }).waitFor();

    // Every field of the add dialog is on the profile; what was not given says so.
    await expect.poll(() => detail(page, 'Phone').innerText()).toBe('(503) 555-4585');
    expect(await detail(page, 'Zip code').innerText()).toBe('97201');
    expect(await detail(page, 'Birthday').innerText()).toBe('Jul 14, 1988');
    expect(await detail(page, 'Email').innerText()).toBe('dana.details@example.com');
    expect(await detail(page, 'Email consent').innerText()).toBe('Subscribed to emails');
    expect(await detail(page, 'Signed up at').innerText()).toBe('No location (website)');
    expect(await detail(page, 'POS id').innerText()).toBe('Not given');
    // No live flow starts with a new subscriber in the demo: the flows panel says they are in none.
    await page.getByRole('heading', { name: 'Flows', exact: true }).waitFor();
    await page.getByText('Not in any flow yet.', { exact: false }).waitFor();
    await screenshots(page, 'profile', 'subscriber-details');

    // The edit dialog starts with the stored values and passes axe while open.
    await page.getByRole('button', { name: 'Edit details of Dana Details' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit details' });
    expect(await edit.getByLabel('Phone', { exact: true }).inputValue()).toBe('(503) 555-4585');
    expect(await edit.getByLabel('Birthday', { exact: true }).inputValue()).toBe('1988-07-14');
    // Once the dialog has faded in: halfway, its colours read blended.
    await settled(page);
    const violations = await seriousA11yViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenshots(page, 'profile', 'subscriber-details-dialog');

    // A zip code the spec refuses stays in the dialog with its message.
    await edit.getByLabel('Zip code', { exact: true }).fill('972');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.getByText('Zip code is not valid').waitFor();

    await edit.getByLabel('Zip code', { exact: true }).fill('97202');
    await edit.getByLabel('Phone', { exact: true }).fill('503.555.0199');
    await edit.getByLabel('Signed up at').click();
    const firstLocation = page.getByRole('listbox').getByRole('option').nth(1);
    const locationName = (await firstLocation.innerText()).trim();
    await firstLocation.click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The details were saved.').waitFor();
    await edit.waitFor({ state: 'hidden' });
    await expect.poll(() => detail(page, 'Zip code').innerText()).toBe('97202');
    expect(await detail(page, 'Phone').innerText()).toBe('(503) 555-0199');
    expect(await detail(page, 'Signed up at').innerText()).toBe(locationName);

    // The change is stored, not only shown.
    await page.reload();
    await expect.poll(() => detail(page, 'Zip code').innerText()).toBe('97202');
    expect(await detail(page, 'Phone').innerText()).toBe('(503) 555-0199');
    await screenshots(page, 'profile', 'subscriber-details-edited');
    expect(session.watched.errors).toEqual([]);
  });

  it('shows the path of a subscriber the engine enrolled in a live flow: its steps and where they wait', async () => {
    const { page } = session.watched;
    const api = await apiAs(page, session.server.url);
    const at = { x: 0, y: 0 };
    const flow = await api<{ id: number }>('/campaigns/flows/', {
      name: 'Journey new subscribers',
      items: [
        {
          key: 'joined',
          kind: 'trigger',
          settings: { type: 'new_subscriber' },
          position: at,
          next_key: 'pause',
          no_key: null,
        },
        {
          key: 'pause',
          kind: 'delay',
          settings: { type: 'wait', amount: 3, unit: 'days' },
          position: at,
          next_key: null,
          no_key: null,
        },
      ],
    });
    await api(`/campaigns/flows/${flow.id}/`, { status: 'live' }, 'PUT');
    const person = await api<{ id: number; hashid: string }>('/subscriptions/subscribers/', {
      email: 'flow.path@example.com',
      first_name: 'Flo',
    });
    // The runner (every 2 seconds) enrols them and opens the wait.
    await expect
      .poll(
        async () =>
          (await api<{ results: unknown[] }>(`/customers/subscribers/${person.id}/flows/`)).results.length,
        { timeout: 30_000 },
      )
      .toBe(1);
    await page.goto(`${session.server.url}/subscriber/profile/-/${person.hashid}/${person.id}`);
    const panel = page.locator('[aria-labelledby="profile-flows-title"]');
    await panel.getByText('Journey new subscribers').waitFor();
    expect(await panel.getByText('In the flow').count()).toBe(1);
    expect(await panel.getByText('New subscriber', { exact: true }).count()).toBe(1);
    expect(await panel.getByText('Now at: Wait').count()).toBe(1);
    await panel.getByText(/Waiting since /).waitFor();
    await screenshots(page, 'profile', 'subscriber-flow-path');
    // Not left live for the other journeys of this server.
    await api(`/campaigns/flows/${flow.id}/`, { status: 'paused' }, 'PUT');
    expect(session.watched.errors).toEqual([]);
  });
});
