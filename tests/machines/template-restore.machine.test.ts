import { createTestModel } from '@xstate/graph';
import { createActor, type EventFromLogic } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { TEMPLATE_UNDO_MS, templateRestoreMachine } from '../../src/machines/template-restore.machine.js';
import type { EmailTemplate } from '../../src/schemas/email-templates.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const WELCOME: EmailTemplate = {
  id: 7,
  name: 'Welcome',
  export_html: '<mjml><mj-body><mj-text>Hello</mj-text></mj-body></mjml>',
  html_content: '<html>Hello</html>',
  text_content: 'Hello',
  created_at: '2026-03-05T14:07:00.000Z',
  updated_at: '2026-03-06T09:00:00.000Z',
};
// What the server answers to the restore: the same name and design under a new id.
const BACK: EmailTemplate = { ...WELCOME, id: 12, created_at: '2026-11-26T23:00:00.000Z' };
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof templateRestoreMachine>[] = [
  { type: 'template.deleted', template: WELCOME },
  { type: 'template.undo' },
  { type: 'offer.expire' },
  { type: 'offer.dismiss' },
  { type: 'problem.dismiss' },
  { type: 'xstate.done.actor.restoreTemplate', actorId: 'restoreTemplate', output: BACK },
  { type: 'xstate.error.actor.restoreTemplate', actorId: 'restoreTemplate', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  templateRestoreMachine.provide({
    actors: { restoreTemplate: pendingActor('restoreTemplate', recording) },
  });

const checks: StateChecks = {
  idle: (snapshot) => {
    // A failed restore keeps the template, so its alert can name it; otherwise nothing is held.
    if (snapshot.context.problem) {
      expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
      expect(snapshot.context.template).toEqual(WELCOME);
    } else expect(snapshot.context.template).toBeNull();
  },
  offering: (snapshot) => {
    expect(snapshot.context.template).toEqual(WELCOME);
    expect(snapshot.context.problem).toBeNull();
    expect(snapshot.hasTag('busy')).toBe(false);
  },
  restoring: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    // The whole deleted template goes to the call: its name and design are what it is made again from.
    expect(recording.invoked.at(-1)).toEqual({ src: 'restoreTemplate', input: WELCOME });
  },
};

const model = createTestModel(templateRestoreMachine, { events: SAMPLES });
const { transitions: paths } = everyTransition(templateRestoreMachine, model);

describe('template restore machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['idle', 'offering', 'restoring']);
  });

  it('announces the template brought back once per restore, and nothing when it failed or was not asked', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const announced = recording.emitted.filter((event) => event.type === 'template.restored');
      const restored = path.steps.filter(
        (step, index) =>
          step.event.type === 'xstate.done.actor.restoreTemplate' &&
          path.steps[index - 1]?.state.matches('restoring'),
      ).length;
      expect(announced).toEqual(
        Array.from({ length: restored }, () => ({ type: 'template.restored', template: BACK })),
      );
    }
  });

  it('restores only after Undo while offered: an expired or dismissed offer makes no call', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const undone = path.steps.filter(
        (step, index) =>
          step.event.type === 'template.undo' && path.steps[index - 1]?.state.matches('offering'),
      ).length;
      expect(recording.invoked.filter((call) => call.src === 'restoreTemplate')).toHaveLength(undone);
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});

describe('template restore machine (its clock)', () => {
  it('withdraws the offer after the undo window, and a second delete starts the window again', () => {
    vi.useFakeTimers();
    try {
      const recording: Recording = { invoked: [], emitted: [] };
      const actor = createActor(start(recording)).start();
      actor.send({ type: 'template.deleted', template: WELCOME });
      vi.advanceTimersByTime(TEMPLATE_UNDO_MS - 1);
      expect(actor.getSnapshot().value).toBe('offering');
      const other = { ...WELCOME, id: 9, name: 'Birthday' };
      actor.send({ type: 'template.deleted', template: other });
      vi.advanceTimersByTime(TEMPLATE_UNDO_MS - 1);
      expect(actor.getSnapshot().value).toBe('offering');
      expect(actor.getSnapshot().context.template).toEqual(other);
      vi.advanceTimersByTime(1);
      expect(actor.getSnapshot().value).toBe('idle');
      expect(actor.getSnapshot().context.template).toBeNull();
      expect(recording.invoked).toEqual([]);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
