import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { SupportEventLogCreated } from '../schemas/support.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What the support menu sends. */
export type SupportLogCommand = { type: 'log.export' } | { type: 'log.send' } | { type: 'notice.dismiss' };

/** Everything the support-log machine handles: the menu's commands and the upload's result. */
export type SupportLogEvent =
  SupportLogCommand | DoneActorEvent<SupportEventLogCreated, 'sendLog'> | ErrorActorEvent<unknown, 'sendLog'>;

/** What the support menu knows: the id of the log last sent, and why the last send failed. */
export interface SupportLogContext {
  sentId: number | null;
  problem: ApiProblem | null;
}

// The support log's types, actors and actions.
const supportLogSetup = setup({
  types: {
    context: {} as SupportLogContext,
    events: {} as SupportLogEvent,
  },
  actors: {
    /** `POST /api/support/event-logs/` with the page's event log, answering the stored log's id. */
    sendLog: placeholder<SupportEventLogCreated, void>(),
  },
  actions: {
    /** Saves the page's event log as a `.jsonl` file (provided by src/app). */
    downloadLog: () => undefined,
    keepSentId: assign((_, created: SupportEventLogCreated) => ({ sentId: created.id, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    clearNotice: assign({ problem: null }),
  },
});
const request = requestIn(supportLogSetup);

/**
 * The support menu's event log: "Export" downloads the page's event log as JSON Lines (the `downloadLog`
 * action, provided by src/app); "Send to support" uploads it (`POST /api/support/event-logs/`) through
 * `sending` to `sent` (with the stored log's id) or `failed` (with the problem); a notice is dismissed to `idle`.
 */
export const supportLogMachine = supportLogSetup.createMachine({
  id: 'supportLog',
  context: { sentId: null, problem: null },
  initial: 'idle',
  on: {
    'log.export': { actions: 'downloadLog' },
  },
  states: {
    // Every way into `sending` clears the last notice, so a send never shows the previous failure.
    idle: {
      on: { 'log.send': { target: 'sending', actions: 'clearNotice' } },
    },
    sending: {
      tags: ['busy'],
      ...request('sendLog', {
        done: {
          target: 'sent',
          actions: { type: 'keepSentId', params: ({ event }) => event.output },
        },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    sent: {
      on: { 'log.send': { target: 'sending', actions: 'clearNotice' }, 'notice.dismiss': 'idle' },
    },
    failed: {
      on: {
        'log.send': { target: 'sending', actions: 'clearNotice' },
        'notice.dismiss': { target: 'idle', actions: 'clearNotice' },
      },
    },
  },
});
