import { messagesFor, type Messages } from '../../../src/i18n/resources.js';
import { LANGUAGES, type Language } from '../../../src/schemas/constants.js';

/** The sign-in pages' strings in one language. */
export type SigninMessages = Messages['signin'];

// The app's language codes are its own ('ch', 'jp'); browsers and clients send BCP 47 tags ('zh', 'ja').
const TAG_ALIASES: Record<string, Language> = { zh: 'ch', ja: 'jp' };

function asLanguage(tag: string): Language | null {
  const lower = tag.trim().toLowerCase();
  if ((LANGUAGES as readonly string[]).includes(lower)) return lower as Language;
  const primary = lower.split(/[-_]/, 1)[0] ?? '';
  if ((LANGUAGES as readonly string[]).includes(primary)) return primary as Language;
  return TAG_ALIASES[primary] ?? null;
}

/** The first supported language of an `Accept-Language` header, by quality; null when none is. */
export function languageFromAcceptLanguage(header: string | undefined): Language | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';');
      const quality = parameters
        .map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)?.[1])
        .find((value) => value !== undefined);
      return { tag, quality: quality === undefined ? 1 : Number(quality), index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const entry of ranked) {
    const language = asLanguage(entry.tag);
    if (language) return language;
  }
  return null;
}

/** The first supported language of a space-separated `ui_locales` value; null when none is. */
export function languageFromUiLocales(uiLocales: unknown): Language | null {
  if (typeof uiLocales !== 'string') return null;
  for (const tag of uiLocales.split(/\s+/)) {
    const language = tag ? asLanguage(tag) : null;
    if (language) return language;
  }
  return null;
}

/** The page language: the authorization request's `ui_locales`, else the browser's, else English. */
export function pageLanguage(uiLocales: unknown, acceptLanguage: string | undefined): Language {
  return languageFromUiLocales(uiLocales) ?? languageFromAcceptLanguage(acceptLanguage) ?? 'en';
}

/** What a sign-in page is written for: its language and the installation's product name (BRAND_NAME). */
export interface PageLocale {
  language: Language;
  brand: string;
}

// The catalogue names the product as `$t(brand)` (i18next's nesting, which the app resolves itself).
const BRAND_REFERENCE = '$t(brand)';

function withBrand<T>(value: T, brand: string): T {
  if (typeof value === 'string') return value.replaceAll(BRAND_REFERENCE, brand) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, nested]) => [key, withBrand(nested, brand)]),
  ) as T;
}

/** The sign-in strings of a page: its language, with the installation's product name filled in. */
export function signinMessages(locale: PageLocale): SigninMessages {
  return withBrand(messagesFor(locale.language).signin, locale.brand);
}

/** Fills `{{name}}` placeholders (the i18next syntax the catalogue uses). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
