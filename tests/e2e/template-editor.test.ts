import { describe, expect, it } from 'vitest';
import type { EmailTemplate } from '../../src/schemas/email-templates.js';
import { accessToken } from './support/api.js';
import { canvasOf, dragBlock, dragStarterBlocks } from './support/editor.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

describe('the email template editor in a browser', () => {
  const session = signedInSession('/editor-template');

  it('drags blocks into a new template, saves it, reopens it from /templates, previews it on a phone and undoes a change; nothing leaves the installation', async () => {
    const { page, errors } = session.watched;
    const base = session.server.url;
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const bearer = { authorization: `Bearer ${await accessToken(page)}` };

    // A one-column section into the empty body, a text block into its column, then a button and an offer.
    await dragStarterBlocks(page);
    const canvas = canvasOf(page);
    await dragBlock(page, 'offer', page.locator('iframe.gjs-frame'), 0.9);
    await canvas.getByText('20% off your next visit').waitFor();
    // The canvas frame is named for screen readers (GrapesJS makes it without a title).
    expect(await page.locator('iframe.gjs-frame').getAttribute('title')).toBe('Email design');

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
    // Counted by component type: a drag that only selects a block changes the markup (a class) but is no change.
    const dividers = () => canvasOf(page).locator('[data-gjs-type="mj-divider"]').count();
    const dividersBefore = await dividers();
    // dragBlock presses only once the page stands still and checks it presses the block, so one drag lands.
    await dragBlock(page, 'divider', canvasOf(page).getByText('Write your message here.').first(), 0.3);
    await expect.poll(dividers).toBe(dividersBefore + 1);
    await page.getByRole('button', { name: 'Undo (Ctrl+Z)' }).click();
    await expect.poll(dividers).toBe(dividersBefore);
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
