/**
 * `npm run build`: builds the browser app into dist/client (Vite) and the server into dist/server (esbuild: our
 * TypeScript in one ES module, packages left to node_modules, migrations copied beside it). With `--if-changed`
 * (what `npm install`, `npm start`, `npm run test:e2e` and `npm run bench` run) each part is built only when
 * its sources differ from its last build: their names and contents are hashed and the hash kept in dist/, so a
 * start after an unchanged checkout costs a few milliseconds. Plain JavaScript, so that check runs on Node alone.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import process from 'node:process';
import console from 'node:console';

const ROOT = process.cwd();

/** Each part: what it is built from (the lock file stands for node_modules) and where its hash is kept. */
const PARTS = {
  client: {
    sources: [
      'src',
      'index.html',
      'vite.config.ts',
      'scripts/vite-messages-plugin.ts',
      'scripts/build.mjs',
      'tsconfig.json',
      'package-lock.json',
    ],
    // Outside the served folder, so it is never a public file.
    stamp: 'dist/.client-sources-hash',
    output: 'dist/client/index.html',
    build: buildClient,
  },
  server: {
    sources: ['server', 'src/schemas', 'src/i18n', 'scripts/build.mjs', 'tsconfig.json', 'package-lock.json'],
    stamp: 'dist/.server-sources-hash',
    output: 'dist/server/worker.mjs',
    build: buildServer,
  },
};

/**
 * Every file under `path` (or `path` itself), sorted so the hash does not depend on directory order.
 * @param {string} path
 * @returns {Promise<string[]>}
 */
async function filesUnder(path) {
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

/**
 * A hash of the given sources: names and contents.
 * @param {readonly string[]} sources
 * @returns {Promise<string>}
 */
async function sourcesHash(sources) {
  const hash = createHash('sha256');
  for (const source of sources) {
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

/** The browser app, by Vite (a development dependency: without it, a build made elsewhere is served). */
async function buildClient() {
  const vite = await import('vite').catch(() => null);
  if (!vite) {
    console.warn('vite is not installed: the client is not rebuilt');
    return false;
  }
  await vite.build({ logLevel: 'warn' });
  return true;
}

/** The server as ES modules: what `npm start` and `npm run worker` run with Node alone, without compiling on each start. */
async function buildServer() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    // The API (`npm start`) and the job workers (`npm run worker`) share one build of the server's code; the
    // CLV fit runs in a worker thread from a module of its own (server/clv/fit-off-thread.ts).
    entryPoints: [
      { in: 'server/main.ts', out: 'main' },
      { in: 'server/worker.ts', out: 'worker' },
      { in: 'server/clv/fit-thread.ts', out: 'clv-fit-thread' },
    ],
    outdir: 'dist/server',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // The migration runner reads the SQL files beside the module it runs from; a removed one must not linger.
  await rm('dist/server/migrations', { recursive: true, force: true });
  await mkdir('dist/server/migrations', { recursive: true });
  await cp('server/db/migrations', 'dist/server/migrations', { recursive: true });
  return true;
}

/**
 * Builds each part unless `ifChanged` and its last build was made from the same sources.
 * @param {boolean} ifChanged
 */
async function main(ifChanged) {
  for (const [name, part] of Object.entries(PARTS)) {
    const hash = await sourcesHash(part.sources);
    const built = await readFile(join(ROOT, part.stamp), 'utf8').catch(() => null);
    if (ifChanged && built === hash && existsSync(join(ROOT, part.output))) continue;
    console.log(`Building the ${name} (a few seconds)…`);
    if (await part.build()) await writeFile(join(ROOT, part.stamp), hash);
  }
}

main(process.argv.includes('--if-changed')).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
