import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  sentMailMessageMachine,
  type SentMailMessageEvent,
} from '../../src/machines/sent-mail-message.machine.js';
import type { SentMail } from '../../src/schemas/sending.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const MESSAGE: SentMail = {
  id: 7,
  from: 'news@harbor.example',
  to: 'reader@example.com',
  subject: 'Autumn menu',
  run_id: 3,
  created_at: '2026-11-26T10:00:00.000Z',
  html: '<p>Hello</p>',
  text: 'Hello',
  headers: [{ name: 'List-Unsubscribe', value: '<https://x.example/u/t>' }],
  message_id: '<r3.s1@localhost>',
  outbox_id: 11,
};
const NOT_FOUND = { status: 404, code: 'not_found', message: 'Sent mail not found' };

const SAMPLES: SentMailMessageEvent[] = [
  { type: 'message.open', id: 7 },
  { type: 'message.open', id: 8 },
  { type: 'message.close' },
  { type: 'message.retry' },
  { type: 'xstate.done.actor.loadMessage', actorId: 'loadMessage', output: MESSAGE },
  { type: 'xstate.error.actor.loadMessage', actorId: 'loadMessage', error: NOT_FOUND },
];

const start = (recording: Recording) =>
  sentMailMessageMachine.provide({ actors: { loadMessage: pendingActor('loadMessage', recording) } });

const checks: StateChecks = {
  closed: (snapshot) => {
    expect(snapshot.context).toEqual({ id: null, message: null, problem: null });
  },
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The call asks for the message last opened, and nothing of an earlier one is shown meanwhile.
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadMessage', input: snapshot.context.id });
    expect(snapshot.context.message).toBeNull();
  },
  showing: (snapshot) => {
    expect(snapshot.context.message).toEqual(MESSAGE);
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'not_found' });
    expect(snapshot.context.id).not.toBeNull();
  },
};

const model = createTestModel(sentMailMessageMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(sentMailMessageMachine, model);

describe('sent mail message machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['closed', 'failed', 'loading', 'showing']);
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
