import { LANGUAGES, type Language } from '../schemas/constants.js';
import { account } from './areas/account.js';
import { auth } from './areas/auth.js';
import { common } from './areas/common.js';
import { errors } from './areas/errors.js';
import { hijack } from './areas/hijack.js';
import { locations } from './areas/locations.js';
import { pages } from './areas/pages.js';
import { replay } from './areas/replay.js';
import { shell } from './areas/shell.js';
import { signin } from './areas/signin.js';
import { support } from './areas/support.js';
import { visualiser } from './areas/visualiser.js';
import type { MessageTree } from './catalog.js';

/**
 * Every area of the interface, by the key its strings live under (`auth.titles.signIn`). An area added
 * under src/i18n/areas is listed here once.
 */
export const AREAS = {
  signin,
  account,
  hijack,
  auth,
  shell,
  errors,
  pages,
  locations,
  support,
  replay,
  visualiser,
} as const;

/** Every language's full message tree: the common words at the top, each area under its key. */
export function messagesFor(language: Language): MessageTree {
  const tree: MessageTree = { ...common[language] };
  for (const [key, area] of Object.entries(AREAS)) tree[key] = area[language];
  return tree;
}

/** i18next resources for every interface language. */
export const resources = Object.fromEntries(
  LANGUAGES.map((language) => [language, { translation: messagesFor(language) }]),
) as Record<Language, { translation: MessageTree }>;
