import i18next from 'i18next';
import { loadLanguage } from '../i18n/index.js';
import { HTML_LANG, LANGUAGES, type Language } from '../schemas/constants.js';
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

/**
 * Switches the interface to the language and remembers it for the next visit. Its messages are downloaded
 * first, so the old language stays on screen until the new one can replace it whole.
 */
export async function applyLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  // Kept only once it can be shown: a switch that failed to load opens in the old language next time too.
  writeText('local', STORAGE_KEYS.language, language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
  document.documentElement.lang = HTML_LANG[language];
}
