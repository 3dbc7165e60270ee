import {
  type ActorRefFrom,
  assign,
  type DoneActorEvent,
  emit,
  type ErrorActorEvent,
  type EventFromLogic,
  type PromiseActorLogic,
  setup,
  type Subscription,
} from 'xstate';
import { requestIn } from '../kit/request.js';
import { problemOf, withoutField, type ApiProblem, type FieldErrors } from './api-problem.js';
import { placeholder } from './placeholder.js';

/** What a settings form says after a call went well, until the next change. */
export type SettingsNotice = 'saved' | 'removed';

/** What a settings form knows: the draft as typed, the settings as saved, and what went wrong. */
export interface SettingsFormContext<Draft, Saved> {
  draft: Draft;
  saved: Saved;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: SettingsNotice | null;
}

/** A change of one field, typed by the form's fields (field name → value). */
export type FieldChange<Fields> = {
  [Field in keyof Fields]: { type: 'field.change'; field: Field; value: Fields[Field] };
}[keyof Fields];

/** What a settings form's view sends. */
export type SettingsFormCommand<Fields> =
  | FieldChange<Fields>
  | { type: 'form.submit' }
  | { type: 'form.remove' }
  | { type: 'form.reset' }
  | { type: 'load.retry' }
  | { type: 'notice.dismiss' };

/**
 * The command names the password and profile forms had before they moved onto the factory, which they keep:
 * event logs recorded before still replay (`src/machines/registry.ts`), and their tests send them.
 */
export type KeptCommandName = 'password.submit' | 'settings.save' | 'settings.retry' | 'settings.reset';

/** The names of the commands a form may name otherwise (the factory's, or names it kept). */
export interface SettingsFormCommandNames {
  submit: 'form.submit' | KeptCommandName;
  retry: 'load.retry' | KeptCommandName;
  reset: 'form.reset' | KeptCommandName;
}

/** The factory's own command names. */
export const SETTINGS_FORM_COMMANDS: SettingsFormCommandNames = {
  submit: 'form.submit',
  retry: 'load.retry',
  reset: 'form.reset',
};

/** What a settings form announces to whoever holds it after each save: the save's answer as it came. */
export interface SettingsFormSaved {
  type: 'form.saved';
  output: unknown;
}

/** Everything a settings form handles: its view's commands and its calls' answers. */
export type SettingsFormEvent<Fields, Loaded, Output> =
  | SettingsFormCommand<Fields>
  | DoneActorEvent<Loaded, 'load'>
  | ErrorActorEvent<unknown, 'load'>
  | DoneActorEvent<Output, 'save'>
  | ErrorActorEvent<unknown, 'save'>
  | DoneActorEvent<unknown, 'remove'>
  | ErrorActorEvent<unknown, 'remove'>
  | DoneActorEvent<unknown, 'apply'>
  | ErrorActorEvent<unknown, 'apply'>;

/** What makes one settings form: its shapes, its checks and the calls' inputs (the calls are the wiring's). */
export interface SettingsFormOptions<Draft, Saved, Fields, Loaded, Input, Output> {
  /** The machine's id (the replay and visualiser registry lists it by this). */
  id: string;
  /** Whether there are saved settings to load first (true when not given); a form without starts `editing`. */
  loads?: boolean;
  /** The form's own names for its commands, where they are not the factory's (SETTINGS_FORM_COMMANDS). */
  commands?: Partial<SettingsFormCommandNames>;
  /** The saved settings before anything is loaded. */
  nothingSaved: Saved;
  /** The draft for these saved settings (after a load, a save and a removal). */
  draftOf: (saved: Saved) => Draft;
  /** The saved settings in the load's answer. */
  loadedOf: (answer: Loaded) => Saved;
  /** The saved settings in the save's answer. */
  savedOf: (answer: Output) => Saved;
  /** The draft after one field changed, and the field errors that change settles. */
  change: (
    context: SettingsFormContext<Draft, Saved>,
    change: FieldChange<Fields>,
  ) => { draft: Draft; fieldErrors: FieldErrors };
  /** What is wrong with the draft before any call, by the API's field names ({} when it may be sent). */
  errorsOf: (draft: Draft, saved: Saved) => FieldErrors;
  /** Whether the draft is something to save at all (an email provider of "none" is not); true when not given. */
  savable?: (draft: Draft) => boolean;
  /** The save call's input. */
  inputOf: (draft: Draft, saved: Saved) => Input;
  /**
   * A form whose settings can be removed (`form.remove`, or a submit this says means removal): the remove call's
   * input (null when nothing saved is there to remove).
   */
  removal?: {
    inputOf: (saved: Saved) => number | null;
    submitRemoves: (draft: Draft, saved: Saved) => boolean;
  };
  /**
   * Whether a save is followed by the `apply` call (state `applying`, given the settings just saved), e.g. the
   * profile's new language switched at once; never when not given. A failed apply keeps the save and says why.
   */
  appliesAfterSave?: (before: Saved, after: Saved) => boolean;
}

/** A form's command names: its own where it has them, else the factory's. */
export function commandNamesOf(commands: Partial<SettingsFormCommandNames> = {}): SettingsFormCommandNames {
  return { ...SETTINGS_FORM_COMMANDS, ...commands };
}

// The machine is built once over erased shapes (XState's types cannot follow a generic event union); each form's
// options are checked against its own shapes where it is made, and views read them back with useSettingsForm.
type AnyOptions = SettingsFormOptions<unknown, unknown, Record<string, unknown>, unknown, unknown, unknown>;
type AnyChange = { type: 'field.change'; field: string; value: unknown };

function buildSettingsForm(options: AnyOptions) {
  const names = commandNamesOf(options.commands);
  const removes = options.removal !== undefined;
  const applies = options.appliesAfterSave !== undefined;
  const formSetup = setup({
    types: {
      context: {} as SettingsFormContext<unknown, unknown>,
      emitted: {} as SettingsFormSaved,
      events: {} as
        | AnyChange
        | { type: 'form.submit' }
        | { type: 'form.remove' }
        | { type: 'form.reset' }
        | { type: 'load.retry' }
        | { type: KeptCommandName }
        | { type: 'notice.dismiss' }
        | DoneActorEvent<unknown, 'load'>
        | ErrorActorEvent<unknown, 'load'>
        | DoneActorEvent<unknown, 'save'>
        | ErrorActorEvent<unknown, 'save'>
        | DoneActorEvent<unknown, 'remove'>
        | ErrorActorEvent<unknown, 'remove'>
        | DoneActorEvent<unknown, 'apply'>
        | ErrorActorEvent<unknown, 'apply'>,
    },
    actors: {
      /** Reads the saved settings. */
      load: placeholder<unknown, void>(),
      /** Saves the draft, answering the saved settings. */
      save: placeholder<unknown, unknown>(),
      /** Removes the saved settings (by id). */
      remove: placeholder<unknown, number>(),
      /** Puts the settings just saved to use (appliesAfterSave). */
      apply: placeholder<unknown, unknown>(),
    },
    guards: {
      savable: ({ context }) =>
        (options.savable?.(context.draft) ?? true) &&
        Object.keys(options.errorsOf(context.draft, context.saved)).length === 0,
      submitRemoves: ({ context }) =>
        options.removal !== undefined &&
        options.removal.inputOf(context.saved) !== null &&
        options.removal.submitRemoves(context.draft, context.saved),
      removable: ({ context }) =>
        options.removal !== undefined && options.removal.inputOf(context.saved) !== null,
      appliesAfterSave: ({ context }, answer: unknown) =>
        options.appliesAfterSave?.(context.saved, options.savedOf(answer)) ?? false,
    },
    actions: {
      changeField: assign(({ context }, change: AnyChange) => ({
        ...options.change(context, change),
        notice: null,
      })),
      keepLoaded: assign((_, answer: unknown) => {
        const saved = options.loadedOf(answer);
        return { saved, draft: options.draftOf(saved), problem: null };
      }),
      keepSaved: assign((_, answer: unknown) => {
        const saved = options.savedOf(answer);
        return {
          saved,
          draft: options.draftOf(saved),
          fieldErrors: {},
          problem: null,
          notice: 'saved' as const,
        };
      }),
      announceSaved: emit((_, output: unknown) => ({ type: 'form.saved' as const, output })),
      resetDraft: assign(({ context }) => ({
        draft: options.draftOf(context.saved),
        fieldErrors: {},
        problem: null,
        notice: null,
      })),
      keepRemoved: assign({
        saved: options.nothingSaved,
        draft: options.draftOf(options.nothingSaved),
        fieldErrors: {},
        problem: null,
        notice: 'removed' as const,
      }),
      // A new check replaces what the last call said: its problem was about another draft.
      showValidationErrors: assign(({ context }) => ({
        fieldErrors: options.errorsOf(context.draft, context.saved),
        problem: null,
        notice: null,
      })),
      startRequest: assign({ fieldErrors: {}, problem: null, notice: null }),
      keepProblem: assign((_, failure: { error: unknown }) => {
        const problem = problemOf(failure.error);
        return { problem, fieldErrors: problem.fields };
      }),
      dismissNotice: assign({ notice: null }),
    },
  });
  const request = requestIn(formSetup);
  const failure = {
    actions: {
      type: 'keepProblem' as const,
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
  };
  const saved = (type: 'keepSaved' | 'announceSaved') => ({
    type,
    params: ({ event }: { event: { output: unknown } }) => event.output,
  });
  // A form's own command names are keys of `on` known only here; typed as one of the union's names, which they are.
  const renamed = <T>(transitions: Record<string, T>) => transitions as Record<'form.submit', T>;
  const loadStates = {
    loading: {
      tags: ['busy'],
      ...request('load', {
        input: () => undefined,
        done: {
          target: 'editing',
          actions: {
            type: 'keepLoaded',
            params: ({ event }: { event: { output: unknown } }) => event.output,
          },
        },
        error: { target: 'failed', ...failure },
      }),
    },
    failed: { on: renamed({ [names.retry]: { target: 'loading' } }) },
  };
  const applyStates = {
    applying: {
      tags: ['busy'],
      ...request('apply', {
        input: ({ context }: { context: SettingsFormContext<unknown, unknown> }) => context.saved,
        done: { target: 'editing' },
        // The settings are saved even when they could not be put to use; the form says both.
        error: { target: 'editing', ...failure },
      }),
    },
  };
  const removeStates = {
    removing: {
      tags: ['busy'],
      ...request('remove', {
        input: ({ context }: { context: SettingsFormContext<unknown, unknown> }) =>
          options.removal?.inputOf(context.saved) ?? 0,
        done: { target: 'editing', actions: 'keepRemoved' as const },
        error: { target: 'editing', ...failure },
      }),
    },
  };
  return formSetup.createMachine({
    id: options.id,
    context: {
      draft: options.draftOf(options.nothingSaved),
      saved: options.nothingSaved,
      fieldErrors: {},
      problem: null,
      notice: null,
    },
    initial: options.loads === false ? 'editing' : 'loading',
    states: {
      // A form that loads nothing has neither state; its views still ask `failed` of the shared type (never).
      ...(options.loads === false ? ({} as typeof loadStates) : loadStates),
      editing: {
        on: {
          'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
          ...renamed({
            [names.submit]: [
              ...(removes
                ? [{ guard: 'submitRemoves', target: 'removing', actions: 'startRequest' } as const]
                : []),
              { guard: 'savable', target: 'saving', actions: 'startRequest' } as const,
              { actions: 'showValidationErrors' } as const,
            ],
            [names.reset]: { actions: 'resetDraft' },
          }),
          ...(removes
            ? { 'form.remove': { guard: 'removable', target: 'removing', actions: 'startRequest' } as const }
            : {}),
          'notice.dismiss': { actions: 'dismissNotice' },
        },
      },
      saving: {
        tags: ['busy'],
        ...request('save', {
          input: ({ context }: { context: SettingsFormContext<unknown, unknown> }) =>
            options.inputOf(context.draft, context.saved),
          done: [
            ...(applies
              ? [
                  {
                    guard: {
                      type: 'appliesAfterSave' as const,
                      params: ({ event }: { event: { output: unknown } }) => event.output,
                    },
                    target: 'applying',
                    actions: [saved('keepSaved'), saved('announceSaved')],
                  },
                ]
              : []),
            { target: 'editing', actions: [saved('keepSaved'), saved('announceSaved')] },
          ],
          error: { target: 'editing', ...failure },
        }),
      },
      // A form without these has neither state (the casts keep the shared state type, as for loading).
      ...(applies ? applyStates : ({} as typeof applyStates)),
      ...(removes ? removeStates : ({} as typeof removeStates)),
    },
  });
}

/** A settings form's machine, its shapes erased (useSettingsForm reads them back in the view). */
export type SettingsFormMachine = ReturnType<typeof buildSettingsForm>;

/**
 * A settings form's machine (design card "settings forms"): `loading` the saved settings (`failed`, retried;
 * neither for a form that loads nothing), `editing` a draft checked before any call (each problem named on its
 * field; reset to the saved settings), `saving` it (the server's field errors kept on their fields, any other
 * problem above the form; each save announced as `form.saved`), for a form that puts a save to use `applying` it,
 * and for a removable form `removing` them. The calls are placeholders (`load`, `save`, `apply`, `remove`) that
 * `src/app/wiring` provides.
 */
export function createSettingsFormMachine<Draft, Saved, Fields, Loaded, Input, Output>(
  options: SettingsFormOptions<Draft, Saved, Fields, Loaded, Input, Output>,
): SettingsFormMachine {
  return buildSettingsForm(options as unknown as AnyOptions);
}

/** The field errors without the ones a change settles. */
export function settledErrors(fieldErrors: FieldErrors, fields: readonly string[]): FieldErrors {
  return fields.reduce(withoutField, fieldErrors);
}

/** Everything a settings form machine handles, its shapes erased (model tests sample these). */
export type SettingsFormMachineEvent = EventFromLogic<SettingsFormMachine>;

/** The calls a settings form makes, typed by its own shapes (the wiring's real ones, or a test's stubs). */
export interface SettingsFormCalls<Loaded, Input, Output, Saved = unknown> {
  /** Absent for a form that loads nothing (`loads: false`). */
  load?: PromiseActorLogic<Loaded, void>;
  save: PromiseActorLogic<Output, Input>;
  remove?: PromiseActorLogic<unknown, number>;
  apply?: PromiseActorLogic<unknown, Saved>;
}

/** The machine with its calls provided, checked against the form's shapes (the machine's are erased). */
export function provideSettingsForm<Loaded, Input, Output, Saved = unknown>(
  machine: SettingsFormMachine,
  calls: SettingsFormCalls<Loaded, Input, Output, Saved>,
): SettingsFormMachine {
  return machine.provide({
    actors: calls as unknown as Partial<SettingsFormCalls<unknown, unknown, unknown>>,
  });
}

/** Listens to a settings form's saves, each answer typed by the form's save call (the machine's is erased). */
export function onSettingsSaved<Output>(
  actor: ActorRefFrom<SettingsFormMachine>,
  listener: (output: Output) => void,
): Subscription {
  return actor.on('form.saved', (event) => listener(event.output as Output));
}
