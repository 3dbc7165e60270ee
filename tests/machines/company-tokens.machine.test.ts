import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { companyTokensMachine, type CompanyTokensEvent } from '../../src/machines/company-tokens.machine.js';
import type { CompanyToken } from '../../src/schemas/accounts.js';
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
};

const SAMPLES: CompanyTokensEvent[] = [
  { type: 'field.change', field: 'name', value: 'Loyalty sync' },
  { type: 'field.change', field: 'name', value: '  ' },
  { type: 'token.revoke', token: TOKEN },
  { type: 'xstate.done.actor.listTokens', actorId: 'listTokens', output: LIST },
  { type: 'xstate.error.actor.listTokens', actorId: 'listTokens', error: SERVER_DOWN },
  { type: 'xstate.done.actor.createToken', actorId: 'createToken', output: CREATED },
  { type: 'xstate.error.actor.createToken', actorId: 'createToken', error: NAME_TOO_LONG },
  { type: 'xstate.done.actor.revokeToken', actorId: 'revokeToken', output: null },
  { type: 'xstate.error.actor.revokeToken', actorId: 'revokeToken', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  companyTokensMachine.provide({
    actors: {
      listTokens: pendingActor('listTokens', recording),
      createToken: pendingActor('createToken', recording),
      revokeToken: pendingActor('revokeToken', recording),
    },
  });

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)?.src).toBe('listTokens');
    // The key never outlives its dialog.
    expect(snapshot.context.created).toBeNull();
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  browsing: (snapshot) => {
    expect(snapshot.context.list).toEqual(LIST);
    expect(snapshot.context.created).toBeNull();
    expect(snapshot.context.selected).toBeNull();
  },
  'creating.open': (snapshot) => {
    const { context } = snapshot;
    expect(context.created).toBeNull();
    if ('name' in context.fieldErrors) {
      expect(['Name is required', 'Name is not valid']).toContain(context.fieldErrors.name);
    }
  },
  'creating.saving': (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'createToken', input: { name: 'Loyalty sync' } });
  },
  'creating.revealed': (snapshot) => {
    expect(snapshot.context.created).toEqual(CREATED);
    expect(snapshot.context.notice).toBe('created');
  },
  revoking: (snapshot) => {
    expect(snapshot.context.selected).toEqual(TOKEN);
  },
  'revoking.confirming': (snapshot) => {
    if (snapshot.context.problem) expect(snapshot.context.problem.code).toBe('internal');
  },
  'revoking.removing': (snapshot, recording) => {
    expect(recording.invoked.at(-1)).toEqual({ src: 'revokeToken', input: TOKEN.id });
  },
};

const model = createTestModel(companyTokensMachine, { events: SAMPLES });
// Every reachable (state, context) and, from each, every event the samples offer there.
const { transitions: paths } = everyTransition(companyTokensMachine, model);

describe('company tokens machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'browsing',
      'creating.open',
      'creating.revealed',
      'creating.saving',
      'failed',
      'loading',
      'revoking.confirming',
      'revoking.removing',
    ]);
  });

  it('forgets the key when the dialog that shows it closes', () => {
    const closings = paths.flatMap((path) =>
      path.steps.filter(
        (step, index) =>
          step.event.type === 'dialog.close' &&
          path.steps[index - 1]?.state.matches({ creating: 'revealed' }),
      ),
    );
    expect(closings.length).toBeGreaterThan(0);
    for (const step of closings) {
      expect(step.state.matches('loading')).toBe(true);
      expect(step.state.context.created).toBeNull();
    }
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
