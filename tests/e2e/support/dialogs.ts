import type { Locator, Page } from 'playwright-core';
import { describeViolations, seriousA11yViolations } from './a11y.js';
import { settled } from './pages.js';

/**
 * Runs axe on the page with `dialog` open (once its opening transition has ended) and answers the
 * serious and critical violations as readable lines, '' when there are none, named after the dialog.
 */
export async function dialogViolations(page: Page, dialog: Locator, name: string): Promise<string> {
  await dialog.waitFor();
  await settled(page);
  const violations = describeViolations(await seriousA11yViolations(page));
  return violations === '' ? '' : `${name}:\n${violations}`;
}

/** Closes a dialog with its own close button (which must be named "Close") and waits until it has gone. */
export async function closeDialog(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** The labels of a dialog's fields marked required (the input says so), in the order shown. */
export async function requiredLabels(dialog: Locator): Promise<string[]> {
  return dialog
    .locator('input[required], textarea[required]')
    .evaluateAll((inputs) =>
      inputs.map((input) =>
        (input.id ? (document.querySelector(`label[for="${input.id}"]`)?.textContent ?? '') : '')
          .replace(/\s*\*\s*$/, '')
          .trim(),
      ),
    );
}
