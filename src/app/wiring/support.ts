import { fromPromise } from 'xstate';
import { supportLogMachine } from '../../machines/support-log.machine.js';
import { SupportEventLogCreatedSchema, type SupportEventLogCreated } from '../../schemas/support.js';
import { apiRequest } from '../../services/api-client.js';
import { downloadEventLog, eventLog } from '../../services/event-log.js';
import { answerOf } from './answer.js';

/** The support menu's machine with the page's event log: download as JSON Lines, `POST /api/support/event-logs/`. */
export const supportLogLogic = supportLogMachine.provide({
  actors: {
    sendLog: fromPromise<SupportEventLogCreated, void>(({ signal }) =>
      answerOf(
        apiRequest({
          method: 'POST',
          path: '/support/event-logs/',
          body: { entries: eventLog.snapshot() },
          schema: SupportEventLogCreatedSchema,
        }),
        signal,
      ),
    ),
  },
  actions: {
    downloadLog: () => downloadEventLog(),
  },
});
