/**
 * A Vite plugin that serves each language's messages as two chunks, `virtual:messages/<lang>/shell` and
 * `virtual:messages/<lang>/screens` (src/i18n/parts.ts says which areas go where), cut from the one JSON file
 * per language that translators edit (src/i18n/locales/<lang>.json). The browser downloads only the active
 * language, and the screens' texts only when a screen is about to show.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { areasOfPart, MESSAGE_PARTS, type MessagePart } from '../src/i18n/parts.js';
import { LANGUAGES } from '../src/schemas/constants.js';

const PREFIX = 'virtual:messages/';
// Rollup's convention: a resolved virtual id starts with a NUL byte so no other plugin treats it as a file.
const RESOLVED_PREFIX = '\0' + PREFIX;

/** The language and part a virtual id names, or null for any other id. */
function parseId(id: string): { language: string; part: MessagePart } | null {
  const [language, part] = id.slice(PREFIX.length).split('/');
  const languages: readonly string[] = LANGUAGES;
  const parts: readonly string[] = MESSAGE_PARTS;
  if (!language || !part || !languages.includes(language) || !parts.includes(part)) return null;
  return { language, part: part as MessagePart };
}

/** The plugin: resolves and loads `virtual:messages/<lang>/<part>` as a JSON-valued module. */
export function messagesByPart(localesDir = resolve('src/i18n/locales')): Plugin {
  return {
    name: 'regulars-messages-by-part',
    resolveId(id) {
      return id.startsWith(PREFIX) && parseId(id) ? RESOLVED_PREFIX + id.slice(PREFIX.length) : null;
    },
    async load(id) {
      if (!id.startsWith(RESOLVED_PREFIX)) return null;
      const target = parseId(PREFIX + id.slice(RESOLVED_PREFIX.length));
      if (!target) return null;
      const file = resolve(localesDir, `${target.language}.json`);
      this.addWatchFile(file);
      const all = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const picked = Object.fromEntries(
        areasOfPart(target.part, Object.keys(all)).map((area) => [area, all[area]]),
      );
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
  };
}
