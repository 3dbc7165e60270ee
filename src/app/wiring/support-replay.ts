import { fromPromise } from 'xstate';
import { MACHINES } from '../../machines/registry.js';
import { type ReplaySource, supportReplayMachine } from '../../machines/support-replay.machine.js';
import { parseJsonLines } from '../../replay/replay.js';
import { buildTimeline, type ReplayTimeline } from '../../replay/steps.js';
import { type SupportEventLog, SupportEventLogPageSchema } from '../../schemas/support.js';
import { apiRequest, apiRequestText } from '../../services/api-client.js';
import { entriesToJsonLines, eventLog } from '../../services/event-log.js';
import { answerOf } from './answer.js';

/** How many captured logs the screen lists (the newest). */
const LISTED_LOGS = 100;

/** `GET /api/support/event-logs/{id}/`: the captured log's JSON Lines, through the API client. */
function downloadCapturedLog(id: number, signal: AbortSignal): Promise<string> {
  return answerOf(
    apiRequestText({ method: 'GET', path: `/support/event-logs/${id}/` }, 'application/x-ndjson'),
    signal,
  );
}

/** The JSON Lines of a source: the file's text, the page's own log, or the captured log downloaded. */
async function textOf(source: ReplaySource, signal: AbortSignal): Promise<string> {
  switch (source.kind) {
    case 'file':
      return source.file.text();
    case 'page':
      eventLog.flush();
      return entriesToJsonLines(eventLog.snapshot());
    case 'captured':
      return downloadCapturedLog(source.id, signal);
  }
}

/**
 * The replay screen's machine with `GET /api/support/event-logs/` (the newest captured logs) and the replay
 * itself: the source's text, parsed (a bad line fails with its number) and fed through every machine.
 */
export const supportReplayLogic = supportReplayMachine.provide({
  actors: {
    listLogs: fromPromise<SupportEventLog[], void>(({ signal }) =>
      answerOf(
        apiRequest({
          method: 'GET',
          path: '/support/event-logs/',
          query: { page: 1, page_size: LISTED_LOGS },
          schema: SupportEventLogPageSchema,
        }),
        signal,
      ).then((page) => page.results),
    ),
    loadReplay: fromPromise<ReplayTimeline, ReplaySource>(async ({ input, signal }) =>
      buildTimeline(parseJsonLines(await textOf(input, signal)), MACHINES),
    ),
  },
});
