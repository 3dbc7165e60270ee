import type { TFunction } from 'i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import { LANGUAGES, type Language } from '../../schemas/constants.js';

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
