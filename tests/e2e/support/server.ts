import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The built app running as a child process on a free port, with its own throwaway data directory. */
export interface RunningServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  port: number;
  dataDir: string;
  /** What the server has written to stdout and stderr so far (the tail, when it is long). */
  output(): string;
  /** Stops the server (SIGTERM, then SIGKILL after a grace period) and removes its data directory. */
  stop(): Promise<void>;
}

/** How the server is started; the defaults suit the browser suite. */
export interface StartServerOptions {
  /** How long to wait for `GET /api/health` to answer 200. */
  readyTimeoutMs?: number;
  /** How long SIGTERM gets before SIGKILL. */
  stopGraceMs?: number;
  /** Extra environment for the server, applied last. */
  env?: Record<string, string>;
}

const MAX_OUTPUT_CHARS = 64 * 1024;

/** A TCP port that was free a moment ago on the loopback interface. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('No free port was found'))));
    });
  });
}

/** Sends a signal to the child's whole process group, ignoring one already gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group has already exited.
  }
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (hasExited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the built server (`node dist/server/main.mjs`, as `npm start` does) from the repository root against a
 * fresh PGlite data directory with the tiny demo data set, and resolves once `GET /api/health` answers 200 and
 * the demo's POS history has finished loading (`GET /api/demo/status/`), so every journey sees the whole demo.
 * Expects the build to have run (`npm run test:e2e` does it).
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const readyTimeoutMs = options.readyTimeoutMs ?? 120_000;
  const stopGraceMs = options.stopGraceMs ?? 10_000;
  const port = await findFreePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'regulars-e2e-'));
  const url = `http://127.0.0.1:${port}`;

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_SCALE: 'tiny',
    LOG_LEVEL: 'warn',
    // The sign-in redirect must come back to exactly the address the browser uses.
    PUBLIC_URL: url,
    // Journeys sign in and upload far more often than a person; the limits' own tests are API tests.
    RATE_LIMIT_SIGN_IN: '100000/60',
    RATE_LIMIT_REGISTRATION: '100000/60',
    RATE_LIMIT_UPLOAD: '100000/60',
    ...options.env,
  };
  // The suite always runs on its own PGlite, whatever the calling shell points at.
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;

  // Its own process group, so stopping it also stops anything it starts.
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.mjs'], {
    cwd: process.cwd(),
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const capture = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT_CHARS);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  let spawnError: Error | null = null;
  child.once('error', (error) => {
    spawnError = error;
  });

  // Should the test process die without calling stop(), the server must not outlive it.
  const killOnExit = () => signalGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', killOnExit);
    if (!hasExited(child)) {
      signalGroup(child, 'SIGTERM');
      if (!(await waitForExit(child, stopGraceMs))) {
        signalGroup(child, 'SIGKILL');
        await waitForExit(child, 5_000);
      }
    }
    // Nothing of the process group may outlive the test.
    signalGroup(child, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (spawnError || hasExited(child)) {
      await stop();
      const reason = spawnError
        ? `could not start: ${String(spawnError)}`
        : `exited with ${child.exitCode ?? child.signalCode}`;
      throw new Error(`The server ${reason} before it was ready. Its output:\n${output}`);
    }
    try {
      const health = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
      const demo = health.ok
        ? await fetch(`${url}/api/demo/status/`, { signal: AbortSignal.timeout(5_000) })
        : null;
      if (demo?.ok && !((await demo.json()) as { loading: boolean }).loading) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The server was not ready with its demo data within ${readyTimeoutMs} ms. Its output:\n${output}`,
      );
    }
    await sleep(250);
  }

  return { url, port, dataDir, output: () => output, stop };
}
