import type { TFunction } from 'i18next';

/** Card digits as shown everywhere: `•••• 1234`, or a dash when none are known. */
export function maskedCard(lastFour: string | null | undefined): string {
  return lastFour ? `•••• ${lastFour}` : '—';
}

const MAX_LENGTH = /\bmust be at most (\d+) characters$/;

/** A field's message (the schemas word them in English after spec section 5) in the interface language. */
export function fieldMessage(t: TFunction, message: string | undefined, label: string): string | undefined {
  if (!message) return undefined;
  const max = MAX_LENGTH.exec(message);
  if (max) return t('profile.validation.tooLong', { name: label, max: Number(max[1]) });
  if (/\bis required$/.test(message)) return t('profile.validation.required', { name: label });
  if (/\bis not valid$/.test(message)) return t('profile.validation.notValid', { name: label });
  return message;
}

/** Field errors in a darker red than Mantine's default, which is below AA contrast on white. */
export const ERROR_STYLES = {
  error: { color: 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))' },
  input: { color: 'var(--mantine-color-text)' },
} as const;

/** A table wider than its panel scrolls; the keyboard can reach it to scroll too (axe: scrollable region). */
export const FOCUSABLE_SCROLL = { viewportProps: { tabIndex: 0 } };
