import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  verifySenderMachine,
  type VerifySenderEvent,
  type VerifySenderInput,
} from '../../src/machines/verify-sender.machine.js';
import type { EmailSender } from '../../src/schemas/accounts.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition } from './support/walk.js';

// The /verify-sender page: one call with the link's token, then the verified sender or the reason.

const VERIFIED: EmailSender = {
  id: 7,
  name: 'Harbor Grill',
  email: 'hello@harbor.example',
  reply_to: '',
  is_default: true,
  verified_at: '2026-11-25T20:01:00.000Z',
  created_at: '2026-11-01T10:00:00.000Z',
};
const USED = { status: 400, code: 'verification_link_used', message: 'Already used', fields: {} };
const OFFLINE = { status: null, code: 'unexpected', message: 'Failed to fetch', fields: {} };

const SAMPLES: VerifySenderEvent[] = [
  { type: 'xstate.done.actor.verifySender', actorId: 'verifySender', output: VERIFIED },
  { type: 'xstate.error.actor.verifySender', actorId: 'verifySender', error: USED },
  { type: 'xstate.error.actor.verifySender', actorId: 'verifySender', error: OFFLINE },
  { type: 'verify.retry' },
];

const start = (recording: Recording) =>
  verifySenderMachine.provide({ actors: { verifySender: pendingActor('verifySender', recording) } });

const checks: StateChecks = {
  verifying: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'verifySender', input: 'tok-123' });
  },
  verified: (snapshot) => {
    expect(snapshot.status).toBe('done');
    expect(snapshot.context.sender).toEqual(VERIFIED);
  },
  failed: (snapshot) => {
    expect(snapshot.context.sender).toBeNull();
    const { problem } = snapshot.context;
    expect(['verification_link_used', 'unexpected']).toContain(problem?.code);
    // Only an answer that never came may be asked for again; a link's own problem stays.
    expect(snapshot.can({ type: 'verify.retry' })).toBe(problem?.status === null);
  },
  missingToken: (snapshot, recording) => {
    expect(snapshot.status).toBe('done');
    expect(recording.invoked).toEqual([]);
  },
};

function walk(input: VerifySenderInput) {
  const model = createTestModel(verifySenderMachine, { events: SAMPLES, input });
  return everyTransition(verifySenderMachine, model).transitions;
}

describe('verify sender machine (model)', () => {
  const withToken = walk({ token: ' tok-123 ' });
  const withoutToken = walk({ token: null });

  it('verifies with the link token, or fails or retries, and stops without one', () => {
    expect(reachedStates(withToken)).toEqual(['failed', 'verified', 'verifying']);
    expect(reachedStates(withoutToken)).toEqual([]);
  });

  it('keeps each state its meaning on every path with a token', () => {
    for (const path of withToken) replayPath(path, start, checks, { token: ' tok-123 ' });
  });

  it('makes no call when the link has no token', () => {
    for (const input of [{ token: null }, { token: '  ' }]) {
      const recording: Recording = { invoked: [], emitted: [] };
      const model = createTestModel(verifySenderMachine, { events: SAMPLES, input });
      const { reached } = everyTransition(verifySenderMachine, model);
      expect(reached.map((path) => path.state.value)).toEqual(['missingToken']);
      for (const path of reached) replayPath(path, () => start(recording), checks, input);
      expect(recording.invoked).toEqual([]);
    }
  });
});
