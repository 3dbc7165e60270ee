/**
 * The JavaScript a browser downloads before a page shows, gzipped, read from the client build's manifest: the
 * entry chunk and every chunk it imports, plus the page's lazy screen chunk and the English messages with
 * theirs. A size, not a timing: the same build always gives the same figures. `npm run check` holds them
 * under a ceiling (scripts/check-first-load.ts) and `npm run bench` prints them (BENCH_ONLY=size).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The goal for gzipped JS before `/login` or `/dashboard` shows. */
export const FIRST_LOAD_GOAL_KB = 150;

/**
 * What `npm run check` lets no page exceed: the figure reached so far plus a little room, lowered as the first
 * load shrinks toward the goal (see docs/platform.md, "First load"), so it can only get smaller.
 */
export const FIRST_LOAD_CEILING_KB = 245;

/** The pages measured, with the source module of the screen each one lazily loads. */
const PAGES: Readonly<Record<string, string>> = {
  '/login': 'src/app/screens/LoginScreen.tsx',
  '/dashboard': 'src/app/screens/DashboardScreen.tsx',
};

/** The modules every page waits for besides its screen: the English messages (the default language). */
const MESSAGE_MODULES = ['virtual:messages/en/shell', 'virtual:messages/en/screens'];

const CLIENT_DIR = join(process.cwd(), 'dist/client');

/** One entry of Vite's build manifest. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** The chunk files a manifest key loads before it runs: itself and its static imports, transitively. */
function closure(manifest: Manifest, key: string, into: Set<string>): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The client build has no chunk for ${key}: run npm run build`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into);
  return into;
}

/** Gzipped bytes of the given chunk files together. */
async function gzippedBytes(files: Iterable<string>): Promise<number> {
  let total = 0;
  for (const file of files) total += gzipSync(await readFile(join(CLIENT_DIR, file)), { level: 9 }).length;
  return total;
}

/** One page's first load: gzipped bytes of the chunks it waits for, and how many. */
export interface FirstLoad {
  page: string;
  gzipBytes: number;
  chunks: number;
}

/** The first-load figure of every measured page. */
export async function firstLoadSizes(): Promise<FirstLoad[]> {
  const manifest = JSON.parse(await readFile(join(CLIENT_DIR, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)?.[0];
  if (!entry) throw new Error('The client build manifest names no entry chunk');
  const results = [];
  for (const [page, screen] of Object.entries(PAGES)) {
    const files = closure(manifest, entry, new Set());
    for (const key of [screen, ...MESSAGE_MODULES]) closure(manifest, key, files);
    results.push({ page, gzipBytes: await gzippedBytes(files), chunks: files.size });
  }
  return results;
}
