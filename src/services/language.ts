import i18next from 'i18next';
import { LANGUAGES, type Language } from '../schemas/constants.js';
import { STORAGE_KEYS, readText, writeText } from './storage.js';

/** True for one of the interface language codes. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The stored interface language preference (spec section 1), or en when none or unknown. */
export function storedLanguage(): Language {
  const stored = readText('local', STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : 'en';
}

/** The BCP 47 tag of each interface language, for `<html lang>` (the product's codes ch and jp are not tags). */
export const HTML_LANG: Record<Language, string> = {
  en: 'en',
  ch: 'zh',
  es: 'es',
  jp: 'ja',
  de: 'de',
  fr: 'fr',
};

/** Switches the interface to the language and remembers it for the next visit. */
export async function applyLanguage(language: Language): Promise<void> {
  writeText('local', STORAGE_KEYS.language, language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
  document.documentElement.lang = HTML_LANG[language];
}
