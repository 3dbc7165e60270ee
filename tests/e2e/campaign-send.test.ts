import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { Subscriber } from '../../src/schemas/subscribers.js';
import { startSink, type ReceivedMail } from '../support/smtp-sink.js';
import { apiAs, type ApiCaller } from './support/api.js';
import { dragStarterBlocks } from './support/editor.js';
import { screenshots } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** A received message's header, unfolded (`null` when it has none). */
function header(mail: ReceivedMail, name: string): string | null {
  const head = mail.data.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((entry) => entry.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? null : line.slice(name.length + 1).trim();
}

/** Every item of a paged list call, following its `next` links. */
async function allPages<T>(api: ApiCaller, first: string): Promise<T[]> {
  const items: T[] = [];
  let path: string | null = first;
  while (path !== null) {
    const page: { results: T[]; next: string | null } = await api(path);
    items.push(...page.results);
    if (page.next === null) break;
    const next = new URL(page.next, 'http://local');
    path = `${next.pathname.replace(/^\/api/, '')}${next.search}`;
  }
  return items;
}

/** Each envelope recipient's count among `mails`. */
function countsByRecipient(mails: readonly ReceivedMail[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of mails) for (const to of mail.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}

/** Waits until the campaign editor's progress says Sent, and answers its figures. */
async function sentFigures(page: Page): Promise<Record<'sent' | 'failed' | 'suppressed' | 'queued', number>> {
  await page.locator('.mantine-Badge-root', { hasText: /^Sent$/ }).waitFor({ timeout: 180_000 });
  const figure = async (key: string) =>
    Number((await page.getByTestId(`progress-${key}`).innerText()).replace(/[^\d]/g, ''));
  return {
    sent: await figure('sent'),
    failed: await figure('failed'),
    suppressed: await figure('suppressed'),
    queued: await figure('queued'),
  };
}

/** From the open campaign editor's first step, through Content and Schedule, to the confirmed Send now. */
async function sendFromEditor(page: Page, recipients: number): Promise<void> {
  await page.getByRole('button', { name: 'Save and continue to Content' }).click();
  await page.getByRole('button', { name: 'Save and continue to Schedule' }).click();
  await page.getByText('Sends as soon as you press Send now on the review step.').waitFor();
  await page.getByRole('button', { name: 'Save and continue to Review' }).click();
  await page.getByRole('button', { name: 'Send now' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send now' });
  await confirm.getByText(`to ${recipients.toLocaleString('en-US')} recipients`).waitFor();
  await confirm.getByRole('button', { name: 'Send now' }).click();
}

describe('a campaign sent to a real SMTP sink', () => {
  // The sink must listen before the server starts: its hook runs before the session's.
  const env: Record<string, string> = { MAIL_RATE_PER_SECOND: '1000' };
  let sink: Awaited<ReturnType<typeof startSink>>;
  beforeAll(async () => {
    sink = await startSink();
    env.SMTP_URL = sink.url;
  });
  afterAll(async () => sink?.stop());
  const session = signedInSession('/editor-template', { server: { env } });

  it('builds a template, test-sends, sends to a segment with both List-Unsubscribe headers, and leaves the one-click unsubscriber out of the next send', async () => {
    const { page, errors } = session.watched;
    const base = session.server.url;
    const api = await apiAs(page, base);

    // A template dragged together in GrapesJS and saved.
    await dragStarterBlocks(page);
    const templateName = `Send journey ${Date.now()}`;
    await page.getByLabel('Template name').fill(templateName);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/editor-template\/\d+$/);

    // A small segment whose audience nobody on the suppression list shares, so every member must get the mail.
    const segments = await allPages<{ id: number; name: string }>(api, '/campaigns/segments/?page_size=100');
    const counted = await Promise.all(
      segments.map(async (entry) => ({
        ...entry,
        ...(await api<{ recipients: number; suppressed: number }>('/campaigns/audience-count/', {
          segment_ids: [entry.id],
        })),
      })),
    );
    const segment = counted
      .filter((entry) => entry.recipients >= 2 && entry.suppressed === 0)
      .sort((a, b) => a.recipients - b.recipients)[0]!;
    expect(segment, 'a demo segment with two or more recipients and no suppressed member').toBeDefined();

    // The expected recipients, worked out apart from the campaign code: the segment's member guests, then the
    // subscribed subscribers linked to them.
    const members = await allPages<{ id: number }>(
      api,
      `/campaigns/segments/${segment.id}/subscribers/?page_size=500`,
    );
    const memberIds = new Set(members.map((guest) => guest.id));
    const subscribers = await allPages<Subscriber>(api, '/subscriptions/subscribers/?page_size=500');
    const audience = subscribers.filter(
      (entry) => entry.subscribed && entry.guest_id !== null && memberIds.has(entry.guest_id),
    );
    const expected = new Set(audience.map((entry) => entry.email.toLowerCase()));
    const firstNames = new Map(audience.map((entry) => [entry.email.toLowerCase(), entry.first_name]));
    expect(expected.size).toBe(segment.recipients);

    // The campaign: audience, then content with the new template and the verified sender.
    await page.goto('/campaigns/new');
    const campaignName = `Send journey ${Date.now()}`;
    await page.getByLabel('Campaign name').fill(campaignName);
    await page.locator('.mantine-MultiSelect-inputField').first().click();
    await page.getByRole('listbox').getByRole('option', { name: segment.name, exact: true }).click();
    await page.keyboard.press('Tab');
    const shown = page.getByTestId('audience-recipients');
    await shown.waitFor({ timeout: 30_000 });
    expect(Number((await shown.innerText()).replace(/[^\d]/g, ''))).toBe(expected.size);
    await page.getByRole('button', { name: 'Save and continue to Content' }).click();
    await page.waitForURL((url) => /^\/campaigns\/\d+$/.test(url.pathname));
    await page.locator('.mantine-Select-input').nth(0).click();
    await page.getByRole('listbox').getByRole('option', { name: templateName, exact: true }).click();
    await page.keyboard.press('Tab');
    await page.getByTitle('Preview of the chosen template').waitFor({ timeout: 30_000 });
    await page.getByLabel('Subject').fill('Spring evenings, {{first_name}}');
    await page.locator('.mantine-Select-input').nth(1).click();
    await page.getByRole('listbox').getByRole('option', { disabled: false }).first().click();
    await page.keyboard.press('Tab');

    // A test send reaches the sink, marked [Test].
    await page.getByRole('button', { name: 'Send a test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a test email' });
    await dialog.getByLabel('Email addresses').fill('chef@example.test');
    await dialog.getByRole('button', { name: 'Send test' }).click();
    await dialog.getByText('Test sent to 1 addresses.').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    expect(sink.received).toHaveLength(1);
    expect(sink.received[0]!.to).toEqual(['chef@example.test']);
    expect(header(sink.received[0]!, 'Subject')).toMatch(/^\[Test\] Spring evenings, /);

    // The send: back to the first step, then through every step to Send now.
    await page.getByRole('button', { name: 'Save and continue to Schedule' }).click();
    await page.getByText('Sends as soon as you press Send now on the review step.').waitFor();
    await page.getByRole('button', { name: 'Save and continue to Review' }).click();
    await page.getByRole('button', { name: 'Send now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send now' });
    await confirm.getByText(`to ${expected.size.toLocaleString('en-US')} recipients`).waitFor();
    await confirm.getByRole('button', { name: 'Send now' }).click();
    expect(await sentFigures(page)).toEqual({ sent: expected.size, failed: 0, suppressed: 0, queued: 0 });
    await page.getByTestId('progress-done').getByText(`${expected.size} of ${expected.size}`).waitFor();
    await screenshots(page, 'campaign-send', 'sent');

    // The sink got each expected recipient exactly once, each message with both compliance headers.
    const first = sink.received.slice(1);
    expect(Object.fromEntries(countsByRecipient(first))).toEqual(
      Object.fromEntries([...expected].map((email) => [email, 1])),
    );
    const oneClick: string[] = [];
    for (const mail of first) {
      const listUnsubscribe = header(mail, 'List-Unsubscribe') ?? '';
      const match = /^<(https?:\/\/[^>]+\/u\/[A-Za-z0-9_-]{43})>, <(mailto:[^>]+)>$/.exec(listUnsubscribe);
      expect(match, listUnsubscribe).not.toBeNull();
      expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      // The subject's merge tag filled for this recipient.
      expect((await simpleParser(mail.data)).subject).toBe(`Spring evenings, ${firstNames.get(mail.to[0]!)}`);
      oneClick.push(match![1]!);
    }
    expect(new Set(oneClick).size).toBe(expected.size);

    // One-click, as a mail client does it: a bare POST, no cookies, no sign-in.
    const leaver = first[0]!.to[0]!;
    const answer = await fetch(oneClick[0]!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(answer.status).toBe(200);
    const page200 = await answer.text();
    expect(page200).toContain('You are unsubscribed');
    const after = await allPages<Subscriber>(
      api,
      `/subscriptions/subscribers/?page_size=500&q=${encodeURIComponent(leaver)}`,
    );
    expect(after.find((entry) => entry.email.toLowerCase() === leaver)?.subscribed).toBe(false);

    // The same campaign again, as a copy: everyone but the leaver gets it, once.
    await page.goto('/campaigns');
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await page.getByLabel('Search campaigns').fill(campaignName);
    await page.getByRole('button', { name: `Duplicate ${campaignName}`, exact: true }).click();
    await page.getByText(`Copied as "Copy of ${campaignName}" (a draft).`).waitFor();
    await page.getByRole('button', { name: `Open Copy of ${campaignName}`, exact: true }).click();
    await page.waitForURL((url) => /^\/campaigns\/\d+$/.test(url.pathname));
    const before = sink.received.length;
    await sendFromEditor(page, expected.size - 1);
    expect(await sentFigures(page)).toEqual({ sent: expected.size - 1, failed: 0, suppressed: 0, queued: 0 });
    const second = sink.received.slice(before);
    expect(Object.fromEntries(countsByRecipient(second))).toEqual(
      Object.fromEntries([...expected].filter((email) => email !== leaver).map((email) => [email, 1])),
    );
    await screenshots(page, 'campaign-send', 'second');
    expect(errors).toEqual([]);
  }, 420_000);
});
