import { spawn } from 'node:child_process';

/** A send worker child process (tests/support/send-worker-child.ts) that a test can kill -9. */
export interface SendWorkerProcess {
  output(): string;
  /** SIGKILL to the whole process group: no cleanup, no last write. */
  killHard(): Promise<void>;
  /** SIGTERM: the runner finishes its batch and the process exits. */
  stop(): Promise<number | null>;
}

/** Starts the worker with `env` on top of this process's environment, resolving once it is sending. */
export async function startSendWorker(env: Record<string, string>): Promise<SendWorkerProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/send-worker-child.ts'], {
    cwd: process.cwd(),
    env: childEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  const killOnExit = () => signal('SIGKILL');
  process.once('exit', killOnExit);
  const deadline = Date.now() + 60_000;
  let ended = false;
  void exited.then(() => (ended = true));
  while (!output.includes('sending')) {
    if (ended || Date.now() > deadline) {
      signal('SIGKILL');
      throw new Error(`The send worker did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    output: () => output,
    async killHard() {
      process.off('exit', killOnExit);
      signal('SIGKILL');
      await exited;
    },
    async stop() {
      process.off('exit', killOnExit);
      signal('SIGTERM');
      return exited;
    },
  };
}
