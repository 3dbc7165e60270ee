import { LANGUAGES, type Language } from '../schemas/constants.js';
import ch from './locales/ch.json';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import jp from './locales/jp.json';

/** A tree of message strings: nested objects whose leaves are the text shown. */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

/** The same keys as `Tree`, every leaf a string: what each language must provide. */
export type SameKeys<Tree> = { [Key in keyof Tree]: Tree[Key] extends string ? string : SameKeys<Tree[Key]> };

/** Every interface string, shaped as the English file (`src/i18n/locales/en.json`). */
export type Messages = SameKeys<typeof en>;

// English is the reference: a language file that lacks one of its keys fails to compile here, and
// tests/unit/i18n.test.ts also catches extra keys and lost {{placeholders}}.
const TRANSLATIONS: Record<Exclude<Language, 'en'>, Messages> = { ch, es, jp, de, fr };

/** Every language's full message tree, one JSON file per language under src/i18n/locales. */
export function messagesFor(language: Language): Messages {
  return language === 'en' ? en : TRANSLATIONS[language];
}

/** i18next resources for every interface language. */
export const resources = Object.fromEntries(
  LANGUAGES.map((language) => [language, { translation: messagesFor(language) }]),
) as Record<Language, { translation: Messages }>;
