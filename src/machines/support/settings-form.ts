import {
  assign,
  type DoneActorEvent,
  type ErrorActorEvent,
  type EventFromLogic,
  type PromiseActorLogic,
  setup,
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
  | { type: 'load.retry' }
  | { type: 'notice.dismiss' };

/** Everything a settings form handles: its view's commands and its calls' answers. */
export type SettingsFormEvent<Fields, Loaded, Output> =
  | SettingsFormCommand<Fields>
  | DoneActorEvent<Loaded, 'load'>
  | ErrorActorEvent<unknown, 'load'>
  | DoneActorEvent<Output, 'save'>
  | ErrorActorEvent<unknown, 'save'>
  | DoneActorEvent<unknown, 'remove'>
  | ErrorActorEvent<unknown, 'remove'>;

/** What makes one settings form: its shapes, its checks and the calls' inputs (the calls are the wiring's). */
export interface SettingsFormOptions<Draft, Saved, Fields, Loaded, Input, Output> {
  /** The machine's id (the replay and visualiser registry lists it by this). */
  id: string;
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
}

// The machine is built once over erased shapes (XState's types cannot follow a generic event union); each form's
// options are checked against its own shapes where it is made, and views read them back with useSettingsForm.
type AnyOptions = SettingsFormOptions<unknown, unknown, Record<string, unknown>, unknown, unknown, unknown>;
type AnyChange = { type: 'field.change'; field: string; value: unknown };

function buildSettingsForm(options: AnyOptions) {
  const formSetup = setup({
    types: {
      context: {} as SettingsFormContext<unknown, unknown>,
      events: {} as
        | AnyChange
        | { type: 'form.submit' }
        | { type: 'form.remove' }
        | { type: 'load.retry' }
        | { type: 'notice.dismiss' }
        | DoneActorEvent<unknown, 'load'>
        | ErrorActorEvent<unknown, 'load'>
        | DoneActorEvent<unknown, 'save'>
        | ErrorActorEvent<unknown, 'save'>
        | DoneActorEvent<unknown, 'remove'>
        | ErrorActorEvent<unknown, 'remove'>,
    },
    actors: {
      /** Reads the saved settings. */
      load: placeholder<unknown, void>(),
      /** Saves the draft, answering the saved settings. */
      save: placeholder<unknown, unknown>(),
      /** Removes the saved settings (by id). */
      remove: placeholder<unknown, number>(),
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
      keepRemoved: assign({
        saved: options.nothingSaved,
        draft: options.draftOf(options.nothingSaved),
        fieldErrors: {},
        problem: null,
        notice: 'removed' as const,
      }),
      showValidationErrors: assign(({ context }) => ({
        fieldErrors: options.errorsOf(context.draft, context.saved),
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
  return formSetup.createMachine({
    id: options.id,
    context: {
      draft: options.draftOf(options.nothingSaved),
      saved: options.nothingSaved,
      fieldErrors: {},
      problem: null,
      notice: null,
    },
    initial: 'loading',
    states: {
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
          error: {
            target: 'failed',
            actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
          },
        }),
      },
      failed: { on: { 'load.retry': 'loading' } },
      editing: {
        on: {
          'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
          'form.submit': [
            { guard: 'submitRemoves', target: 'removing', actions: 'startRequest' },
            { guard: 'savable', target: 'saving', actions: 'startRequest' },
            { actions: 'showValidationErrors' },
          ],
          'form.remove': { guard: 'removable', target: 'removing', actions: 'startRequest' },
          'notice.dismiss': { actions: 'dismissNotice' },
        },
      },
      saving: {
        tags: ['busy'],
        ...request('save', {
          input: ({ context }: { context: SettingsFormContext<unknown, unknown> }) =>
            options.inputOf(context.draft, context.saved),
          done: {
            target: 'editing',
            actions: {
              type: 'keepSaved',
              params: ({ event }: { event: { output: unknown } }) => event.output,
            },
          },
          error: {
            target: 'editing',
            actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
          },
        }),
      },
      removing: {
        tags: ['busy'],
        ...request('remove', {
          input: ({ context }) => options.removal?.inputOf(context.saved) ?? 0,
          done: { target: 'editing', actions: 'keepRemoved' },
          error: {
            target: 'editing',
            actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
          },
        }),
      },
    },
  });
}

/** A settings form's machine, its shapes erased (useSettingsForm reads them back in the view). */
export type SettingsFormMachine = ReturnType<typeof buildSettingsForm>;

/**
 * A settings form's machine (design card "settings forms"): `loading` the saved settings (`failed`, retried),
 * `editing` a draft checked before any call (each problem named on its field), `saving` it (the server's field
 * errors kept on their fields, any other problem above the form), and for a removable form `removing` them. The
 * calls are placeholders (`load`, `save`, `remove`) that `src/app/wiring` provides.
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
export interface SettingsFormCalls<Loaded, Input, Output> {
  load: PromiseActorLogic<Loaded, void>;
  save: PromiseActorLogic<Output, Input>;
  remove?: PromiseActorLogic<unknown, number>;
}

/** The machine with its calls provided, checked against the form's shapes (the machine's are erased). */
export function provideSettingsForm<Loaded, Input, Output>(
  machine: SettingsFormMachine,
  calls: SettingsFormCalls<Loaded, Input, Output>,
): SettingsFormMachine {
  return machine.provide({
    actors: calls as unknown as Partial<SettingsFormCalls<unknown, unknown, unknown>>,
  });
}
