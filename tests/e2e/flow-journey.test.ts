import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Flow } from '../../src/schemas/flows.js';
import { startSink } from '../support/smtp-sink.js';
import { apiAs } from './support/api.js';
import { openPage } from './support/browser.js';
import { dragLink, drawnGraph, dropStep, flowIdOf } from './support/flow-canvas.js';
import { signIn } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** The demo's platform staff (README, Demo sign-in): only they may move the test clock. */
const SUPPORT = { email: 'support@regulars.example', password: 'regulars-demo' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the issue 16 journey: a welcome flow built in the browser mails a new subscriber on the test clock', () => {
  // The sink must listen before the server starts: its hook runs before the session's.
  const env: Record<string, string> = { MAIL_RATE_PER_SECOND: '1000', TEST_CLOCK: 'true' };
  let sink: Awaited<ReturnType<typeof startSink>>;
  beforeAll(async () => {
    sink = await startSink();
    env.SMTP_URL = sink.url;
  });
  afterAll(async () => sink?.stop());
  const session = signedInSession('/flows', { server: { env } });

  it('drags trigger, wait and email onto the canvas, links them by dragging, publishes, adds a subscriber and sees the welcome email in the sink once the clock has moved a day', async () => {
    const { page, errors } = session.watched;
    const base = session.server.url;
    const api = await apiAs(page, base);

    // Built by dragging: new subscriber → wait 1 day → the welcome starter template.
    await page.goto('/flows/builder/new');
    await page.waitForURL((url) => /^\/flows\/builder\/\d+$/.test(url.pathname));
    const id = flowIdOf(page);
    await page.locator('.react-flow__pane').waitFor();
    const deselect = () => page.locator('.react-flow__pane').click({ position: { x: 20, y: 400 } });
    await dropStep(page, 'new_subscriber', { x: 60, y: 20 });
    await page.locator('[data-node-key="n1"]').waitFor();
    await deselect();
    await dropStep(page, 'wait', { x: 60, y: 170 });
    await page.locator('[data-node-key="n2"]').waitFor();
    await deselect();
    await dropStep(page, 'send_email', { x: 60, y: 320 });
    await page.locator('[data-node-key="n3"]').waitFor();
    expect((await drawnGraph(page)).edges).toEqual([]);
    await dragLink(page, 'n1', 'n2');
    await dragLink(page, 'n2', 'n3');
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next', 'n2:next']);
    // The wait starts at 1 day; the email needs its template and subject.
    await page.locator('[data-node-key="n2"]').getByText('Wait 1 day').waitFor();
    await page.locator('[data-node-key="n3"]').click();
    const panel = page.getByRole('region', { name: 'Step settings' });
    await panel.getByLabel('Template').click();
    await page
      .getByRole('option', { name: /welcome/i })
      .first()
      .click();
    const subject = `Welcome aboard ${Date.now()}`;
    await panel.getByLabel('Subject').fill(subject);
    await expect
      .poll(() => page.locator('[data-problem-count]').getAttribute('data-problem-count'))
      .toBe('0');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Version 1').waitFor();
    const published = await api<Flow>(`/campaigns/flows/${id}/`);
    expect(published.status).toBe('live');
    expect(
      published.items.map((item) => `${item.key}:${item.settings.type}>${item.next_key ?? '-'}`).sort(),
    ).toEqual(['n1:new_subscriber>n2', 'n2:wait>n3', 'n3:send_email>-']);

    // A subscriber added through the subscribers page.
    const email = `flow.journey.${Date.now()}@example.com`;
    await page.goto('/subscribers');
    await page.getByRole('button', { name: 'Add subscriber' }).click();
    const add = page.getByRole('dialog', { name: 'Add a subscriber' });
    await add.getByRole('textbox', { name: 'Email' }).fill(email);
    await add.getByLabel('First name', { exact: true }).fill('Journey');
    await add.getByRole('button', { name: 'Add subscriber' }).click();
    await add.waitFor({ state: 'hidden' });

    // Nothing yet: the wait holds the email for a day.
    await sleep(5000);
    expect(sink.received.filter((mail) => mail.to.includes(email))).toEqual([]);

    // Platform staff move the test clock: a day, then (quiet hours 21:00–08:00 hold an email due at night)
    // three hours at a time until it arrives, a day more at most.
    const staff = await openPage(session.browser, base);
    try {
      await staff.page.goto('/hijack');
      await signIn(staff.page, SUPPORT);
      await staff.page.waitForURL((url) => url.pathname === '/hijack');
      const asStaff = await apiAs(staff.page, base);
      let moved = await asStaff<{ offset_seconds: number }>('/test/clock/', { advance_seconds: 86_400 });
      expect(moved.offset_seconds).toBe(86_400);
      const arrived = () => sink.received.filter((mail) => mail.to.includes(email));
      for (let step = 0; step <= 8 && arrived().length === 0; step += 1) {
        if (step > 0) moved = await asStaff('/test/clock/', { advance_seconds: 3 * 3600 });
        const until = Date.now() + 20_000;
        while (arrived().length === 0 && Date.now() < until) await sleep(500);
      }
      expect(arrived(), `the welcome email to ${email} (clock ${moved.offset_seconds} s ahead)`).toHaveLength(
        1,
      );
      expect(arrived()[0]!.data).toContain(subject);
    } finally {
      await staff.close();
    }
    expect(errors.filter((error) => !error.includes('/node-counts/'))).toEqual([]);
  });
});
