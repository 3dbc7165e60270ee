import { parentPort } from 'node:worker_threads';
import { buffersOf, fitCompany, type CompanyFitInput } from './company-fit.js';

/**
 * The worker thread's entry (started by server/clv/fit-off-thread.ts; built as dist/server/clv-fit-thread.mjs):
 * one company's fit, off the API's event loop. It receives the histories, answers with the fit and hands the
 * figures' buffers back without copying, and then has nothing left to do, so the thread ends.
 */
parentPort!.once('message', (input: CompanyFitInput) => {
  const result = fitCompany(input);
  parentPort!.postMessage(result, buffersOf(result.predictions));
});
