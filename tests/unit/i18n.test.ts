import { describe, expect, it } from 'vitest';
import type { MessageTree } from '../../src/i18n/resources.js';
import { messagesFor } from '../../src/i18n/resources.js';
import { ROUTES } from '../../src/app/routes.js';
import { LANGUAGES } from '../../src/schemas/constants.js';

/** Every leaf of a message tree as `path → text`. */
function leaves(tree: MessageTree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') found.set(path, value);
    else for (const [leafPath, text] of leaves(value, path)) found.set(leafPath, text);
  }
  return found;
}

/** The {{placeholders}} a message interpolates and the $t(keys) it nests (the product name), sorted. */
function placeholders(text: string): string[] {
  const interpolated = [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!);
  const nested = [...text.matchAll(/\$t\((\w+)\)/g)].map((match) => `$t(${match[1]!})`);
  return [...interpolated, ...nested].sort();
}

const english = leaves(messagesFor('en'));

describe('interface languages', () => {
  it('has English strings to compare with', () => {
    expect(english.size).toBeGreaterThan(0);
  });

  for (const language of LANGUAGES.filter((code) => code !== 'en')) {
    describe(language, () => {
      const translated = leaves(messagesFor(language));

      it('has exactly the English keys', () => {
        expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
      });

      it('has no empty text and keeps every placeholder', () => {
        for (const [path, text] of english) {
          const other = translated.get(path) ?? '';
          expect(other.trim(), `${language}: ${path} is empty`).not.toBe('');
          expect(placeholders(other), `${language}: ${path} placeholders`).toEqual(placeholders(text));
        }
      });
    });
  }
});

describe('sidebar groups', () => {
  /** The text at a dotted message key of a language. */
  const textOf = (language: (typeof LANGUAGES)[number], key: string) =>
    leaves(messagesFor(language)).get(key);

  for (const language of LANGUAGES) {
    it(`${language}: no page is named like its group, so no heading repeats as its item or crumb`, () => {
      for (const route of ROUTES) {
        const [groupKey, ...rest] = route.breadcrumbs;
        if (!groupKey?.startsWith('pages.groups.') || rest.length === 0) continue;
        expect(textOf(language, route.titleKey), `${route.pattern} in ${language}`).not.toBe(
          textOf(language, groupKey),
        );
      }
    });
  }
});
