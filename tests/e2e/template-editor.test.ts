import type { FrameLocator, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { EmailTemplate } from '../../src/schemas/email-templates.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The signed-in page's access token, as the app stored it. */
async function accessToken(page: Page): Promise<string> {
  const text = await page.evaluate(() => window.localStorage.getItem('tokenData'));
  return (JSON.parse(text ?? '{}') as { access_token: string }).access_token;
}

/**
 * Drags a block of the editor's panel onto `target` (inside the canvas frame) with the mouse, in small steps so
 * the browser's drag and drop and GrapesJS's sorter see every move, then waits for the canvas to settle.
 */
async function dragBlock(page: Page, blockId: string, target: Locator, offsetY = 0.5): Promise<void> {
  const from = (await page.locator(`[data-block="${blockId}"]`).boundingBox())!;
  const to = (await target.boundingBox())!;
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  const end = { x: to.x + to.width / 2, y: to.y + to.height * offsetY };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let step = 1; step <= 20; step += 1) {
    await page.mouse.move(
      start.x + ((end.x - start.x) * step) / 20,
      start.y + ((end.y - start.y) * step) / 20,
    );
    await page.waitForTimeout(25);
  }
  await page.waitForTimeout(200);
  await page.mouse.up();
  await page.waitForTimeout(500);
}

/** The canvas frame of the editor. */
const canvasOf = (page: Page): FrameLocator => page.frameLocator('iframe.gjs-frame');

describe('the email template editor in a browser', () => {
  const session = signedInSession('/editor-template');

  it('drags blocks into a new template, saves it, reopens it from /templates, previews it on a phone and undoes a change; nothing leaves the installation', async () => {
    const { page, errors } = session.watched;
    const base = session.server.url;
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const bearer = { authorization: `Bearer ${await accessToken(page)}` };

    await page.getByRole('heading', { name: 'New email template' }).waitFor();
    await page.locator('[data-block="section-1"]').waitFor();
    const canvas = canvasOf(page);
    await canvas.locator('body').waitFor();

    // A one-column section into the empty body, a text block into its column, then a button and an offer.
    await dragBlock(page, 'section-1', page.locator('iframe.gjs-frame'), 0.1);
    const firstText = canvas.getByText('Write your message here.').first();
    await firstText.waitFor();
    await dragBlock(page, 'text', firstText, 0.3);
    await expect.poll(() => canvas.getByText('Write your message here.').count()).toBe(2);
    await dragBlock(page, 'button', page.locator('iframe.gjs-frame'), 0.9);
    await canvas.getByText('Book a table').waitFor();
    await dragBlock(page, 'offer', page.locator('iframe.gjs-frame'), 0.9);
    await canvas.getByText('20% off your next visit').waitFor();

    // The name is required before anything is sent.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Template name is required').waitFor();
    const name = `Journey spring ${Date.now()}`;
    await page.getByLabel('Template name').fill(name);
    await screenshots(page, 'template-editor', 'new');
    await page.getByRole('button', { name: 'Save' }).click();
    // After the first save the editor moves to the template's own address.
    await page.waitForURL(/\/editor-template\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').at(-1));

    // The stored template: the design as MJML, the HTML rendered by the server with the dragged blocks' content.
    const stored = (await (
      await fetch(`${base}/api/campaigns/email-templates/${id}/`, { headers: bearer })
    ).json()) as EmailTemplate;
    expect(stored.name).toBe(name);
    expect(stored.export_html).toContain('<mj-button');
    expect(stored.export_html).toContain('<mj-text');
    expect(stored.html_content).toContain('Write your message here.');
    expect(stored.html_content).toContain('Book a table');
    expect(stored.html_content).toContain('20% off your next visit');
    expect(stored.text_content).toContain('Book a table');

    // Reopened from the list: its row has a thumbnail drawn from the preview.
    await page.goto('/templates');
    await page.getByRole('heading', { name: 'Email templates' }).waitFor();
    await page.getByLabel('Search templates').fill(name);
    const open = page.getByRole('button', { name: `Open in editor: ${name}` });
    await open.waitFor();
    const thumbnail = page.frameLocator(`iframe[title="How ${name} looks"]`);
    await thumbnail.getByText('Book a table').waitFor();
    await screenshots(page, 'template-editor', 'list');
    await open.click();
    await page.waitForURL((url) => url.pathname === `/editor-template/${id}`);
    await page.getByRole('heading', { name: 'Edit email template' }).waitFor();
    await canvasOf(page).getByText('Book a table').waitFor();
    await expect(page.getByLabel('Template name').inputValue()).resolves.toBe(name);

    // The phone preview narrows the canvas to 390 px.
    await page.getByText('Phone', { exact: true }).click();
    await expect
      .poll(async () => (await page.locator('iframe.gjs-frame').boundingBox())?.width)
      .toBeLessThanOrEqual(400);
    await screenshots(page, 'template-editor', 'phone-preview');

    // A change, then undo with the keyboard: the dragged divider goes again.
    // The canvas's markup, without the empty class attributes a drag leaves behind on the wrapper.
    const markup = async () => (await canvasOf(page).locator('body').innerHTML()).replaceAll(' class=""', '');
    const before = await markup();
    await dragBlock(page, 'divider', canvasOf(page).getByText('Write your message here.').first(), 0.3);
    await expect.poll(markup).not.toBe(before);
    await page.getByRole('button', { name: 'Undo (Ctrl+Z)' }).click();
    await expect.poll(markup).toBe(before);

    // Leaving with an unsaved change asks first; staying keeps the editor.
    await page.getByLabel('Template name').fill(`${name} v2`);
    await page.getByRole('link', { name: 'Templates' }).first().click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Stay and keep editing' }).click();
    expect(new URL(page.url()).pathname).toBe(`/editor-template/${id}`);

    // Nothing was fetched from anywhere but the installation.
    const outside = requests.filter(
      (url) => !url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:'),
    );
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});
