import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { openPage } from './support/browser.js';
import { PHONE, screenshots, sidewaysOverflow, signIn } from './support/pages.js';
import { signedInSession } from './support/session.js';

/**
 * Each card's value under `label`, with whether it is shown whole: not cut inside its box and inside
 * the screen.
 */
function cardValues(page: Page, list: string, label: string) {
  return page.evaluate(
    ([listName, fieldLabel]) =>
      [...document.querySelectorAll(`ul[aria-label="${listName}"] > li`)].map((card) => {
        const term = [...card.querySelectorAll('dt')].find((dt) => dt.textContent === fieldLabel);
        const value = term?.nextElementSibling as HTMLElement | null | undefined;
        const box = value?.getBoundingClientRect();
        return {
          text: value?.textContent ?? '',
          whole:
            value !== null &&
            value !== undefined &&
            box !== undefined &&
            value.scrollWidth <= value.clientWidth &&
            box.left >= 0 &&
            box.right <= window.innerWidth,
        };
      }),
    [list, label] as const,
  );
}

/** Whether an element is wholly on screen and its text is not cut. */
function shownWhole(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const cut = [element, ...element.querySelectorAll('*')].some(
      (part) => part.scrollWidth > part.clientWidth + 1,
    );
    return !cut && box.left >= 0 && box.right <= window.innerWidth;
  });
}

describe('the lists and the header on a phone (390 x 844)', () => {
  const session = signedInSession('/subscribers');

  it('shows subscribers as cards with whole emails and reachable actions, no sideways scroll; axe finds no serious fault', async () => {
    const { page } = session.watched;
    await page.setViewportSize(PHONE);
    const cards = page.getByRole('list', { name: 'Subscribers' }).getByRole('listitem');
    await cards.first().waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await cards.count()).toBe(8);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    const emails = await cardValues(page, 'Subscribers', 'Email');
    expect(emails).toHaveLength(8);
    for (const email of emails) {
      expect(email.text).toContain('@');
      expect(email).toEqual({ text: email.text, whole: true });
    }
    // Each card keeps the row's named actions, on screen.
    const first = emails[0]!.text;
    const edit = page.getByRole('button', { name: `Edit ${first}` });
    await edit.waitFor();
    const box = await edit.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    await edit.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
  });

  it('shows every kit list as cards on a phone without sideways scroll, and as a table on a desktop', async () => {
    const { page } = session.watched;
    // The demo company has no token or sender: one of each, so their lists have rows.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/account');
    await page.getByRole('tab', { name: 'API tokens' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const create = page.getByRole('dialog', { name: 'Create an API token' });
    await create.getByLabel('Name').fill('Point of sale');
    await create.getByRole('button', { name: 'Create' }).click();
    await page
      .getByRole('dialog', { name: 'Your new API token' })
      .getByRole('button', { name: 'Done' })
      .click();
    await page.getByText('The token is created.').waitFor();
    await page.getByRole('tab', { name: 'Email senders' }).click();
    await page.getByRole('button', { name: 'Add sender' }).click();
    const sender = page.getByRole('dialog', { name: 'Add a sender' });
    await sender.getByLabel('Sender name').fill('Harbor & Vine');
    // The label may carry the required mark ("Email *").
    await sender
      .getByRole('textbox', { name: /^Email/ })
      .fill('hello.from.a.long.address@harborvine.example');
    await sender.getByLabel('Reply-to').fill('replies@harborvine.example');
    await sender.getByRole('button', { name: 'Add sender' }).click();
    await sender.waitFor({ state: 'detached' });

    const lists: { path: string; tab?: string; list: string; name: string }[] = [
      { path: '/subscribers', list: 'Subscribers', name: 'subscribers' },
      { path: '/subscriber-list', list: 'Subscriber lists', name: 'subscriber-lists' },
      { path: '/locations', list: 'Locations and return on investment', name: 'locations' },
      { path: '/guest/analytics', list: 'Guests', name: 'guests' },
      { path: '/account', tab: 'Users', list: 'Users', name: 'users' },
      { path: '/account', tab: 'API tokens', list: 'API tokens', name: 'tokens' },
      { path: '/account', tab: 'Email senders', list: 'Email senders', name: 'senders' },
    ];
    for (const { path, tab, list, name } of lists) {
      await page.setViewportSize(PHONE);
      await page.goto(path);
      if (tab) await page.getByRole('tab', { name: tab }).click();
      const cards = page.getByRole('list', { name: list, exact: true }).getByRole('listitem');
      await cards.first().waitFor();
      expect(await page.getByRole('table', { name: list, exact: true }).count(), name).toBe(0);
      expect(await sidewaysOverflow(page), name).toBeLessThanOrEqual(0);

      await page.setViewportSize({ width: 1440, height: 900 });
      await page.getByRole('table', { name: list, exact: true }).waitFor();
      expect(await page.getByRole('list', { name: list, exact: true }).count(), name).toBe(0);
      await screenshots(page, 'layout', name);
    }
  });

  it('orders subscribers by a column header on a desktop and by the sort select on a phone', async () => {
    const { page } = session.watched;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/subscribers');
    const table = page.getByRole('table', { name: 'Subscribers', exact: true });
    await table.waitFor();
    const emailHeader = table.locator('th', { has: page.getByRole('button', { name: 'Sort by Email' }) });
    // Newest first by default: the Created column is the sorted one.
    expect(await table.locator('th[aria-sort="descending"]').innerText()).toMatch(/^Created/);
    const emails = async () =>
      (await table.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((e) => e.trim());
    // The database orders lower-cased emails by code point ('9' before '_'), as written here.
    const byCodePoint = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);
    const sorted = (list: string[], descending: boolean) =>
      [...list].sort((a, b) => (descending ? -1 : 1) * byCodePoint(a.toLowerCase(), b.toLowerCase()));

    await page.getByRole('button', { name: 'Sort by Email' }).click();
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).toBe('ascending');
    await expect.poll(emails).toEqual(sorted(await emails(), false));
    const firstAscending = (await emails())[0];
    await page.getByRole('button', { name: 'Sort by Email' }).click();
    await expect.poll(() => emailHeader.getAttribute('aria-sort')).toBe('descending');
    await expect.poll(async () => (await emails())[0]).not.toBe(firstAscending);
    expect(await emails()).toEqual(sorted(await emails(), true));
    await screenshots(page, 'layout', 'subscribers-sorted');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.setViewportSize(PHONE);
    await page.getByLabel('Sort by', { exact: true }).selectOption('email');
    const cards = async () => (await cardValues(page, 'Subscribers', 'Email')).map((value) => value.text);
    await expect.poll(async () => (await cards())[0]).toBe(firstAscending);
    expect(await cards()).toEqual(sorted(await cards(), false));
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('writes dates in the order of the chosen language: Japanese year-month-day, German day. month year', async () => {
    const { page } = session.watched;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/subscribers');
    const created = page.getByRole('table').first().locator('tbody tr').first().locator('td').nth(5);
    await expect.poll(() => created.innerText()).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    const picker = page.locator('header select').first();
    await picker.selectOption('jp');
    await expect.poll(() => created.innerText()).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
    await picker.selectOption('de');
    await expect.poll(() => created.innerText()).toMatch(/^\d{1,2}\. \p{L}+\.? \d{4}$/u);
    await screenshots(page, 'layout', 'subscribers-de');

    // A new browser (nothing stored) opening a dashboard directly: the profile's German arrives while the
    // dashboard's texts download, and the page must show them in German, never as message keys.
    const fresh = await openPage(session.browser, session.server.url);
    try {
      await fresh.page.goto('/analytics');
      await signIn(fresh.page);
      await fresh.page.getByRole('heading', { name: 'Zusammenfassung', level: 2 }).waitFor();
      await fresh.page.getByText('Mit dem Vorzeitraum vergleichen').waitFor();
      const body = await fresh.page.locator('main').innerText();
      expect(body.match(/\b[a-z]+[A-Z]\w*\.[a-z][\w.]*/g) ?? []).toEqual([]);
    } finally {
      await fresh.close();
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.locator('header select').first().selectOption('en');
    await page.getByRole('heading', { name: 'Subscribers', level: 2 }).waitFor();
  });

  it('keeps the language picker in the user menu, and the French location button whole', async () => {
    const { page } = session.watched;
    await page.setViewportSize(PHONE);
    await page.goto('/subscribers');
    await page.getByRole('list', { name: 'Subscribers' }).waitFor();
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menu').getByLabel('Language').selectOption('fr');
    await page.getByRole('heading', { name: 'Abonnés', level: 2 }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });

    const picker = page.getByRole('button', { name: /^Choisir l’établissement affiché: / });
    expect(await picker.innerText()).toBe('Tous les établissements');
    expect(await shownWhole(page, 'header button[aria-label^="Choisir"]')).toBe(true);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    // Cards speak the chosen language too.
    expect((await cardValues(page, 'Abonnés', 'E-mail')).every((email) => email.whole)).toBe(true);
    await screenshots(page, 'layout', 'header-fr');
  });
});
