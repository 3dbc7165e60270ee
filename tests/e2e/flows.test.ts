import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Flow } from '../../src/schemas/flows.js';
import { describeViolations, seriousA11yViolations } from './support/a11y.js';
import { apiAs } from './support/api.js';
import { openPage } from './support/browser.js';
import { dragLink, drawnGraph, dropStep, flowIdOf, nodeBoxes } from './support/flow-canvas.js';
import { PHONE, screenshots, settled, signIn, sidewaysOverflow } from './support/pages.js';
import { signedInSession } from './support/session.js';

/** Opens a new draft in the builder and waits for its empty canvas. */
async function newDraft(page: Page): Promise<number> {
  await page.goto('/flows/builder/new');
  await page.waitForURL((url) => /^\/flows\/builder\/\d+$/.test(url.pathname));
  await page.locator('.react-flow__pane').waitFor();
  return flowIdOf(page);
}

describe('flows in a browser', () => {
  const session = signedInSession('/flows');

  it('builds a flow by dragging and adding steps, sets them, saves, reloads the same graph and publishes it', async () => {
    const { page, errors } = session.watched;
    await page.getByRole('heading', { name: 'Flows' }).waitFor();
    // The demo's welcome flow is listed with its state.
    await page.getByRole('cell', { name: 'Welcome new guests', exact: true }).waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'flows', 'list');

    await page.getByRole('button', { name: 'New flow' }).first().click();
    await page.getByRole('dialog').getByLabel('Name').fill('Journey welcome');
    await page.getByRole('button', { name: 'Create and open' }).click();
    await page.waitForURL((url) => /^\/flows\/builder\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Journey welcome' }).waitFor();
    await expect
      .poll(() => page.locator('[data-problem-count]').getAttribute('data-problem-count'))
      .toBe('1');

    await dropStep(page, 'first_visit', { x: 120, y: 40 });
    await page.locator('[data-node-key="n1"]').waitFor();
    // A click adds below the selected step (the trigger just dropped), linked from it.
    await page.locator('[data-palette="wait"]').click();
    await page.locator('[data-node-key="n2"]').waitFor();
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next']);
    // With the delay selected, the email goes below it, linked.
    await page.locator('[data-palette="send_email"]').click();
    await page.locator('[data-node-key="n3"]').waitFor();
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next', 'n2:next']);

    // The email has no template yet: its problem shows until one is chosen and a subject written.
    const email = page.locator('[data-node-key="n3"]');
    await expect.poll(() => email.getAttribute('data-problems')).toBe('missing_template missing_subject');
    await email.click();
    const panel = page.getByRole('region', { name: 'Step settings' });
    await panel.getByLabel('Template').click();
    await page.getByRole('listbox').getByRole('option').first().click();
    await panel.getByLabel('Subject').fill('Welcome to Harbor & Vine');
    await expect.poll(() => email.getAttribute('data-problems')).toBe('');
    await expect(email.locator('[data-problem]').count()).resolves.toBe(0);

    // The delay: three days instead of one.
    await page.locator('[data-node-key="n2"]').click();
    await panel.getByLabel('How long').fill('3');
    await page.locator('[data-node-key="n2"]').getByText('Wait 3 days').waitFor();
    expect(describeViolations(await seriousA11yViolations(page))).toBe('');
    await screenshots(page, 'flows', 'builder');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    const before = await drawnGraph(page);
    expect(before.nodes).toEqual(['n1:first_visit', 'n2:wait', 'n3:send_email']);

    await page.reload();
    await page.locator('[data-node-key="n3"]').waitFor();
    await expect.poll(async () => (await drawnGraph(page)).edges.length).toBe(2);
    expect(await drawnGraph(page)).toEqual(before);
    await page.locator('[data-node-key="n2"]').getByText('Wait 3 days').waitFor();

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Live', { exact: true }).first().waitFor();
    await page.getByText('Version 1').waitFor();

    await page.setViewportSize(PHONE);
    // Polled: the builder's panels reflow after the resize (it read 414 px once on a busy machine).
    await expect.poll(() => sidewaysOverflow(page)).toBe(0);
    // The per-node counts come with the engine; until then their call answers 404, and the canvas shows none.
    expect(errors.filter((error) => !error.includes('/node-counts/'))).toEqual([]);
  });

  it('links steps by dragging from handle to handle and onto a step, and tidies up into a fitted column that is saved and fitted again on a resize until panned', async () => {
    const { page, errors } = session.watched;
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await newDraft(page);
    const api = await apiAs(page, session.server.url);

    await dropStep(page, 'new_subscriber', { x: 60, y: 30 });
    await page.locator('[data-node-key="n1"]').waitFor();
    // Nothing selected, so the next drops are not linked to anything.
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 380 } });
    await dropStep(page, 'wait', { x: 330, y: 120 });
    await page.locator('.react-flow__pane').click({ position: { x: 20, y: 380 } });
    await dropStep(page, 'exit', { x: 60, y: 260 });
    await page.locator('[data-node-key="n3"]').waitFor();
    expect((await drawnGraph(page)).edges).toEqual([]);

    // Handle to handle.
    await dragLink(page, 'n1', 'n2');
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next']);
    // Onto the step's body rather than its small handle.
    const from = (await page.locator('[data-id="n2"] [data-handleid="next"]').boundingBox())!;
    const body = (await page.locator('[data-node-key="n3"]').boundingBox())!;
    await page.mouse.move(from.x + 6, from.y + 6);
    await page.mouse.down();
    await page.mouse.move(from.x + 20, from.y + 60, { steps: 5 });
    await page.mouse.move(body.x + body.width / 2, body.y + body.height / 2 + 10, { steps: 10 });
    await page.mouse.up();
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next', 'n2:next']);

    // Tidy up: the nodes move into ELK's column, top to bottom along the links, and all are in view.
    const before = await nodeBoxes(page);
    await page.getByRole('button', { name: 'Tidy up' }).click();
    await expect.poll(async () => JSON.stringify(await nodeBoxes(page))).not.toBe(JSON.stringify(before));
    const pane = (await page.locator('.react-flow').boundingBox())!;
    await expect
      .poll(async () =>
        Object.values(await nodeBoxes(page)).every(
          (box) =>
            box.x >= pane.x && box.y >= pane.y && box.x < pane.x + pane.width && box.y < pane.y + pane.height,
        ),
      )
      .toBe(true);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    const saved = await api<Flow>(`/campaigns/flows/${id}/`);
    const byKey = Object.fromEntries(saved.items.map((item) => [item.key, item]));
    expect(byKey.n1!.next_key).toBe('n2');
    expect(byKey.n2!.next_key).toBe('n3');
    // Laid out top to bottom, in one column (no branch), away from where they were dropped.
    expect(byKey.n1!.position.y).toBeLessThan(byKey.n2!.position.y);
    expect(byKey.n2!.position.y).toBeLessThan(byKey.n3!.position.y);
    expect(new Set(saved.items.map((item) => item.position.x)).size).toBe(1);
    await screenshots(page, 'flows', 'tidied');

    // A phone-sized window: the view, not moved by hand, is fitted again to the smaller canvas.
    const allInView = async () => {
      const canvas = (await page.locator('.react-flow').boundingBox())!;
      const boxes = Object.values(await nodeBoxes(page));
      return (
        boxes.length === 3 &&
        boxes.every(
          (box) =>
            box.x >= canvas.x &&
            box.y >= canvas.y &&
            box.x < canvas.x + canvas.width &&
            box.y < canvas.y + canvas.height,
        )
      );
    };
    const viewport = () => page.locator('.react-flow__viewport').getAttribute('style');
    const wide = await viewport();
    await page.setViewportSize(PHONE);
    await expect.poll(viewport).not.toBe(wide);
    await expect.poll(allInView).toBe(true);
    // Once the user pans, a resize leaves their view alone. The phone layout's sidebar slides away first:
    // a press while it still moved could land on it, and the view would not pan at all.
    await settled(page);
    const fitted = await viewport();
    const canvas = (await page.locator('.react-flow__pane').boundingBox())!;
    const press = { x: canvas.x + canvas.width - 12, y: canvas.y + 12 };
    expect(
      await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.classList.contains('react-flow__pane'),
        press,
      ),
    ).toBe(true);
    await page.mouse.move(press.x, press.y);
    await page.mouse.down();
    await page.mouse.move(canvas.x + canvas.width - 80, canvas.y + 60, { steps: 5 });
    await page.mouse.up();
    await expect.poll(viewport).not.toBe(fitted);
    const panned = await viewport();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(500);
    expect(await viewport()).toBe(panned);
    expect(errors.filter((error) => !error.includes('/node-counts/'))).toEqual([]);
  });

  it('adds, selects, moves, links, deletes, undoes and redoes from the keyboard alone', async () => {
    const { page, errors } = session.watched;
    await page.setViewportSize({ width: 1280, height: 800 });
    const id = await newDraft(page);
    const api = await apiAs(page, session.server.url);
    const canvas = page.getByRole('application', { name: 'Flow canvas' });

    // Adding: a palette entry takes Enter; each new step goes below the selected one, linked.
    await page.locator('[data-palette="new_subscriber"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-node-key="n1"]').waitFor();
    await page.locator('[data-palette="wait"]').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-palette="exit"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next', 'n2:next']);

    // Selecting: arrows walk along the links.
    await canvas.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.locator('.react-flow__node.selected').getAttribute('data-id')).toBe('n1');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('.react-flow__node.selected').getAttribute('data-id')).toBe('n2');

    // Moving: Shift+arrows, 20 px a press (from where it was saved).
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    const start = (await api<Flow>(`/campaigns/flows/${id}/`)).items;
    await canvas.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');

    // Deleting the exit (Delete), then undoing and redoing it.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('.react-flow__node.selected').getAttribute('data-id')).toBe('n3');
    await page.keyboard.press('Delete');
    await expect.poll(async () => (await drawnGraph(page)).nodes).toEqual(['n1:new_subscriber', 'n2:wait']);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await drawnGraph(page)).nodes).toHaveLength(3);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await drawnGraph(page)).nodes).toHaveLength(2);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next', 'n2:next']);

    // Linking: unlink the wait in its settings (Enter opens them), then link it again from there. The undone
    // delete left nothing selected, so the first arrow picks the first step.
    await canvas.focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.locator('.react-flow__node.selected').getAttribute('data-id')).toBe('n1');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('.react-flow__node.selected').getAttribute('data-id')).toBe('n2');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Step settings' });
    const thenGoTo = panel.getByRole('combobox', { name: 'Then go to' });
    await thenGoTo.focus();
    expect(await thenGoTo.inputValue()).toMatch(/^Exit/);
    // "Nowhere" (first) unlinks; the exit again links.
    await thenGoTo.press('ArrowDown');
    await page.getByRole('option', { name: /^Nowhere/ }).waitFor();
    await thenGoTo.press('ArrowUp');
    await thenGoTo.press('Enter');
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next']);
    await thenGoTo.press('ArrowDown');
    await page.getByRole('option', { name: /^Exit/ }).waitFor();
    await thenGoTo.press('ArrowDown');
    await thenGoTo.press('Enter');
    await expect.poll(async () => (await drawnGraph(page)).edges).toEqual(['n1:next', 'n2:next']);

    // Saved: the links, and the wait 40 px right and 20 px down of where it was added.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('All changes saved').waitFor();
    const saved = Object.fromEntries(
      (await api<Flow>(`/campaigns/flows/${id}/`)).items.map((i) => [i.key, i]),
    );
    const added = Object.fromEntries(start.map((item) => [item.key, item]));
    expect(saved.n1!.next_key).toBe('n2');
    expect(saved.n2!.next_key).toBe('n3');
    expect(saved.n3!.settings.type).toBe('exit');
    expect(saved.n2!.position).toEqual({ x: added.n2!.position.x + 40, y: added.n2!.position.y + 20 });
    expect(errors.filter((error) => !error.includes('/node-counts/'))).toEqual([]);
  });

  it('shows "not found" for an address naming no flow without asking the server and for an unknown id, and gives an analyst a read-only canvas', async () => {
    const { page, errors } = session.watched;
    const flowCalls: string[] = [];
    const count = (request: { url(): string }) => {
      if (request.url().includes('/api/campaigns/flows/')) flowCalls.push(request.url());
    };
    page.on('request', count);
    await page.goto('/flows/builder/abc');
    await page.getByText('Page not found').first().waitFor();
    await page.waitForTimeout(1500);
    page.off('request', count);
    expect(flowCalls).toEqual([]);
    // A number naming no flow is asked for, answered 404, and reads the same.
    await page.goto('/flows/builder/987654321');
    await page.getByText('Page not found').first().waitFor();
    expect(await page.getByText('The flow could not be loaded').count()).toBe(0);
    // The browser reports the expected 404 on its console.
    errors.splice(0, errors.length, ...errors.filter((error) => !error.includes('/flows/987654321/')));

    // An analyst, added by the owner.
    const analyst = { email: 'e2e.flow.analyst@harborvine.example', password: 'analyst-password-1' };
    await page.goto('/account');
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Add user' }).click();
    const create = page.getByRole('dialog', { name: 'Add a user' });
    await create.getByLabel('Email').fill(analyst.email);
    await create.getByLabel('First password').fill(analyst.password);
    await create.getByLabel(/^Role/).first().click();
    await page.getByRole('option', { name: 'Analyst' }).click();
    await create.getByRole('button', { name: 'Add user' }).click();
    await page.getByText('The user is added.').waitFor();
    const flows = await (
      await apiAs(page, session.server.url)
    )<{ results: { id: number; name: string }[] }>('/campaigns/flows/?page_size=100');
    const welcome = flows.results.find((flow) => flow.name === 'Welcome new guests')!;

    const reader = await openPage(session.browser, session.server.url);
    try {
      const posts: string[] = [];
      reader.page.on('request', (request) => {
        if (request.method() !== 'GET' && request.url().includes('/api/campaigns/flows/'))
          posts.push(request.url());
      });
      await reader.page.goto('/flows/builder/new');
      await signIn(reader.page, analyst);
      await reader.page.waitForURL((url) => url.pathname === '/flows/builder/new');
      await reader.page.getByText('Access denied').first().waitFor();
      await reader.page.goto(`/flows/builder/${welcome.id}`);
      await reader.page.locator('[data-node-key]').first().waitFor();
      await reader.page.getByText('Your role can look at this flow but not change it.').waitFor();
      expect(await reader.page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
      expect(await reader.page.locator('[data-palette="wait"]').isDisabled()).toBe(true);
      await reader.page.locator('[data-palette="wait"]').dispatchEvent('click');
      const first = reader.page.locator('[data-node-key]').first();
      await first.click();
      await reader.page.getByRole('application', { name: 'Flow canvas' }).focus();
      await reader.page.keyboard.press('Delete');
      await reader.page.keyboard.press('Control+z');
      expect(await reader.page.locator('[data-node-key]').count()).toBe(
        (await storedFlow(reader.page, session.server.url, welcome.id)).items.length,
      );
      expect(await reader.page.getByRole('button', { name: 'Delete step' }).isDisabled()).toBe(true);
      expect(await reader.page.locator('.react-flow__handle.connectable').count()).toBe(0);
      expect(posts).toEqual([]);
    } finally {
      await reader.close();
    }
    expect(errors.filter((error) => !error.includes('/node-counts/'))).toEqual([]);
  });

  it('lines the row actions up on drafts and on live or paused flows, desktop and phone', async () => {
    const { page, errors } = session.watched;
    const api = await apiAs(page, session.server.url);
    const flows = await api<{ results: { name: string; status: string }[] }>(
      '/campaigns/flows/?page_size=100',
    );
    // The earlier tests left drafts and live flows.
    const statuses = flows.results.map((flow) => flow.status);
    expect(statuses).toContain('draft');
    expect(statuses).toContain('live');
    await page.goto('/flows');
    for (const viewport of [{ width: 1440, height: 900 }, PHONE]) {
      await page.setViewportSize(viewport);
      await page
        .getByRole('button', { name: /^Delete / })
        .first()
        .waitFor();
      for (const name of [/^Open /, /^Duplicate /, /^Delete /]) {
        // Polled: the table becomes cards after the resize, and buttons move until that settles.
        await expect
          .poll(
            async () => {
              // Within the page's body: on a phone the header's menu button is also "Open …".
              const buttons = await page.getByRole('main').getByRole('button', { name }).all();
              const lefts = new Set<number>();
              for (const button of buttons) {
                // Each row's button stands as far from its own row's Open as on every other row.
                const row = button.locator(
                  'xpath=ancestor::*[.//button[starts-with(@aria-label, "Open ")]][1]',
                );
                const open = (await row.getByRole('button', { name: /^Open / }).boundingBox())!;
                lefts.add(Math.round((await button.boundingBox())!.x - open.x));
              }
              return [...lefts];
            },
            { message: `${String(name)} at ${viewport.width}px` },
          )
          .toHaveLength(1);
      }
    }
    await screenshots(page, 'flows', 'list-actions');
    expect(errors.filter((error) => !error.includes('/node-counts/'))).toEqual([]);
  });
});

/** The flow as the API has it, read with the page's token. */
async function storedFlow(page: Page, base: string, id: number): Promise<Flow> {
  return (await apiAs(page, base))<Flow>(`/campaigns/flows/${id}/`);
}
