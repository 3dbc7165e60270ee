/**
 * i18next in the browser, one language at a time: each language's messages arrive in chunks (see parts.ts),
 * the shell's before the first page shows, the screens' before the first screen renders, and a route part's
 * (the segment screens' texts) before a screen that asks for it renders. A language switch loads the new
 * language's chunks of every part loaded so far first, so the old texts stay until the new ones are there —
 * never a flash of keys. Every language is complete (checked by tsc in resources.ts and by
 * tests/unit/i18n.test.ts), so no fallback language is loaded.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../schemas/constants.js';
import { LANGUAGES } from '../schemas/constants.js';
import type { MessagePart, RoutePart } from './parts.js';

type MessagesModule = Promise<{ default: Record<string, unknown> }>;

// Spelled out so the bundler makes one chunk per language and part.
const LOADERS: Record<Language, Record<MessagePart, () => MessagesModule>> = {
  en: {
    shell: () => import('virtual:messages/en/shell'),
    screens: () => import('virtual:messages/en/screens'),
    segments: () => import('virtual:messages/en/segments'),
    profile: () => import('virtual:messages/en/profile'),
    account: () => import('virtual:messages/en/account'),
    templates: () => import('virtual:messages/en/templates'),
    campaigns: () => import('virtual:messages/en/campaigns'),
    sentMail: () => import('virtual:messages/en/sentMail'),
    flows: () => import('virtual:messages/en/flows'),
    dashboards: () => import('virtual:messages/en/dashboards'),
    supportReplay: () => import('virtual:messages/en/supportReplay'),
  },
  ch: {
    shell: () => import('virtual:messages/ch/shell'),
    screens: () => import('virtual:messages/ch/screens'),
    segments: () => import('virtual:messages/ch/segments'),
    profile: () => import('virtual:messages/ch/profile'),
    account: () => import('virtual:messages/ch/account'),
    templates: () => import('virtual:messages/ch/templates'),
    campaigns: () => import('virtual:messages/ch/campaigns'),
    sentMail: () => import('virtual:messages/ch/sentMail'),
    flows: () => import('virtual:messages/ch/flows'),
    dashboards: () => import('virtual:messages/ch/dashboards'),
    supportReplay: () => import('virtual:messages/ch/supportReplay'),
  },
  es: {
    shell: () => import('virtual:messages/es/shell'),
    screens: () => import('virtual:messages/es/screens'),
    segments: () => import('virtual:messages/es/segments'),
    profile: () => import('virtual:messages/es/profile'),
    account: () => import('virtual:messages/es/account'),
    templates: () => import('virtual:messages/es/templates'),
    campaigns: () => import('virtual:messages/es/campaigns'),
    sentMail: () => import('virtual:messages/es/sentMail'),
    flows: () => import('virtual:messages/es/flows'),
    dashboards: () => import('virtual:messages/es/dashboards'),
    supportReplay: () => import('virtual:messages/es/supportReplay'),
  },
  jp: {
    shell: () => import('virtual:messages/jp/shell'),
    screens: () => import('virtual:messages/jp/screens'),
    segments: () => import('virtual:messages/jp/segments'),
    profile: () => import('virtual:messages/jp/profile'),
    account: () => import('virtual:messages/jp/account'),
    templates: () => import('virtual:messages/jp/templates'),
    campaigns: () => import('virtual:messages/jp/campaigns'),
    sentMail: () => import('virtual:messages/jp/sentMail'),
    flows: () => import('virtual:messages/jp/flows'),
    dashboards: () => import('virtual:messages/jp/dashboards'),
    supportReplay: () => import('virtual:messages/jp/supportReplay'),
  },
  de: {
    shell: () => import('virtual:messages/de/shell'),
    screens: () => import('virtual:messages/de/screens'),
    segments: () => import('virtual:messages/de/segments'),
    profile: () => import('virtual:messages/de/profile'),
    account: () => import('virtual:messages/de/account'),
    templates: () => import('virtual:messages/de/templates'),
    campaigns: () => import('virtual:messages/de/campaigns'),
    sentMail: () => import('virtual:messages/de/sentMail'),
    flows: () => import('virtual:messages/de/flows'),
    dashboards: () => import('virtual:messages/de/dashboards'),
    supportReplay: () => import('virtual:messages/de/supportReplay'),
  },
  fr: {
    shell: () => import('virtual:messages/fr/shell'),
    screens: () => import('virtual:messages/fr/screens'),
    segments: () => import('virtual:messages/fr/segments'),
    profile: () => import('virtual:messages/fr/profile'),
    account: () => import('virtual:messages/fr/account'),
    templates: () => import('virtual:messages/fr/templates'),
    campaigns: () => import('virtual:messages/fr/campaigns'),
    sentMail: () => import('virtual:messages/fr/sentMail'),
    flows: () => import('virtual:messages/fr/flows'),
    dashboards: () => import('virtual:messages/fr/dashboards'),
    supportReplay: () => import('virtual:messages/fr/supportReplay'),
  },
};

const loading = new Map<string, Promise<void>>();
// The parts asked for so far, in any language: a language switch brings them all.
const partsInUse = new Set<MessagePart>(['shell', 'screens']);

/** Loads one part of a language's messages into i18next, once; a failed load may be tried again. */
function loadPart(language: Language, part: MessagePart): Promise<void> {
  const key = `${language}/${part}`;
  partsInUse.add(part);
  let done = loading.get(key);
  if (!done) {
    done = LOADERS[language][part]().then(({ default: messages }) => {
      // Deep and without overwriting: a brand set from the server before the chunk arrived stays.
      i18next.addResourceBundle(language, 'translation', messages, true, false);
    });
    done.catch(() => loading.delete(key));
    loading.set(key, done);
  }
  return done;
}

// The language a switch last asked for: while its texts download, i18next still shows the old one.
let requestedLanguage: Language | null = null;

/**
 * Loads a language's messages of every part in use; a switch to it waits for this. A part a screen asks for
 * while this runs is loaded too (the loop), so a screen opened during a switch never shows message keys.
 */
export async function loadLanguage(language: Language): Promise<void> {
  requestedLanguage = language;
  let loaded = -1;
  try {
    while (loaded !== partsInUse.size) {
      loaded = partsInUse.size;
      await Promise.all([...partsInUse].map((part) => loadPart(language, part)));
    }
  } catch (error) {
    // A failed switch leaves the old language on screen: later screens must not wait for the failed one's texts.
    if (requestedLanguage === language) requestedLanguage = null;
    throw error;
  }
}

/** A part in the language on screen and, during a switch, in the language being switched to. */
function loadPartForScreen(part: MessagePart): Promise<void> {
  const current = i18next.language as Language;
  const languages =
    requestedLanguage && requestedLanguage !== current ? [current, requestedLanguage] : [current];
  return Promise.all(languages.map((language) => loadPart(language, part))).then(() => undefined);
}

/** Resolves when the current language's screen texts are loaded: a lazy screen waits for it before rendering. */
export function screenMessagesReady(): Promise<void> {
  return loadPartForScreen('screens');
}

/** Resolves when the current language's texts of a route part are loaded: its screens wait for it too. */
export function routeMessagesReady(part: RoutePart): Promise<void> {
  return loadPartForScreen(part);
}

/** Starts i18next in the given language (default en, the spec's default) with its shell texts loaded. */
export async function initI18n(language: Language = LANGUAGES[0]): Promise<void> {
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    partialBundledLanguages: true,
    resources: {},
    interpolation: { escapeValue: false },
  });
  await loadPart(language, 'shell');
  // The screens' texts start downloading now, beside the first screen's code; a failure here is retried
  // and reported by the screen that waits for them.
  screenMessagesReady().catch(() => undefined);
}
