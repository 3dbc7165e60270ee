import type { TFunction } from 'i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import { LANGUAGES, type Language } from '../../schemas/constants.js';

/** The interface language as one of ours (English for anything else), for src/format. */
export function languageOf(language: string): Language {
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : 'en';
}

/** Card digits as shown everywhere: `•••• 1234`, or a dash when none are known. */
export function maskedCard(lastFour: string | null | undefined): string {
  return lastFour ? `•••• ${lastFour}` : '—';
}

/** A whole number in the interface language (`1,234`). */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language === 'jp' ? 'ja' : language === 'ch' ? 'zh-CN' : language).format(
    value,
  );
}

/**
 * A failed call in the interface language: the area's text for the server's error code, else the server's
 * own message, else a generic one. Null when nothing failed.
 */
export function problemMessage(
  t: TFunction,
  area: 'guests' | 'profile',
  problem: ApiProblem | null,
): string | null {
  if (!problem) return null;
  // Without an answer (offline) the server said nothing worth showing.
  if (problem.status === null || problem.status === 0) return t(`${area}.errors.unreachable`);
  return t(`${area}.errors.${problem.code}`, {
    defaultValue: problem.message || t(`${area}.errors.unexpected`),
  });
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
