/**
 * `npm run size`: the JavaScript a browser downloads before a page shows, gzipped, read from the client build's
 * manifest: the entry chunk and every chunk it imports, plus the page's lazy screen chunk and the English
 * messages with theirs. Prints one JSON line per page; with `--check` it fails when a page exceeds its budget
 * (`npm run check` runs it). A size check, not a timing: the same build always gives the same figures.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The first-load budget of issue 10: gzipped JS before `/login` or `/dashboard` shows. */
export const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;

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

/** The first-load figure of every measured page. */
export async function firstLoadSizes(): Promise<{ page: string; gzipBytes: number; chunks: number }[]> {
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

/** Prints the figures; with `--check`, exits 1 naming every page over budget. */
async function main(check: boolean): Promise<void> {
  const over: string[] = [];
  for (const { page, gzipBytes, chunks } of await firstLoadSizes()) {
    const kb = Math.round(gzipBytes / 102.4) / 10;
    console.log(JSON.stringify({ measure: 'first-load-js', page, gzip_kb: kb, chunks, budget_kb: 150 }));
    if (gzipBytes > FIRST_LOAD_BUDGET_BYTES) over.push(`${page}: ${kb} KB`);
  }
  if (check && over.length > 0) {
    console.error(`First-load JavaScript over the 150 KB gzipped budget: ${over.join(', ')}`);
    process.exit(1);
  }
}

main(process.argv.includes('--check')).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
