import type { Language } from '../schemas/constants.js';

/** A tree of message strings: nested objects whose leaves are the text shown. */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

/** The same keys as `Tree`, every leaf a string: what each other language must provide. */
export type SameKeys<Tree> = { [Key in keyof Tree]: Tree[Key] extends string ? string : SameKeys<Tree[Key]> };

/** One area's messages in every interface language; English is the reference the others mirror. */
export type AreaMessages<Tree extends MessageTree> = { en: Tree } & Record<
  Exclude<Language, 'en'>,
  SameKeys<Tree>
>;

/**
 * Declares one area's strings (one file per area under src/i18n/areas). The type makes a language
 * that lacks a key fail to compile; tests/unit/i18n.test.ts also catches extra keys and placeholders.
 */
export function defineArea<Tree extends MessageTree>(messages: AreaMessages<Tree>): AreaMessages<Tree> {
  return messages;
}
