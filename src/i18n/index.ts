import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES } from '../schemas/constants.js';
import ch from './locales/ch.json';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import jp from './locales/jp.json';

/** Every language's strings, keyed by the product's language codes (spec section 1). */
export const resources = {
  en: { translation: en },
  ch: { translation: ch },
  es: { translation: es },
  jp: { translation: jp },
  de: { translation: de },
  fr: { translation: fr },
} as const;

/** Starts i18next in the given language (default en, the spec's default). */
export function initI18n(language: string = LANGUAGES[0]) {
  return i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
  });
}
