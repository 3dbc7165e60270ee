import type { FrameLocator, Locator, Page } from 'playwright-core';
import { settled } from './pages.js';

/** The canvas frame of the email template editor. */
export const canvasOf = (page: Page): FrameLocator => page.frameLocator('iframe.gjs-frame');

/**
 * Drags a block of the template editor's panel onto `target` (inside the canvas frame) with the mouse, in small
 * steps so the browser's drag and drop and GrapesJS's sorter see every move, then waits for the canvas to settle.
 */
export async function dragBlock(page: Page, blockId: string, target: Locator, offsetY = 0.5): Promise<void> {
  // Measured once the layout stands still: pressed while the sidebar slides in, the press lands on a nav link.
  await settled(page);
  const block = page.locator(`[data-block="${blockId}"]`);
  await block.scrollIntoViewIfNeeded();
  const from = (await block.boundingBox())!;
  const to = (await target.boundingBox())!;
  const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
  const end = { x: to.x + to.width / 2, y: to.y + to.height * offsetY };
  // A press on anything else (a link, say) would drag that into the canvas instead.
  const pressesTheBlock = await page.evaluate(
    ({ x, y, id }) => document.elementFromPoint(x, y)?.closest(`[data-block="${id}"]`) != null,
    { ...start, id: blockId },
  );
  if (!pressesTheBlock) throw new Error(`dragBlock: the point pressed is not on the ${blockId} block`);
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

/**
 * On the empty editor (`/editor-template`, already open): a one-column section into the body, a second text
 * block into its column, then a button at the end, each checked on the canvas.
 */
export async function dragStarterBlocks(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'New email template' }).waitFor();
  await page.locator('[data-block="section-1"]').waitFor();
  const canvas = canvasOf(page);
  await canvas.locator('body').waitFor();
  await dragBlock(page, 'section-1', page.locator('iframe.gjs-frame'), 0.1);
  const firstText = canvas.getByText('Write your message here.').first();
  await firstText.waitFor();
  await dragBlock(page, 'text', firstText, 0.3);
  await canvas.getByText('Write your message here.').nth(1).waitFor();
  await dragBlock(page, 'button', page.locator('iframe.gjs-frame'), 0.9);
  await canvas.getByText('Book a table').waitFor();
}
