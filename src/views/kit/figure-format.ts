import { formatCount, formatCurrency, formatPercent, languageOf } from '../../format/index.js';

/** How a dashboard figure is written. */
export type FigureFormat = 'currency' | 'count' | 'percent' | 'decimal' | 'days';

/** The locale numbers are written in for each interface language (as src/format does for counts). */
const DECIMAL_LOCALES = {
  en: 'en-US',
  ch: 'zh-CN',
  es: 'es-ES',
  jp: 'ja-JP',
  de: 'de-DE',
  fr: 'fr-FR',
} as const;

/** The unit after a number of days in each language (one day, several days). */
const DAY_UNITS = {
  en: ['day', 'days'],
  ch: ['天', '天'],
  es: ['día', 'días'],
  jp: ['日', '日'],
  de: ['Tag', 'Tage'],
  fr: ['jour', 'jours'],
} as const;

/**
 * A dashboard figure as spec §9 writes it: currency `$1,234.50` and percentages `12.50%` the same in every
 * language (src/format); counts, decimals (two places) and days with the language's separators. An empty value
 * (null or not a number) is '' — and '0%' for a percentage, a rate of nothing having happened.
 */
export function formatFigure(
  value: number | null | undefined,
  format: FigureFormat,
  language: string,
): string {
  const number = value === null || value === undefined || !Number.isFinite(value) ? null : value;
  if (format === 'currency') return formatCurrency(number);
  if (format === 'percent') return formatPercent(number, { empty: 'zero' });
  if (number === null) return '';
  const lang = languageOf(language);
  if (format === 'count') return formatCount(Math.round(number), lang);
  const decimal = new Intl.NumberFormat(DECIMAL_LOCALES[lang], {
    minimumFractionDigits: format === 'days' ? 0 : 2,
    maximumFractionDigits: format === 'days' ? 1 : 2,
  }).format(number);
  if (format === 'decimal') return decimal;
  const [one, many] = DAY_UNITS[lang];
  const unit = number === 1 ? one : many;
  // Chinese and Japanese write the unit right after the number.
  return lang === 'ch' || lang === 'jp' ? `${decimal}${unit}` : `${decimal} ${unit}`;
}

/** A currency axis label, short so a phone's narrow chart keeps its ticks apart: `$150K`, `$1.2M`, `$950`. */
export function formatCurrencyTick(value: number | string): string {
  const number = Number(value);
  if (!Number.isFinite(number)) return '';
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(number);
}

/** A count on a distribution's axis whose last bucket holds everything from `top` on: `10+`. */
export function topBucketLabel(count: number, top: number): string {
  return count >= top ? `${top}+` : String(count);
}

/** A share (0–1) as a chart's percent value, two decimals: 0.1234 → 12.34. */
export function sharePercent(share: number): number {
  return Math.round(share * 10_000) / 100;
}

/** The change against the previous period in percent (src/schemas/dashboard-figures.ts), for the KPI cards. */
export { changeOf } from '../../schemas/dashboard-figures.js';
