/**
 * `npm run build` builds the browser app into dist/client. With `--if-changed` (what `npm install` and
 * `npm start` run) it builds only when the client's sources differ from the last build: their contents are
 * hashed and the hash kept beside the build, so a start after an unchanged checkout costs a few milliseconds.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const ROOT = process.cwd();
// Outside the served folder, so it is never a public file.
const STAMP = join(ROOT, 'dist/.client-sources-hash');
/** Everything the client build reads besides node_modules (the lock file stands for those). */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];

/** Every file under `path` (or `path` itself), sorted so the hash does not depend on directory order. */
async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true }).catch(() => null);
  if (!entries) return existsSync(path) ? [path] : [];
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const child = join(path, entry.name);
      return entry.isDirectory() ? filesUnder(child) : [child];
    }),
  );
  return nested.flat().sort();
}

/** A hash of the client's sources: names and contents. */
export async function clientSourcesHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const source of SOURCES) {
    for (const file of await filesUnder(join(ROOT, source))) {
      hash
        .update(relative(ROOT, file))
        .update('\0')
        .update(await readFile(file))
        .update('\0');
    }
  }
  return hash.digest('hex');
}

/** Builds the client unless `ifChanged` and the last build was made from the same sources. */
async function main(ifChanged: boolean): Promise<void> {
  const sources = await clientSourcesHash();
  const built = await readFile(STAMP, 'utf8').catch(() => null);
  if (ifChanged && built === sources) return;
  // Vite is a development dependency: an install without it (npm ci --omit=dev) serves a build made elsewhere.
  const vite = await import('vite').catch(() => null);
  if (!vite) {
    console.warn('vite is not installed: the client is not rebuilt');
    return;
  }
  console.log(ifChanged ? 'The client changed: building it (a few seconds)…' : 'Building the client…');
  await vite.build({ logLevel: 'warn' });
  await writeFile(STAMP, sources);
}

main(process.argv.includes('--if-changed')).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
