import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';

/** The demo company's owner (see README, Demo sign-in). */
export const DEMO_OWNER = { email: 'owner@harborvine.example', password: 'regulars-demo' };

/** Signs in at the provider's form, after the app has sent the browser there. */
export async function signIn(
  page: Page,
  user: { email: string; password: string } = DEMO_OWNER,
): Promise<void> {
  await page.waitForURL(/\/oidc\/interaction\//);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Waits until no finite animation runs on the page (endless ones, such as a loader's spin, are let be): a
 * dialog checked halfway through its fade reads blended colours, and a block measured while the sidebar
 * slides in is pressed where the sidebar's links then are. Gives up after five seconds.
 */
export async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every(
            (animation) =>
              animation.playState !== 'running' ||
              animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      null,
      { timeout: 5000 },
    )
    .catch(() => undefined);
  // Mantine's transitions are CSS transitions on inline styles: give the last frame a moment too.
  await page.waitForTimeout(250);
}

/**
 * Takes the page at both sizes the design names (desktop and phone) into
 * `test-results/e2e-<area>-<name>-<size>.png`, then returns to the tests' usual size.
 */
export async function screenshots(page: Page, area: string, name: string): Promise<void> {
  await mkdir('test-results', { recursive: true });
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    // The shell slides its sidebar on a resize: shoot once the slide has ended, not halfway.
    await settled(page);
    await page.screenshot({ path: `test-results/e2e-${area}-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // The next step measures or presses where things are once the sidebar is back in place.
  await settled(page);
}

/** A phone's viewport, as the phone-layout checks use it. */
export const PHONE = { width: 390, height: 844 };

/**
 * How far the page scrolls sideways once it stands still (a sidebar sliding out after a resize is wider for a
 * moment): zero when nothing is wider than the screen.
 */
export async function sidewaysOverflow(page: Page): Promise<number> {
  await settled(page);
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
}
