import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { templateActionsMachine } from '../../src/machines/template-actions.machine.js';
import type { EmailTemplate, EmailTemplateSummary } from '../../src/schemas/email-templates.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const WELCOME: EmailTemplateSummary = {
  id: 7,
  name: 'Welcome',
  created_at: '2026-03-05T14:07:00.000Z',
  updated_at: '2026-03-06T09:00:00.000Z',
};
const COPY: EmailTemplate = {
  ...WELCOME,
  id: 8,
  name: 'Welcome (copy)',
  export_html: '<mjml></mjml>',
  html_content: '<html></html>',
  text_content: '',
};
const HTML = '<!doctype html><p>Hello Alex</p>';
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };

const SAMPLES: EventFromLogic<typeof templateActionsMachine>[] = [
  { type: 'preview.open', template: WELCOME },
  { type: 'preview.close' },
  { type: 'preview.retry' },
  { type: 'template.duplicate', template: WELCOME },
  { type: 'problem.dismiss' },
  { type: 'xstate.done.actor.loadPreview', actorId: 'loadPreview', output: HTML },
  { type: 'xstate.error.actor.loadPreview', actorId: 'loadPreview', error: SERVER_DOWN },
  { type: 'xstate.done.actor.duplicateTemplate', actorId: 'duplicateTemplate', output: COPY },
  { type: 'xstate.error.actor.duplicateTemplate', actorId: 'duplicateTemplate', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  templateActionsMachine.provide({
    actors: {
      loadPreview: pendingActor('loadPreview', recording),
      duplicateTemplate: pendingActor('duplicateTemplate', recording),
    },
  });

const checks: StateChecks = {
  idle: (snapshot) => {
    // A failed copy keeps its template, so the problem can name it.
    if (snapshot.context.problem) expect(snapshot.context.template).toEqual(WELCOME);
    else expect(snapshot.context.template).toBeNull();
    expect(snapshot.context.html).toBeNull();
  },
  loadingPreview: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'loadPreview', input: WELCOME });
  },
  previewing: (snapshot) => {
    expect(snapshot.context).toMatchObject({ template: WELCOME, html: HTML, problem: null });
  },
  previewFailed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
    expect(snapshot.context.html).toBeNull();
  },
  duplicating: (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'duplicateTemplate', input: WELCOME });
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof templateActionsMachine.getInitialSnapshot>;
  return JSON.stringify({ value, html: context.html !== null, problem: context.problem !== null });
}

const model = createTestModel(templateActionsMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(templateActionsMachine, model);

describe('template actions machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'duplicating',
      'idle',
      'loadingPreview',
      'previewFailed',
      'previewing',
    ]);
  });

  it('announces each copy once it is made, and keeps the problem of a copy that failed', () => {
    for (const path of paths) {
      const recording = replayPath(path, start, checks);
      const made = path.steps.filter(
        (step, index) =>
          step.event.type === 'xstate.done.actor.duplicateTemplate' &&
          path.steps[index - 1]?.state.matches('duplicating'),
      );
      expect(recording.emitted.filter((event) => event.type === 'template.duplicated')).toEqual(
        made.map(() => ({ type: 'template.duplicated', template: COPY })),
      );
      path.steps.forEach((step, index) => {
        if (
          step.event.type === 'xstate.error.actor.duplicateTemplate' &&
          path.steps[index - 1]?.state.matches('duplicating')
        )
          expect(step.state.context.problem).toMatchObject({ code: 'internal' });
      });
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
