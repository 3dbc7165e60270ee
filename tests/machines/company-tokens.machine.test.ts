import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import type { EventFromLogic } from 'xstate';
import {
  companyTokensMachine,
  NEW_TOKEN_FORM,
  type TokenCreateRequest,
} from '../../src/machines/company-tokens.machine.js';
import type { ListQuery, NoFilters } from '../../src/machines/kit/list-machine.js';
import type { CompanyToken, CompanyTokenCreated } from '../../src/schemas/accounts.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const TOKEN: CompanyToken = {
  id: 7,
  name: 'POS import',
  key_prefix: 'ab12cd34',
  created_by: 1,
  created_at: '2024-05-01T10:00:00.000Z',
  last_used_at: null,
  revoked_at: null,
};
const CREATED = { ...TOKEN, id: 8, name: 'Loyalty sync', key: 'rgl_ab12cd34_secret' };
const LIST = [TOKEN, { ...TOKEN, id: 6, name: 'Old import', revoked_at: '2024-06-01T10:00:00.000Z' }];
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const NAME_TOO_LONG = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { name: 'Name is not valid' },
  fieldProblems: { name: { code: 'not_valid' } },
};

const SAMPLES: EventFromLogic<typeof companyTokensMachine>[] = [
  { type: 'field.change', field: 'name', value: 'Loyalty sync' },
  { type: 'field.change', field: 'name', value: '  ' },
  { type: 'item.delete', item: TOKEN },
  { type: 'xstate.done.actor.loadList', actorId: 'loadList', output: LIST },
  { type: 'xstate.error.actor.loadList', actorId: 'loadList', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createItem', actorId: 'createItem', output: CREATED },
  { type: 'xstate.error.actor.createItem', actorId: 'createItem', error: NAME_TOO_LONG },
  { type: 'xstate.done.actor.deleteItem', actorId: 'deleteItem', output: null },
  { type: 'xstate.error.actor.deleteItem', actorId: 'deleteItem', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  companyTokensMachine.provide({
    actors: {
      loadList: pendingActor<CompanyToken[], ListQuery<NoFilters>>('loadList', recording),
      createItem: pendingActor<CompanyTokenCreated, TokenCreateRequest>('createItem', recording),
      deleteItem: pendingActor<unknown, CompanyToken>('deleteItem', recording),
    },
  });

const checks: StateChecks = {
  'listing.loading': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)?.src).toBe('loadList');
    // The key never outlives its dialog.
    expect(snapshot.context.created).toBeNull();
  },
  'listing.failed': (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'listing.browsing': (snapshot) => {
    expect(snapshot.context.items).toEqual(LIST);
    expect(snapshot.context.created).toBeNull();
    expect(snapshot.context.selected).toBeNull();
  },
  'creating.open': (snapshot) => {
    const { context } = snapshot;
    expect(context.created).toBeNull();
    if ('name' in context.fieldErrors) {
      expect(['Name is required', 'Name is not valid']).toContain(context.fieldErrors.name?.message);
    }
  },
  'creating.saving': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'createItem', input: { name: 'Loyalty sync' } });
  },
  // The key is on screen (shown once) until the dialog closes; the notice waits for the list.
  'creating.created': (snapshot) => {
    expect(snapshot.context.created).toEqual(CREATED);
    expect(snapshot.context.notice).toBeNull();
  },
  // Revoking is the kit's delete.
  deleting: (snapshot) => {
    expect(snapshot.context.selected).toEqual(TOKEN);
  },
  'deleting.confirming': (snapshot) => {
    if (snapshot.context.problem) expect(snapshot.context.problem.code).toBe('internal');
  },
  'deleting.removing': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'deleteItem', input: TOKEN });
  },
};

const model = createTestModel(companyTokensMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(companyTokensMachine, model);

describe('company tokens machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'creating.created',
      'creating.open',
      'creating.saving',
      'deleting.confirming',
      'deleting.removing',
      'listing.browsing',
      'listing.failed',
      'listing.loading',
    ]);
  });

  it('forgets the key when the dialog that shows it closes', () => {
    const closings = paths.flatMap((path) =>
      path.steps.filter(
        (step, index) =>
          step.event.type === 'dialog.close' && path.steps[index - 1]?.state.matches({ creating: 'created' }),
      ),
    );
    expect(closings.length).toBeGreaterThan(0);
    for (const step of closings) {
      expect(step.state.matches({ listing: 'loading' })).toBe(true);
      expect(step.state.context.created).toBeNull();
      expect(step.state.context.form).toEqual(NEW_TOKEN_FORM);
      expect(step.state.context.notice).toBe('created');
    }
  });

  it('reloads the list with the revoked notice once a revoke is done', () => {
    const revokes = paths.flatMap((path) =>
      path.steps.filter((step) => step.event.type === 'xstate.done.actor.deleteItem'),
    );
    expect(revokes.length).toBeGreaterThan(0);
    for (const step of revokes) {
      expect(step.state.matches({ listing: 'loading' })).toBe(true);
      expect(step.state.context.selected).toBeNull();
      // The view words the kit's "deleted" as "revoked".
      expect(step.state.context.notice).toBe('deleted');
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
