import type { TFunction } from 'i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import { LANGUAGES, type Language } from '../../schemas/constants.js';

// The schemas and the server word field messages in English (spec section 5); each pattern maps to
// the same message in the interface language, named by the translated label of its field.
const PATTERNS: readonly { pattern: RegExp; key: string }[] = [
  { pattern: /\bis required$/, key: 'required' },
  { pattern: /\bis not valid$/, key: 'notValid' },
  { pattern: /\bmust be at most \d+ characters$/, key: 'tooLong' },
];

/** The message next to a field in the interface language, or undefined when the field is fine. */
export function fieldMessage(t: TFunction, message: string | undefined, label: string): string | undefined {
  if (!message) return undefined;
  const known = PATTERNS.find(({ pattern }) => pattern.test(message));
  return known ? t(`locations.validation.${known.key}`, { name: label }) : message;
}

/** A failed call in the interface language, or null when nothing failed. */
export function problemMessage(t: TFunction, problem: ApiProblem | null): string | null {
  if (!problem) return null;
  return t(`locations.errors.${problem.code}`, {
    defaultValue: problem.message || t('locations.errors.unexpected'),
  });
}

/** True when the problem is told next to fields rather than above the form. */
export function hasFieldMessages(problem: ApiProblem | null): boolean {
  return problem !== null && Object.keys(problem.fields).length > 0;
}

const LOCALES: Record<Language, string> = {
  en: 'en-US',
  ch: 'zh-CN',
  es: 'es-ES',
  jp: 'ja-JP',
  de: 'de-DE',
  fr: 'fr-FR',
};

/** The BCP 47 locale of an interface language. */
export function localeOf(language: string): string {
  return (LANGUAGES as readonly string[]).includes(language) ? LOCALES[language as Language] : 'en-US';
}

/** Dollars with a dollar sign, thousands separators and 2 decimals (`$12,345.60`). */
export function formatMoney(amount: number, language: string): string {
  return new Intl.NumberFormat(localeOf(language), {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(amount);
}
