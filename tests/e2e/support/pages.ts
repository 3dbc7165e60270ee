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
    await page
      .waitForFunction(
        () => document.getAnimations().every((animation) => animation.playState !== 'running'),
        null,
        {
          timeout: 2000,
        },
      )
      .catch(() => undefined);
    await page.screenshot({ path: `test-results/e2e-${area}-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A phone's viewport, as the phone-layout checks use it. */
export const PHONE = { width: 390, height: 844 };

/** How far the page scrolls sideways: zero when nothing is wider than the screen. */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });
}
