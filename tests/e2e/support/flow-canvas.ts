import type { Page } from 'playwright-core';

/** Drags a palette entry onto the builder's canvas at a point of the pane (HTML drag and drop, as a mouse does). */
export async function dropStep(page: Page, type: string, at: { x: number; y: number }): Promise<void> {
  await page
    .locator(`[data-palette="${type}"]`)
    .dragTo(page.locator('.react-flow__pane'), { targetPosition: at });
}

/**
 * Draws a link on the canvas with the mouse, in small steps as a hand does: from `source`'s way out (`next`, or a
 * condition's `no`) to the handle on top of `target`.
 */
export async function dragLink(page: Page, source: string, target: string, handle = 'next'): Promise<void> {
  const from = await page.locator(`[data-id="${source}"] [data-handleid="${handle}"]`).boundingBox();
  const to = await page.locator(`[data-id="${target}"] .react-flow__handle.target`).boundingBox();
  if (!from || !to) throw new Error(`no handle to link ${source} to ${target}`);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y + 40, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
}

/** The canvas's nodes (`key:type`) and links (`source:handle`), as drawn, sorted. */
export async function drawnGraph(page: Page): Promise<{ nodes: string[]; edges: string[] }> {
  const nodes = await page
    .locator('[data-node-key]')
    .evaluateAll((all) =>
      all.map((node) => `${node.getAttribute('data-node-key')}:${node.getAttribute('data-node-type')}`),
    );
  const edges = await page
    .locator('.react-flow__edge')
    .evaluateAll((all) =>
      all.map((edge) => edge.getAttribute('data-id') ?? edge.getAttribute('aria-label') ?? ''),
    );
  return { nodes: nodes.sort(), edges: edges.sort() };
}

/** Where each drawn node stands on the page (its box's top-left corner, px), by key. */
export async function nodeBoxes(page: Page): Promise<Record<string, { x: number; y: number }>> {
  const entries = await page.locator('[data-node-key]').evaluateAll((all) =>
    all.map((node) => {
      const box = node.getBoundingClientRect();
      return [
        node.getAttribute('data-node-key') ?? '',
        { x: Math.round(box.x), y: Math.round(box.y) },
      ] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** The builder's flow id, from its address. */
export function flowIdOf(page: Page): number {
  return Number(new URL(page.url()).pathname.split('/').at(-1));
}
