import { Worker } from 'node:worker_threads';
import { buffersOf, type CompanyFitInput, type CompanyFitResult } from './company-fit.js';

/**
 * Runs a company's fit (`fitCompany`) in a worker thread of its own, so the minute a million guests take never
 * holds the event loop that answers requests (and, on PGlite, runs the database). From the sources (tsx in
 * development, tests, scripts and `npm run bench`) the thread loads `fit-thread.ts` through tsx; in the build
 * (`npm start`, `npm run worker`) it loads `clv-fit-thread.mjs`, which scripts/build.mjs writes beside
 * main.mjs and worker.mjs.
 */

const FROM_SOURCES = import.meta.url.endsWith('.ts');
const THREAD_ENTRY = FROM_SOURCES
  ? new URL('./fit-thread.ts', import.meta.url)
  : new URL('./clv-fit-thread.mjs', import.meta.url);
const THREAD_ARGS = FROM_SOURCES ? ['--import', 'tsx'] : [];

/** Fits in a worker thread; the histories' buffers move to it (the input's columns are empty afterwards). */
export function fitOffThread(input: CompanyFitInput, signal?: AbortSignal): Promise<CompanyFitResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const thread = new Worker(THREAD_ENTRY, { execArgv: THREAD_ARGS });
    const abort = () => {
      void thread.terminate();
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', abort, { once: true });
    const settle = () => signal?.removeEventListener('abort', abort);
    thread.once('message', (result: CompanyFitResult) => {
      settle();
      resolve(result);
      void thread.terminate();
    });
    thread.once('error', (error: Error) => {
      settle();
      reject(error);
    });
    thread.once('exit', (code) => {
      settle();
      // After an answer or an error this changes nothing; otherwise the thread ended without either.
      reject(new Error(`The CLV fit thread ended (exit code ${code}) without an answer`));
    });
    thread.postMessage(input, buffersOf(input.histories));
  });
}
