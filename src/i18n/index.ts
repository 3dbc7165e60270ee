import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES } from '../schemas/constants.js';
import { resources } from './resources.js';

export { resources };

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
