import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

describe('the sent mail viewer in a browser', () => {
  // No SMTP_URL: every message is kept in the database and shown at /sent-mail.
  const session = signedInSession('/sent-mail');

  it('shows a sent campaign message styled as it went, with its links inert and without fetching its open pixel', async () => {
    const { page, errors } = session.watched;
    const api = await apiAs(page, session.server.url);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));

    // A tracked campaign of a starter template to the smallest demo segment, sent through the engine.
    const templates = await api<{ results: { id: number; name: string }[] }>(
      '/campaigns/email-templates/?page_size=100',
    );
    const template = templates.results.find((entry) => entry.name === 'Welcome')!;
    // The senders call answers a bare list.
    const senders = await api<{ id: number; verified_at: string | null }[]>('/campaigns/email-sender/');
    const sender = senders.find((entry) => entry.verified_at !== null)!;
    const segments = await api<{ results: { id: number }[] }>('/campaigns/segments/?page_size=100');
    const counted = await Promise.all(
      segments.results.map(async (entry) => ({
        id: entry.id,
        recipients: (
          await api<{ recipients: number }>('/campaigns/audience-count/', { segment_ids: [entry.id] })
        ).recipients,
      })),
    );
    const segment = counted
      .filter((entry) => entry.recipients > 0)
      .sort((a, b) => a.recipients - b.recipients)[0]!;
    const campaign = await api<{ id: number }>('/campaigns/campaigns/', {
      name: 'Viewer journey',
      audience: { segment_ids: [segment.id], list_ids: [], location_ids: [], location_group_ids: [] },
    });
    await api(
      '/campaigns/email-campaigns/',
      {
        campaign_id: campaign.id,
        template_id: template.id,
        sender_id: sender.id,
        subject: 'Viewer {{first_name}}',
      },
      'PATCH',
    );
    await api(`/campaigns/campaigns/${campaign.id}/send/`, {});
    await expect
      .poll(async () => (await api<{ status: string }>(`/campaigns/campaigns/${campaign.id}/`)).status, {
        timeout: 60_000,
      })
      .toBe('sent');

    await page.reload();
    await page
      .getByRole('button', { name: /^View Viewer / })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    const frame = dialog.locator('iframe');
    await frame.waitFor();
    // Sandboxed without scripts: same origin only, so the app can write the email in and measure it.
    expect(await frame.getAttribute('sandbox')).toBe('allow-same-origin');
    // Drawn in the email frame page, whose policy applies the message's styles: the button has its colour.
    const email = page.frameLocator('[role="dialog"] iframe');
    const button = email.getByText('See our menu');
    await button.waitFor();
    const background = await button.evaluate((element) => {
      const cell = element.closest('td') ?? element;
      return getComputedStyle(cell).backgroundColor;
    });
    expect(background).not.toBe('rgba(0, 0, 0, 0)');
    // The frame is as tall as the email, whose footer (the engine's, with the postal address) is inside it.
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0).toBeGreaterThan(900);
    await email.getByText('Unsubscribe').last().waitFor({ state: 'attached' });
    await screenshots(page, 'sent-mail', 'message');

    // A click on a link in the message goes nowhere: the frame is inert.
    const box = (await button.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/sent-mail');
    expect(session.watched.context.pages()).toHaveLength(1);
    // Even a link that would target the app's own window or a new one, clicked from inside, opens nothing.
    const before = errors.length;
    await email.locator('body').evaluate((body) => {
      const link = body.ownerDocument.createElement('a');
      link.href = '/settings';
      link.target = '_top';
      body.append(link);
      link.click();
      const popup = body.ownerDocument.createElement('a');
      popup.href = '/settings';
      popup.target = '_blank';
      body.append(popup);
      popup.click();
    });
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/sent-mail');
    expect(session.watched.context.pages()).toHaveLength(1);
    // The browser says why: the sandbox refused the top navigation and the new window (and ran no script).
    const refusals = errors.splice(before);
    expect(refusals.every((message) => /sandboxed/.test(message))).toBe(true);
    expect(refusals.some((message) => message.includes("'allow-top-navigation'"))).toBe(true);
    expect(refusals.some((message) => message.includes("'allow-popups'"))).toBe(true);
    // Reading it is not engagement: neither the open pixel nor a click redirect was requested.
    expect(requests.filter((path) => path.startsWith('/o/') || path.startsWith('/c/'))).toEqual([]);
    expect(errors).toEqual([]);
  }, 240_000);
});
