import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  emailProviderMachine,
  providerDraftErrors,
  providerInputOf,
  type ProviderDraft,
} from '../../src/machines/email-provider.machine.js';
import type { EmailProvider } from '../../src/schemas/accounts.js';
import type {
  SettingsFormContext,
  SettingsFormMachineEvent,
} from '../../src/machines/support/settings-form.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const provider = (name: string, settings: Record<string, unknown>, hasKey = true): EmailProvider => ({
  id: name === 'mailgun' ? 7 : 8,
  provider: name,
  api_key_masked: hasKey ? '••••1234' : '',
  has_api_key: hasKey,
  settings,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
});
const MAILGUN = provider('mailgun', { smtp_login: 'postmaster@mg.harbor.example', region: 'eu' });
const SES = provider('ses', { region: 'eu-west-1', smtp_username: 'AKIAEXAMPLE' });
const SERVER_DOWN = { status: 500, code: 'internal', message: 'Something went wrong on our side' };
const BAD_REGION = {
  status: 400,
  code: 'validation_failed',
  message: 'The request has invalid fields',
  fields: { 'settings.region': 'settings.region must be an AWS region such as eu-west-1' },
  fieldProblems: { 'settings.region': { code: 'not_valid' } },
};

const SAMPLES: SettingsFormMachineEvent[] = [
  { type: 'field.change', field: 'provider', value: 'ses' },
  { type: 'field.change', field: 'provider', value: 'none' },
  { type: 'field.change', field: 'api_key', value: 'key-123' },
  { type: 'field.change', field: 'region', value: 'eu-west-1' },
  { type: 'field.change', field: 'smtp_username', value: 'AKIAEXAMPLE' },
  { type: 'form.submit' },
  { type: 'form.remove' },
  { type: 'load.retry' },
  { type: 'notice.dismiss' },
  { type: 'xstate.done.actor.load', actorId: 'load', output: [] },
  { type: 'xstate.error.actor.load', actorId: 'load', error: SERVER_DOWN },
  { type: 'xstate.done.actor.save', actorId: 'save', output: SES },
  { type: 'xstate.error.actor.save', actorId: 'save', error: BAD_REGION },
  { type: 'xstate.done.actor.remove', actorId: 'remove', output: null },
  { type: 'xstate.error.actor.remove', actorId: 'remove', error: SERVER_DOWN },
];

const start = (recording: Recording) =>
  emailProviderMachine.provide({
    actors: {
      load: pendingActor('load', recording),
      save: pendingActor('save', recording),
      remove: pendingActor('remove', recording),
    },
  });

// The machine's shapes are erased (one factory makes every settings form); this form's are these.
type Snapshot = { value: unknown; context: SettingsFormContext<ProviderDraft, EmailProvider | null> };

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'load', input: undefined });
  },
  failed: (snapshot) => {
    expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  editing: (raw) => {
    const { context } = raw as Snapshot;
    expect(raw.hasTag('busy')).toBe(false);
    // The key is write-only: a loaded or saved provider never fills it in.
    if (context.notice !== null) expect(context.draft.api_key).toBe('');
    if (context.notice === 'removed') expect(context.saved).toBeNull();
    // Every error the form shows before a call names a field the draft really lacks.
    if (context.problem === null)
      for (const field of Object.keys(context.fieldErrors))
        expect(Object.keys(providerDraftErrors(context.draft, context.saved))).toContain(field);
  },
  saving: (raw, recording) => {
    const { context } = raw as Snapshot;
    expect(raw.hasTag('busy')).toBe(true);
    // Only a complete draft is sent, exactly as typed (trimmed), with the key only when one was typed.
    expect(providerDraftErrors(context.draft, context.saved)).toEqual({});
    const input = providerInputOf(context.draft);
    expect(recording.invoked.at(-1)).toEqual({ src: 'save', input });
    expect('api_key' in input).toBe(context.draft.api_key.trim() !== '');
    if (context.saved?.provider !== context.draft.provider) expect(input.api_key).toBe('key-123');
  },
  removing: (raw, recording) => {
    const { context } = raw as Snapshot;
    expect(raw.hasTag('busy')).toBe(true);
    expect(recording.invoked.at(-1)).toEqual({ src: 'remove', input: context.saved?.id });
  },
};

function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as Snapshot;
  return JSON.stringify({
    value,
    draft: context.draft,
    saved: context.saved?.provider ?? null,
    errors: Object.keys(context.fieldErrors).sort(),
    problem: context.problem?.code ?? null,
    notice: context.notice,
  });
}

const model = createTestModel(emailProviderMachine, { events: SAMPLES, serializeState });
const { transitions: paths } = everyTransition(emailProviderMachine, model);

describe('email provider machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual(['editing', 'failed', 'loading', 'removing', 'saving']);
  });

  it('names each missing field before any call, and keeps the server’s message naming settings.region', () => {
    const named = (field: string) =>
      paths.some((path) =>
        path.steps.some(
          (step) =>
            step.event.type === 'form.submit' && step.state.context.fieldErrors[field]?.code === 'required',
        ),
      );
    for (const field of ['api_key', 'settings.region', 'settings.smtp_username'])
      expect(named(field), field).toBe(true);
    const refused = paths.some((path) =>
      path.steps.some(
        (step) =>
          step.event.type === 'xstate.error.actor.save' &&
          step.state.context.fieldErrors['settings.region']?.message ===
            'settings.region must be an AWS region such as eu-west-1',
      ),
    );
    expect(refused).toBe(true);
  });

  it('refuses a malformed SES region and a Mailgun draft without its login before any call', () => {
    const draft = {
      provider: 'ses' as const,
      api_key: 'k',
      smtp_login: '',
      mailgun_region: '' as const,
      region: 'Ireland',
      smtp_username: 'AKIA',
    };
    expect(providerDraftErrors(draft, null)['settings.region']?.code).toBe('not_valid');
    expect(providerDraftErrors({ ...draft, region: 'eu-west-1' }, null)).toEqual({});
    // The saved provider's key is kept when none is typed; another provider needs one.
    expect(providerDraftErrors({ ...draft, region: 'eu-west-1', api_key: '' }, SES)).toEqual({});
    expect(providerDraftErrors({ ...draft, region: 'eu-west-1', api_key: '' }, MAILGUN)).toHaveProperty(
      'api_key',
    );
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks);
    });
  }
});
