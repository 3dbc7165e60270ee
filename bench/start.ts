import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '../tests/e2e/support/server.js';
import { printFigure, round } from './support.js';

/**
 * Starts the built server as `npm start` does (after the build check) on `dataDir` and answers the seconds until
 * `/api/health` answers 200; then stops it with SIGTERM and waits for it to exit.
 */
async function secondsToHealthy(dataDir: string): Promise<number> {
  const port = await findFreePort();
  const started = performance.now();
  const server = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.mjs'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error('The server exited before it answered /api/health');
      const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) return (performance.now() - started) / 1000;
      if (performance.now() - started > 120_000) throw new Error('The server did not answer within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

/**
 * Seconds from starting the server to a healthy `/api/health`: on a fresh data directory (migrations and the
 * demo accounts; the demo's POS history then loads in the background) and on a second start of the same one.
 * The client build is not included: `npm install` makes it, and a start rebuilds only changed sources.
 */
export async function benchStart(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'regulars-bench-start-'));
  try {
    printFigure({
      bench: 'start',
      case: 'first start, fresh data',
      seconds: round(await secondsToHealthy(dataDir), 1),
    });
    printFigure({ bench: 'start', case: 'second start', seconds: round(await secondsToHealthy(dataDir), 1) });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
