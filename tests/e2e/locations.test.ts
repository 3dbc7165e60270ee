import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

const LOCATION = 'E2E Bistro';
const GROUP = 'E2E Group';

describe('the locations screen: locations and their groups', () => {
  const session = signedInSession('/locations');

  it('adds a location, groups it, and each list follows the other through edits and deletes', async () => {
    const { page, errors } = session.watched;
    await page.getByRole('heading', { name: 'Locations and return on investment' }).waitFor();

    await page.getByRole('button', { name: 'Add location' }).click();
    const create = page.getByRole('dialog', { name: 'Add a location' });
    await create.getByRole('button', { name: 'Create' }).click();
    // The shared schema asks for a name and a 5-digit zip before any call.
    await create.getByText('Name is required').waitFor();
    await create.getByLabel('Name').fill(LOCATION);
    await create.getByLabel('Zip code').fill('1234');
    await create.getByRole('button', { name: 'Create' }).click();
    await create.getByText('Zip code is not valid').waitFor();
    await create.getByLabel('Zip code').fill('02139');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The location was added.').waitFor();
    const row = page.getByRole('row', { name: new RegExp(`^${LOCATION}`) });
    await row.getByText('No group').waitFor();

    // The group dialog is its own machine; a saved group refreshes the groups list with a notice.
    await page.getByRole('button', { name: 'New group' }).click();
    const groupDialog = page.getByRole('dialog', { name: 'New location group' });
    await groupDialog.getByLabel('Name').fill(GROUP);
    await groupDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The group was created.').waitFor();
    // The location's row names the group too: the group's own row starts with its name.
    const groupRow = page.getByRole('row', { name: new RegExp(`^${GROUP}`) });
    await groupRow.waitFor();

    // Joining the group in the location dialog: the groups list loads again and shows the member.
    await row.getByRole('button', { name: `Edit ${LOCATION}` }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${LOCATION}` });
    await edit.getByLabel('Groups').click();
    await page.getByRole('option', { name: GROUP }).click();
    // A click outside the picker closes its dropdown, which covers the buttons.
    await edit.getByRole('heading', { name: `Edit ${LOCATION}` }).click();
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The location was saved.').waitFor();
    // One notice at a time: the group's went when the location changed.
    await page.getByText('The group was created.').waitFor({ state: 'detached' });
    await row.getByText(GROUP).waitFor();
    await groupRow.getByText(LOCATION).waitFor();
    await screenshots(page, 'locations', 'overview');
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');

    // Deleting the group: the locations list loads again and the location has no group left.
    await groupRow.getByRole('button', { name: `Delete ${GROUP}` }).click();
    const deleteGroup = page.getByRole('dialog', { name: 'Delete this group?' });
    await deleteGroup.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('The group was deleted.').waitFor();
    await row.getByText('No group').waitFor();

    await row.getByRole('button', { name: `Delete ${LOCATION}` }).click();
    const deleteLocation = page.getByRole('dialog', { name: 'Delete this location?' });
    await deleteLocation.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('The location was deleted.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('lists what each location still lacks and completes one in the same dialog', async () => {
    const { page, errors } = session.watched;
    await page.goto('/locations-setup');
    await page.getByRole('heading', { name: 'Locations setup' }).waitFor();
    // Every demo location is set up, so the setup list says so and offers no quick edit.
    await page.getByText('Every location is set up.').waitFor();
    expect(await page.getByRole('button', { name: 'Complete' }).count()).toBe(0);

    await page.goto('/locations');
    await page.getByRole('button', { name: 'Add location' }).click();
    const create = page.getByRole('dialog', { name: 'Add a location' });
    await create.getByLabel('Name').fill(LOCATION);
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The location was added.').waitFor();

    await page.goto('/locations-setup');
    const card = page.getByText(LOCATION).locator('xpath=ancestor::div[contains(@class, "Card")][1]');
    await card.getByText('To do: 5').waitFor();
    await card.getByRole('button', { name: 'Complete' }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${LOCATION}` });
    await edit.getByLabel('Zip code').fill('97214');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The location was saved.').waitFor();
    await card.getByText('To do: 4').waitFor();
    await screenshots(page, 'locations', 'setup');
    expect(errors).toEqual([]);
  });
});
