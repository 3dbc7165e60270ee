import type en from './locales/en.json';

/** A top-level group of messages, one per area of the app (`shell`, `subscribers`, …). */
export type MessageArea = keyof typeof en;

/**
 * The areas the browser loads before the first page shows: the frame, sign-in and error pages, page titles
 * and the header's pickers and menus. Every other area (a screen's own texts) arrives as a second chunk
 * that a screen waits for before it renders; `signin` is rendered by the server and never sent.
 */
export const SHELL_AREAS = [
  'brand',
  'auth',
  'shell',
  'errors',
  'pages',
  'locations',
  'support',
  'hijack',
] as const satisfies readonly MessageArea[];

/** Areas only the server renders (the sign-in pages): left out of the browser's chunks. */
export const SERVER_AREAS = ['signin'] as const satisfies readonly MessageArea[];

/** The two message chunks of each language. */
export const MESSAGE_PARTS = ['shell', 'screens'] as const;

/** One of the message chunks of a language. */
export type MessagePart = (typeof MESSAGE_PARTS)[number];

/** The areas a part holds, given every area of the language file. */
export function areasOfPart(part: MessagePart, allAreas: readonly string[]): string[] {
  const shell: readonly string[] = SHELL_AREAS;
  const server: readonly string[] = SERVER_AREAS;
  return part === 'shell'
    ? allAreas.filter((area) => shell.includes(area))
    : allAreas.filter((area) => !shell.includes(area) && !server.includes(area));
}
