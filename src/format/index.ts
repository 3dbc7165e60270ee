/**
 * Display formatting shared by every screen (product spec section 9): money, percentages, dates and
 * times. Pure functions: the language and time zone come in as arguments.
 *
 * Decisions where the spec is brief:
 * - Money and percentages read the same in every language (`$1,234.56`, `12.50%`): the amounts are US
 *   dollars, and exports, screenshots and support conversations then show identical figures.
 * - A percentage is given in percent units (12.5 → `12.50%`). An empty value (null, undefined, '' or
 *   not a number) gives `''` by default — a table cell with nothing to show stays blank — and `'0%'` with
 *   `empty: 'zero'`, for rates whose missing value means "none happened" (open or click rates of a
 *   campaign that has sent nothing, a share of zero guests).
 * - An empty amount of money gives `''` (a blank cell), never `$0.00`, so "no data" and "zero" differ.
 * - Dates use the user's language (ch → zh-cn, jp → ja) and, when given, the company's time zone; otherwise
 *   the browser's. The spec's formats ('MMM DD, YYYY', 'hh:mm a') are the English forms: other languages write
 *   a date and a time of day in their own order and clock (dayjs's localised 'll' and 'LT': `5. März 2026`,
 *   `2026年3月5日`, `14:07`), as a reader of that language expects.
 */
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/de.js';
import 'dayjs/locale/es.js';
import 'dayjs/locale/fr.js';
import 'dayjs/locale/ja.js';
import 'dayjs/locale/zh-cn.js';
import localizedFormat from 'dayjs/plugin/localizedFormat.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { LANGUAGES, type Language } from '../schemas/constants.js';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(localizedFormat);

/** The dayjs locale of each interface language. */
export const DAYJS_LOCALES: Readonly<Record<Language, string>> = {
  en: 'en',
  ch: 'zh-cn',
  es: 'es',
  jp: 'ja',
  de: 'de',
  fr: 'fr',
};

/** The date formats of spec section 9, as English writes them. */
export const DATE_FORMATS = {
  /** e.g. `Mar 5, 2026 2:07 PM`, localised. */
  dateTime: 'lll',
  /** e.g. `Mar 05, 2026`. */
  date: 'MMM DD, YYYY',
  /** e.g. `02:07 pm` (dayjs's `a` is the lower-case marker). */
  time: 'hh:mm a',
  /** e.g. `2026-03-05`. */
  isoDate: 'YYYY-MM-DD',
} as const;

/** How the other languages write a date and a time of day: their locale's own order and clock. */
const LOCALISED_FORMATS = { date: 'll', time: 'LT' } as const;

/** The format of a date or a time of day in a language: the spec's in English, the locale's elsewhere. */
function formatIn(kind: 'date' | 'time', language: Language): string {
  return language === 'en' ? DATE_FORMATS[kind] : LOCALISED_FORMATS[kind];
}

/** A value that may be missing: null, undefined, '' or a number (or numeric string) from the API. */
export type MaybeNumber = number | string | null | undefined;

/** The value as a finite number, or null when it is empty or not a number. */
function toNumber(value: MaybeNumber): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Dollars with a dollar sign, two decimals and thousands separators: `$1,234.50`, `-$3.10`; empty → ''. */
export function formatCurrency(value: MaybeNumber): string {
  const number = toNumber(value);
  if (number === null) return '';
  // Rounds -0.001 to "$0.00" rather than "-$0.00".
  const rounded = Math.round(number * 100) / 100;
  const text = `$${MONEY.format(Math.abs(rounded))}`;
  return rounded < 0 ? `-${text}` : text;
}

const PERCENT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const WHOLE_PERCENT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * A percentage in percent units with two decimals: `12.50%` (or whole, `13%`, with `whole: true`, for shares
 * at a glance); empty → '' or, with `empty: 'zero'`, '0%'.
 */
export function formatPercent(
  value: MaybeNumber,
  options: { empty?: 'blank' | 'zero'; whole?: boolean } = {},
): string {
  const number = toNumber(value);
  if (number === null) return options.empty === 'zero' ? '0%' : '';
  return `${(options.whole ? WHOLE_PERCENT : PERCENT).format(number)}%`;
}

/** A date-time to show: an ISO string, epoch milliseconds, a Date or a Dayjs. */
export type DateInput = string | number | Date | Dayjs;

/** The moment in the user's language and, when given, the time zone; null when it is not a valid date. */
function moment(value: DateInput | null | undefined, language: Language, timeZone?: string): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  let parsed = dayjs(value);
  if (!parsed.isValid()) return null;
  if (timeZone) parsed = parsed.tz(timeZone);
  return parsed.locale(DAYJS_LOCALES[language]);
}

/** Date and time as 'lll' (`Mar 5, 2026 2:07 PM` in English); an invalid or missing value gives ''. */
export function formatDateTime(
  value: DateInput | null | undefined,
  language: Language,
  timeZone?: string,
): string {
  return moment(value, language, timeZone)?.format(DATE_FORMATS.dateTime) ?? '';
}

/** A date as 'MMM DD, YYYY' in English (`Mar 05, 2026`), in the language's own order elsewhere; missing gives ''. */
export function formatDate(
  value: DateInput | null | undefined,
  language: Language,
  timeZone?: string,
): string {
  return moment(value, language, timeZone)?.format(formatIn('date', language)) ?? '';
}

/** A time of day as 'hh:mm a' in English (`02:07 pm`), the language's own clock elsewhere (`14:07`); missing gives ''. */
export function formatTime(
  value: DateInput | null | undefined,
  language: Language,
  timeZone?: string,
): string {
  return moment(value, language, timeZone)?.format(formatIn('time', language)) ?? '';
}

/** Unix time in seconds as the calendar date 'YYYY-MM-DD', in UTC unless a time zone is given. */
export function unixToIsoDate(seconds: MaybeNumber, timeZone?: string): string {
  const number = toNumber(seconds);
  if (number === null) return '';
  const instant = dayjs.unix(number);
  return (timeZone ? instant.tz(timeZone) : instant.utc()).format(DATE_FORMATS.isoDate);
}

/** The locale numbers are written in for each interface language (the codes ch and jp are not locales). */
const NUMBER_LOCALES: Readonly<Record<Language, string>> = {
  en: 'en-US',
  ch: 'zh-CN',
  es: 'es-ES',
  jp: 'ja-JP',
  de: 'de-DE',
  fr: 'fr-FR',
};

/** i18next's current language as one of the app's languages (English for anything else). */
export function languageOf(language: string): Language {
  return (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : 'en';
}

/** A whole number with the language's separators (`1,234` in English, `1.234` in German). */
export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(NUMBER_LOCALES[languageOf(language)]).format(value);
}

/**
 * An estimated count, rounded as people say it: `1.2 million` in English, `1,2 Millionen` in German,
 * `123.5万` in Chinese and Japanese (lists whose total the server labels an estimate).
 */
export function formatApproximateCount(value: number, language: string): string {
  return new Intl.NumberFormat(NUMBER_LOCALES[languageOf(language)], {
    notation: 'compact',
    compactDisplay: 'long',
    maximumFractionDigits: 1,
  }).format(value);
}
