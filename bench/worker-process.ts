import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** A running `npm run worker` process and how to stop it. */
export interface WorkerProcess {
  stop(): Promise<void>;
}

/**
 * Starts the built job workers (`dist/server/worker.mjs`, as `npm run worker` does) as a process of their own
 * on the database at `databaseUrl`, with the Node that runs the bench (the `node` package's, under npm), and
 * resolves once they say they are ready.
 */
export async function startWorkerProcess(databaseUrl: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['dist/server/worker.mjs'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const read = (part: Buffer) => {
      output += part.toString('utf8');
      if (output.includes('workers ready')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`the worker process exited (${code}): ${output}`)));
  });
  await ready;
  const exited = once(child, 'exit');
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // The worker stops after its current batch on SIGTERM.
      child.kill('SIGTERM');
      await exited;
    },
  };
}
