import { LANGUAGES, type Language } from '../../schemas/constants.js';

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
