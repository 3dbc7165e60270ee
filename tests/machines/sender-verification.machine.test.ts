import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  senderVerificationMachine,
  type SenderVerificationEvent,
} from '../../src/machines/sender-verification.machine.js';
import type { EmailSender } from '../../src/schemas/accounts.js';
import type { VerificationSent } from '../../src/schemas/sender-verification.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

// Sending a sender its verification email from the senders tab: sent to a mail server, or kept in the app
// (then the email can be opened), or refused.

const SENDER: EmailSender = {
  id: 7,
  name: 'Harbor Grill',
  email: 'hello@harbor.example',
  reply_to: '',
  is_default: true,
  verified_at: null,
  created_at: '2026-11-01T10:00:00.000Z',
};
const CAPTURED: VerificationSent = {
  delivery: 'captured',
  message: {
    id: 3,
    from: '"Regulars" <no-reply@localhost>',
    to: SENDER.email,
    subject: 'Verify hello@harbor.example for Regulars',
    text: 'Open http://localhost:3000/verify-sender?token=abc',
    html: null,
    created_at: '2026-11-25T20:00:00.000Z',
  },
};
const SENT: VerificationSent = { delivery: 'sent', message: null };
const ALREADY = { status: 409, code: 'sender_already_verified', message: 'Already verified', fields: {} };

const SAMPLES: SenderVerificationEvent[] = [
  { type: 'verification.send', sender: SENDER },
  { type: 'message.open' },
  { type: 'message.close' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.sendVerification', actorId: 'sendVerification', output: CAPTURED },
  { type: 'xstate.done.actor.sendVerification', actorId: 'sendVerification', output: SENT },
  { type: 'xstate.error.actor.sendVerification', actorId: 'sendVerification', error: ALREADY },
];

const start = (recording: Recording) =>
  senderVerificationMachine.provide({
    actors: { sendVerification: pendingActor('sendVerification', recording) },
  });

const checks: StateChecks = {
  idle: (snapshot) => {
    const { delivery, captured, problem } = snapshot.context;
    expect(snapshot.hasTag('busy')).toBe(false);
    // A captured email is there exactly when the server kept it; a problem never shows beside a result.
    expect(captured !== null).toBe(delivery === 'captured');
    if (problem) {
      expect(delivery).toBeNull();
      expect(problem.code).toBe('sender_already_verified');
    }
  },
  sending: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context).toMatchObject({ delivery: null, captured: null, problem: null });
    expect(recording.invoked.at(-1)).toEqual({ src: 'sendVerification', input: SENDER.id });
  },
  reading: (snapshot) => {
    expect(snapshot.context.captured).toEqual(CAPTURED.message);
  },
};

const model = createTestModel(senderVerificationMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(senderVerificationMachine, model);

describe('sender verification machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['idle', 'reading', 'sending']);
  });

  it('opens a message only when the server kept one', () => {
    for (const path of paths) {
      const steps = path.steps;
      const last = steps.at(-1)!;
      if (last.event.type === 'message.open' && last.state.matches('reading')) {
        expect(steps.at(-2)!.state.context.delivery).toBe('captured');
      }
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
