import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessToken } from './support/api.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { PHONE, screenshots, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** Picks the first option of a Mantine select or multi-select, and leaves the field. */
async function chooseFirst(page: Page, field: Locator): Promise<string> {
  await field.click();
  const item = page.getByRole('listbox').getByRole('option').first();
  const text = (await item.innerText()).trim();
  await item.click();
  await page.keyboard.press('Tab');
  return text;
}

describe('campaigns in a browser', () => {
  const session = signedInSession('/campaigns');

  it('creates a campaign to a segment, picks a template and a sender, test-sends, sends it and sees it done', async () => {
    const { page, errors } = session.watched;
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'campaigns', 'list');

    await page.getByRole('button', { name: 'New campaign' }).first().click();
    await page.waitForURL((url) => url.pathname === '/campaigns/new');
    await page.getByLabel('Campaign name').fill('Journey winter menu');
    // The segment with the fewest recipients that still has some, as the API counts them (a quick send).
    const bearer = { authorization: `Bearer ${await accessToken(page)}`, 'content-type': 'application/json' };
    const api = async <T>(path: string, body?: unknown): Promise<T> =>
      (await (
        await fetch(`${session.server.url}/api${path}`, {
          method: body ? 'POST' : 'GET',
          headers: bearer,
          body: body ? JSON.stringify(body) : undefined,
        })
      ).json()) as T;
    const segments = await api<{ results: { id: number; name: string }[] }>(
      '/campaigns/segments/?page_size=100',
    );
    const counted = await Promise.all(
      segments.results.map(async (entry) => ({
        ...entry,
        recipients: (
          await api<{ recipients: number }>('/campaigns/audience-count/', { segment_ids: [entry.id] })
        ).recipients,
      })),
    );
    const segment = counted
      .filter((entry) => entry.recipients > 0)
      .sort((a, b) => a.recipients - b.recipients)[0]!;
    // The segments field is the audience's first multi-select (its input carries no label of its own).
    await page.locator('.mantine-MultiSelect-inputField').first().click();
    await page.getByRole('listbox').getByRole('option', { name: segment.name, exact: true }).click();
    await page.keyboard.press('Tab');
    // The live count after suppression, as the API counts the same audience.
    const recipients = page.getByTestId('audience-recipients');
    await recipients.waitFor({ timeout: 30_000 });
    const shown = Number((await recipients.innerText()).replace(/[^\d]/g, ''));
    expect(shown).toBeGreaterThan(0);
    await screenshots(page, 'campaigns', 'audience');

    await page.getByRole('button', { name: 'Save and continue to Content' }).click();
    // The first save made the draft: its address is its id's.
    await page.waitForURL((url) => /^\/campaigns\/\d+$/.test(url.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));
    const saved = await api<{ name: string; status: string; audience: { segment_ids: number[] } }>(
      `/campaigns/campaigns/${id}/`,
    );
    expect(saved).toMatchObject({ name: 'Journey winter menu', status: 'draft' });
    expect(saved.audience.segment_ids).toEqual([segment.id]);
    const count = { recipients: segment.recipients };
    expect(shown).toBe(count.recipients);

    // The content step's selects: template first, sender second.
    await chooseFirst(page, page.locator('.mantine-Select-input').nth(0));
    await page.getByTitle('Preview of the chosen template').waitFor({ timeout: 30_000 });
    await page.getByLabel('Subject').fill('Our winter menu is here');
    await page.locator('.mantine-Select-input').nth(1).click();
    await page.getByRole('listbox').getByRole('option', { disabled: false }).first().click();
    await page.keyboard.press('Tab');
    await page.getByRole('button', { name: 'Send a test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test email' });
    await dialog.getByLabel('Email addresses').fill('chef@example.test');
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.getByText('Test sent to 1 addresses.').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await screenshots(page, 'campaigns', 'content');

    await page.getByRole('button', { name: 'Save and continue to Schedule' }).click();
    await page.getByText('Sends as soon as you press Send now on the review step.').waitFor();
    await page.getByRole('button', { name: 'Save and continue to Review' }).click();
    await page.getByRole('button', { name: 'Send now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send now' });
    await confirm.getByText(`to ${count.recipients.toLocaleString('en-US')} recipients`).waitFor();
    await confirm.getByRole('button', { name: 'Send now' }).click();

    // Live progress, polled while it sends, until the run is done.
    await page
      .getByRole('heading', { name: 'Progress' })
      .or(page.getByText('Progress', { exact: true }))
      .first()
      .waitFor();
    await page.getByText('Sent', { exact: true }).first().waitFor();
    await page.locator('.mantine-Badge-root', { hasText: /^Sent$/ }).waitFor({ timeout: 180_000 });
    const sent = Number((await page.getByTestId('progress-sent').innerText()).replace(/[^\d]/g, ''));
    const suppressed = Number(
      (await page.getByTestId('progress-suppressed').innerText()).replace(/[^\d]/g, ''),
    );
    const failed = Number((await page.getByTestId('progress-failed').innerText()).replace(/[^\d]/g, ''));
    expect(sent + suppressed + failed).toBeGreaterThanOrEqual(count.recipients);
    await screenshots(page, 'campaigns', 'done');
    await page.setViewportSize(PHONE);
    expect(await sidewaysOverflow(page)).toBe(0);
    // The thumbnail is drawn in the email frame page, whose own policy allows email's inline styles.
    expect(errors).toEqual([]);
  }, 300_000);
});
