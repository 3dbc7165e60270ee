import { fromPromise } from 'xstate';
import { demoStatusMachine } from '../../machines/demo-status.machine.js';
import { DemoStatusSchema, type DemoStatus } from '../../schemas/demo.js';
import { apiRequest } from '../../services/api-client.js';
import { answerOf } from './answer.js';

/** The demo-loading banner's machine with `GET /api/demo/status/`. */
export const demoStatusLogic = demoStatusMachine.provide({
  actors: {
    fetchDemoStatus: fromPromise<DemoStatus, void>(({ signal }) =>
      answerOf(apiRequest({ method: 'GET', path: '/demo/status/', schema: DemoStatusSchema }), signal),
    ),
  },
});
