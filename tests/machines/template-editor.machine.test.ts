import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  BLANK_DESIGN,
  templateEditorMachine,
  type EditorSource,
  type TemplateEditorContext,
} from '../../src/machines/template-editor.machine.js';
import { TEMPLATE_LIMITS, type EmailImage, type EmailTemplate } from '../../src/schemas/email-templates.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, untakenTransitions, valueKey } from './support/walk.js';

const STORED: EmailTemplate = {
  id: 41,
  name: 'Welcome',
  export_html:
    '<mjml><mj-body><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>',
  html_content: '<html>Hi</html>',
  text_content: 'Hi',
  created_at: '2026-03-05T14:07:00.000Z',
  updated_at: '2026-03-06T09:00:00.000Z',
};
const STARTER = {
  key: 'birthday' as const,
  name: 'Birthday',
  description: 'A treat on their day',
  export_html:
    '<mjml><mj-body><mj-section><mj-column><mj-text>Happy birthday</mj-text></mj-column></mj-section></mj-body></mjml>',
};
const CATALOGUE = {
  menuItems: [{ id: 3, name: 'Crab cakes', price: 14.5 }],
  locations: [{ id: 1, name: 'Downtown', address: '100 Harbor Street, Portland, OR 97201' }],
  starters: [STARTER],
};
const EDITED =
  '<mjml><mj-body><mj-section><mj-column><mj-button>Book</mj-button></mj-column></mj-section></mj-body></mjml>';
const IMAGE: EmailImage = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  url: 'http://localhost/email-images/AAAAAAAAAAAAAAAAAAAAAA',
  content_type: 'image/png',
  byte_size: 70,
};
const INVALID_MJML = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { export_html: 'Line 1: mj-text cannot be used inside mj-body' },
};
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const PNG = new File([new Uint8Array(70)], 'dish.png', { type: 'image/png' });
const PDF = new File([new Uint8Array(70)], 'menu.pdf', { type: 'application/pdf' });
const HUGE = new File([new Uint8Array(TEMPLATE_LIMITS.imageMaxBytes + 1)], 'huge.jpg', {
  type: 'image/jpeg',
});

const saved = (id: number): EmailTemplate => ({ ...STORED, id });

/** The events the model offers, given whether it opened an existing template or a new one. */
function samplesFor(source: EditorSource): EventFromLogic<typeof templateEditorMachine>[] {
  return [
    { type: 'editor.retry' },
    { type: 'name.change', value: '' },
    { type: 'name.change', value: 'Spring menu' },
    { type: 'design.changed', design: EDITED },
    { type: 'history.changed', canUndo: true, canRedo: false },
    { type: 'starter.pick', key: 'birthday' },
    { type: 'starter.pick', key: 'no_such_starter' },
    { type: 'template.save' },
    { type: 'problem.dismiss' },
    { type: 'image.upload', file: PNG },
    { type: 'image.upload', file: PDF },
    { type: 'image.upload', file: HUGE },
    { type: 'upload.dismiss' },
    { type: 'leave.request' },
    { type: 'leave.confirm' },
    { type: 'leave.cancel' },
    { type: 'xstate.done.actor.loadEditor', actorId: 'loadEditor', output: source },
    { type: 'xstate.error.actor.loadEditor', actorId: 'loadEditor', error: SERVER_DOWN },
    {
      type: 'xstate.done.actor.saveTemplate',
      actorId: 'saveTemplate',
      output: saved(source.template?.id ?? 52),
    },
    { type: 'xstate.error.actor.saveTemplate', actorId: 'saveTemplate', error: INVALID_MJML },
    { type: 'xstate.done.actor.uploadImage', actorId: 'uploadImage', output: IMAGE },
    { type: 'xstate.error.actor.uploadImage', actorId: 'uploadImage', error: SERVER_DOWN },
  ];
}

const start = (recording: Recording) =>
  templateEditorMachine.provide({
    actors: {
      loadEditor: pendingActor('loadEditor', recording),
      saveTemplate: pendingActor('saveTemplate', recording),
      uploadImage: pendingActor('uploadImage', recording),
    },
  });

// A model state keeps what the guards and the checks below read, not every text the samples typed: the state,
// whether the template is new, whether its name is blank (the save's validity), a change made mid-save, the
// field errors, the problem and upload problem shown, and the canvas's revision as "opened" or "starter" (each
// starter picked bumps it: the model would never end). Every sample event is still sent from each of these
// states, and `untakenTransitions` below shows every transition of the machine is taken. (The snapshot's whole
// context as the key, names, designs and undo flags included, made nearly 9 times the paths without a state or a
// transition more: 74,000 replays.)
const serializeState = (snapshot: { value: unknown; context: TemplateEditorContext }) => {
  const { context } = snapshot;
  return JSON.stringify({
    value: snapshot.value,
    isNew: context.id === null,
    named: context.name.trim() !== '',
    changedWhileSaving: context.changedWhileSaving,
    fieldErrors: Object.keys(context.fieldErrors).sort(),
    problem: context.problem?.code ?? null,
    uploadProblem: context.uploadProblem !== null,
    loaded: Math.min(context.loaded.revision, 2),
  });
};

/** The state meanings, for an editor opened at `id` (null: a new template). */
function checksFor(id: number | null): StateChecks {
  return {
    loading: (snapshot, recording) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(recording.invoked.at(-1)).toEqual({ src: 'loadEditor', input: { id } });
    },
    loadFailed: (snapshot) => {
      expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
    },
    ready: (snapshot, recording) => {
      const { context } = snapshot;
      expect(context.catalogue).toEqual(CATALOGUE);
      // The canvas shows the stored design, or the blank one, until a starter replaces it.
      const starterPicked = context.loaded.revision > 1;
      expect(context.loaded.design).toBe(
        starterPicked ? STARTER.export_html : id === null ? BLANK_DESIGN : STORED.export_html,
      );
      // Every save announced names the template the server answered; only the first save of a new one creates.
      const announced = recording.emitted.filter((event) => event.type === 'template.saved');
      announced.forEach((event, index) =>
        expect(event).toEqual({
          type: 'template.saved',
          id: id ?? 52,
          created: id === null && index === 0,
        }),
      );
    },
    'ready.document.clean': (snapshot, recording) => {
      expect(snapshot.hasTag('unsaved')).toBe(false);
      // Opened and untouched: the name and design are the stored ones.
      expect(snapshot.context.name).toBe(id === null ? '' : STORED.name);
      expect(recording.emitted.some((event) => event.type === 'template.saved')).toBe(false);
    },
    'ready.document.dirty': (snapshot) => {
      expect(snapshot.hasTag('unsaved')).toBe(true);
    },
    'ready.document.saving': (snapshot, recording) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      const sent = recording.invoked.filter((call) => call.src === 'saveTemplate').at(-1);
      const { context } = snapshot;
      // What was sent was valid; the name and design sent were the context's when the save began.
      expect(sent?.input).toMatchObject({ id: context.id });
      const body = (sent?.input as { template: { name: string; export_html: string } }).template;
      expect(body.name.trim()).not.toBe('');
      if (!context.changedWhileSaving)
        expect(body).toEqual({ name: context.name, export_html: context.design });
    },
    'ready.document.saved': (snapshot, recording) => {
      expect(snapshot.hasTag('unsaved')).toBe(false);
      expect(snapshot.context.id).toBe(id ?? 52);
      expect(recording.emitted.filter((event) => event.type === 'template.saved').length).toBeGreaterThan(0);
    },
    'ready.document.failed': (snapshot) => {
      expect(snapshot.hasTag('unsaved')).toBe(true);
      // The server's words about the design, for the person who wrote it.
      expect(snapshot.context.problem?.fields.export_html?.message).toBe(INVALID_MJML.fields.export_html);
    },
    'ready.document.confirmingLeave': (snapshot, recording) => {
      expect(snapshot.hasTag('unsaved')).toBe(true);
      expect(recording.emitted.at(-1)?.type).not.toBe('leave.allowed');
    },
    'ready.document.left': (_snapshot, recording) => {
      expect(recording.emitted.filter((event) => event.type === 'leave.allowed')).toHaveLength(1);
    },
    'ready.images.idle': (snapshot, recording) => {
      const { uploadProblem } = snapshot.context;
      if (uploadProblem?.reason === 'server') expect(uploadProblem.problem.code).toBe('internal');
      // Only files of an image type within the limit ever went up.
      for (const call of recording.invoked.filter((entry) => entry.src === 'uploadImage'))
        expect(call.input).toBe(PNG);
    },
    'ready.images.uploading': (snapshot, recording) => {
      expect(snapshot.hasTag('uploading')).toBe(true);
      expect(snapshot.context.uploadProblem).toBeNull();
      expect(recording.invoked.filter((entry) => entry.src === 'uploadImage').at(-1)?.input).toBe(PNG);
    },
  };
}

for (const [label, id, source] of [
  ['a stored template', STORED.id, { template: STORED, catalogue: CATALOGUE }],
  ['a new template', null, { template: null, catalogue: CATALOGUE }],
] as const) {
  const model = createTestModel(templateEditorMachine, {
    events: samplesFor(source),
    input: { id },
    serializeState,
  });
  const { transitions: paths } = everyTransition(templateEditorMachine, model);
  const checks = checksFor(id);

  describe(`template editor machine on ${label} (model)`, () => {
    it('reaches every state', () => {
      expect(reachedStates(paths)).toEqual([
        'loadFailed',
        'loading',
        'ready.document.clean',
        'ready.document.confirmingLeave',
        'ready.document.dirty',
        'ready.document.failed',
        'ready.document.left',
        'ready.document.saved',
        'ready.document.saving',
        'ready.images.idle',
        'ready.images.uploading',
      ]);
    });

    it('takes every transition of the machine', () => {
      // A template opened from the server is never new, so neither of the clean state's save candidates (both
      // for new templates) applies; a new one opens blank and unnamed, so it is never valid while still clean.
      expect(untakenTransitions(templateEditorMachine, paths)).toEqual(
        id === null
          ? ['templateEditor.ready.document.clean · template.save · 0']
          : [
              'templateEditor.ready.document.clean · template.save · 0',
              'templateEditor.ready.document.clean · template.save · 1',
            ],
      );
    });

    it('refuses a file that is not an image, or too large, before sending it', () => {
      const reasons = new Set(
        paths.flatMap((path) => path.steps.map((step) => step.state.context.uploadProblem?.reason)),
      );
      expect([...reasons].filter(Boolean).sort()).toEqual(['server', 'size', 'type']);
    });

    it('lets a leave through at once with nothing unsaved, and only after confirming otherwise', () => {
      const leaving = paths.filter((path) =>
        ['leave.request', 'leave.confirm'].includes(path.steps.at(-1)!.event.type),
      );
      for (const path of leaving) {
        const recording = replayPath(path, start, checks, { id });
        const allowed = recording.emitted.filter((event) => event.type === 'leave.allowed').length;
        const asked = path.steps.filter(
          (step, index) =>
            index > 0 &&
            ((step.event.type === 'leave.request' &&
              !path.steps[index - 1]!.state.hasTag('unsaved') &&
              path.steps[index - 1]!.state.matches('ready')) ||
              (step.event.type === 'leave.confirm' &&
                path.steps[index - 1]!.state.matches({ ready: { document: 'confirmingLeave' } }))),
        ).length;
        expect(allowed).toBe(asked);
      }
    });

    const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
    for (const [from, group] of bySource) {
      it(`keeps each state's meaning through the ${group.length} transitions out of ${from}`, () => {
        for (const path of group) replayPath(path, start, checks, { id });
      });
    }
  });
}
