import { spawn, type ChildProcess } from 'node:child_process';
import { findFreePort } from '../e2e/support/server.js';

/**
 * Server processes for the scale-out tests: `server/main.ts` (the API) and `server/worker.ts` (the job
 * workers) run from source through tsx as real child processes, each in its own process group, so a test
 * runs several of them on one database without a build.
 */

/** A started child process and what it printed. */
export interface ServerProcess {
  /** The API's base URL; empty for a worker. */
  url: string;
  output(): string;
  /** Resolves with the exit code once the process ends on its own. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

const MAX_OUTPUT_CHARS = 64 * 1024;

/** Starts `entry` (a path under the repository) with the environment given on top of this one. */
function startProcess(entry: string, env: Record<string, string>, port = 0): ServerProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', SEED_ON_START: 'false', ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: process.cwd(),
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const capture = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT_CHARS);
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const killOnExit = () => kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    url: port > 0 ? `http://127.0.0.1:${port}` : '',
    output: () => output,
    exited,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits until `ready` says yes, failing with the process's output when it exits or time runs out. */
async function waitUntil(started: ServerProcess, ready: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let ended = false;
  void started.exited.then(() => (ended = true));
  while (Date.now() < deadline && !ended) {
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await started.stop();
  throw new Error(`${what} did not start:\n${started.output()}`);
}

/** An API process on a free port, answering `GET /api/health` before this resolves. */
export async function startApi(env: Record<string, string>): Promise<ServerProcess> {
  const port = await findFreePort();
  const api = startProcess('server/main.ts', { HOST: '127.0.0.1', PORT: String(port), ...env }, port);
  await waitUntil(api, async () => (await fetch(`${api.url}/api/health`)).ok, 'The API');
  return api;
}

/** A `npm run worker` process, once it says its workers are ready. */
export async function startWorker(env: Record<string, string>): Promise<ServerProcess> {
  const worker = startProcess('server/worker.ts', env);
  await waitUntil(worker, () => Promise.resolve(worker.output().includes('workers ready')), 'The worker');
  return worker;
}

/** A worker process as started, without waiting: for one expected to refuse and exit. */
export function spawnWorker(env: Record<string, string>): ServerProcess {
  return startProcess('server/worker.ts', env);
}
