import { firstValueFrom, fromEvent, takeUntil, type Observable } from 'rxjs';
import { fromPromise } from 'xstate';
import { supportLogMachine } from '../../machines/support-log.machine.js';
import { SupportEventLogCreatedSchema, type SupportEventLogCreated } from '../../schemas/support.js';
import { apiRequest } from '../../services/api-client.js';
import { downloadEventLog, eventLog } from '../../services/event-log.js';

/** The call's single answer; stopping the actor (its signal aborts) unsubscribes, which aborts the request. */
function answerOf<T>(call: Observable<T>, signal: AbortSignal): Promise<T> {
  return firstValueFrom(call.pipe(takeUntil(fromEvent(signal, 'abort'))));
}

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
