import { createTestModel } from '@xstate/graph';
import type { EventFromLogic } from 'xstate';
import { describe, expect, it } from 'vitest';
import { emailTemplatesMachine, NEW_TEMPLATE_FORM } from '../../src/machines/email-templates.machine.js';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
import type { Page } from '../../src/schemas/common.js';
import type { EmailTemplateSummary } from '../../src/schemas/email-templates.js';
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
const TEMPLATES = { count: 1, next: null, previous: null, results: [WELCOME] };
const STARTER_MJML = '<mjml><mj-body></mj-body></mjml>';

const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const NAME_TAKEN = {
  status: 400,
  code: 'validation_failed',
  message: 'A template named "Welcome" already exists',
  fields: { name: 'A template named "Welcome" already exists' },
  fieldProblems: { name: { code: 'in_use' } },
};

const SAMPLES: EventFromLogic<typeof emailTemplatesMachine>[] = [
  { type: 'list.retry' },
  { type: 'search.change', query: 'wel' },
  { type: 'search.settled' },
  { type: 'item.add' },
  { type: 'item.edit', item: WELCOME },
  { type: 'item.delete', item: WELCOME },
  { type: 'item.open', item: WELCOME },
  { type: 'field.change', field: 'name', value: 'Spring welcome' },
  { type: 'field.change', field: 'name', value: '   ' },
  // Picking a starter in the new-template dialog.
  { type: 'field.change', field: 'export_html', value: STARTER_MJML },
  { type: 'dialog.submit' },
  { type: 'dialog.close' },
  { type: 'delete.confirm' },
  { type: 'list.refresh' },
  { type: 'refresh.due' },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: TEMPLATES },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: WELCOME },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: NAME_TAKEN },
  { type: 'xstate.done.actor.updateItem', actorId: 'updateItem', output: WELCOME },
  { type: 'xstate.error.actor.updateItem', actorId: 'updateItem', error: NAME_TAKEN },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  emailTemplatesMachine.provide({
    actors: {
      loadList: pendingActor<Page<EmailTemplateSummary>, ListQuery<NoFilters>>('loadList', recording),
      createItem: pendingActor('createItem', recording),
      updateItem: pendingActor('updateItem', recording),
      deleteItem: pendingActor('deleteItem', recording),
    },
    delays: { refreshDelay: 2 ** 30, searchDelay: 2 ** 30 },
  });

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    const query = { page: snapshot.context.page, page_size: 25 } as Record<string, unknown>;
    const searched = (snapshot.context.search as string).trim();
    const call = recording.invoked.at(-1) as { src: string; input: Record<string, unknown> };
    expect(call.src).toBe('loadList');
    expect(call.input).toMatchObject(query);
    // The search text goes with the call once typing has settled, never a blank one.
    if (call.input.q !== undefined) expect(call.input.q).toBe(searched);
  },
  'listing.debouncing': (snapshot) => {
    // Typing waits for a pause before the list is searched.
    expect(snapshot.context.search).toBe('wel');
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual(TEMPLATES.results);
    expect(snapshot.context.problem).toBeNull();
    expect(snapshot.context.form).toEqual(NEW_TEMPLATE_FORM);
  },
  'deleting.confirming': (snapshot) => {
    expect(snapshot.context.selected).toEqual(WELCOME);
  },
  'creating.open': (snapshot) => {
    const { form, fieldErrors } = snapshot.context;
    // A starter must be picked: its MJML is the new template's design.
    if (fieldErrors.export_html) expect(form.export_html).toBe('');
    if (fieldErrors.name && form.name.trim() === '') expect(fieldErrors.name.code).toBe('required');
  },
  'creating.saving': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({
      src: 'createItem',
      input: { name: 'Spring welcome', export_html: STARTER_MJML },
    });
  },
  'editing.open': (snapshot) => {
    expect(snapshot.context.selected).toEqual(WELCOME);
  },
  'editing.saving': (snapshot, recording) => {
    // A rename sends the name alone: the design is the editor's to change.
    expect(recording.invoked.at(-1)).toEqual({
      src: 'updateItem',
      input: { item: WELCOME, changes: { name: snapshot.context.form.name.trim() } },
    });
  },
  'deleting.removing': (_snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: WELCOME });
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as ReturnType<typeof emailTemplatesMachine.getInitialSnapshot>;
  return JSON.stringify({
    value,
    name: context.form.name.trim() !== '',
    design: context.form.export_html !== '',
    search: context.search,
    errors: Object.keys(context.fieldErrors),
    problem: context.problem !== null,
    notice: context.notice,
    held: context.items !== null,
  });
}

const model = createTestModel(emailTemplatesMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(emailTemplatesMachine, model);

describe('email templates machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'editing.open',
      'editing.saving',
      'listing.browsing',
      'listing.debouncing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('creates only with a name and a starter picked', () => {
    for (const path of paths) {
      path.steps.forEach((step, index) => {
        if (!step.state.matches({ creating: 'saving' })) return;
        const before = path.steps[index - 1]!.state.context;
        expect(before.form.name.trim()).not.toBe('');
        expect(before.form.export_html).not.toBe('');
      });
    }
    expect(NEW_TEMPLATE_FORM).toEqual({ name: '', export_html: '' });
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
