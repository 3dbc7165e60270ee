import { and, assign, type DoneActorEvent, emit, type ErrorActorEvent, setup } from 'xstate';
import { type LocationGroup } from '../schemas/locations.js';
import { LocationGroupCreateSchema, type LocationGroupCreate } from '../schemas/location-writes.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

/** The group dialog as typed. */
export interface GroupForm {
  name: string;
  description: string;
  location_ids: number[];
}

/** `PUT /api/customers/groups/{id}/`. */
export interface GroupUpdateRequest {
  id: number;
  group: LocationGroupCreate;
}

/** What the group dialog's view (and the screen opening it) sends. */
export type LocationGroupCommand =
  /** Opens the dialog empty (create) or with a group (rename, change members). */
  | { type: 'dialog.open'; group?: LocationGroup }
  | { type: 'dialog.close' }
  | { type: 'field.change'; field: 'name' | 'description'; value: string }
  | { type: 'members.change'; locationIds: number[] }
  | { type: 'dialog.submit' };

/** Everything the group dialog handles. */
export type LocationGroupEvent =
  | LocationGroupCommand
  | DoneActorEvent<LocationGroup, 'createGroup'>
  | ErrorActorEvent<unknown, 'createGroup'>
  | DoneActorEvent<LocationGroup, 'updateGroup'>
  | ErrorActorEvent<unknown, 'updateGroup'>;

/** What the group dialog tells whoever listens: a group was created or changed (refresh the lists). */
export type LocationGroupEmitted = { type: 'group.saved'; group: LocationGroup; created: boolean };

/** What the group dialog knows. */
export interface LocationGroupContext {
  /** The group being edited, or null when creating one. */
  group: LocationGroup | null;
  form: GroupForm;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
}

/** The create dialog's starting values. */
export const NEW_GROUP_FORM: GroupForm = { name: '', description: '', location_ids: [] };

// The group dialog's types, actors, guards and actions.
const locationGroupCreateSetup = setup({
  types: {
    context: {} as LocationGroupContext,
    events: {} as LocationGroupEvent,
    emitted: {} as LocationGroupEmitted,
  },
  actors: {
    /** `POST /api/customers/groups/`. */
    createGroup: placeholder<LocationGroup, LocationGroupCreate>(),
    /** `PUT /api/customers/groups/{id}/`. */
    updateGroup: placeholder<LocationGroup, GroupUpdateRequest>(),
  },
  guards: {
    formIsValid: ({ context }) => LocationGroupCreateSchema.safeParse(context.form).success,
    isEditing: ({ context }) => context.group !== null,
  },
  actions: {
    openWith: assign((_, group: LocationGroup | null) => ({
      group,
      form: group
        ? { name: group.name, description: group.description, location_ids: [...group.location_ids] }
        : NEW_GROUP_FORM,
      fieldErrors: {},
      problem: null,
    })),
    reset: assign({ group: null, form: NEW_GROUP_FORM, fieldErrors: {}, problem: null }),
    changeField: assign(({ context }, change: { field: 'name' | 'description'; value: string }) => ({
      form: { ...context.form, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
    })),
    changeMembers: assign(({ context }, locationIds: number[]) => ({
      form: { ...context.form, location_ids: [...new Set(locationIds)] },
      fieldErrors: withoutField(context.fieldErrors, 'location_ids'),
    })),
    showErrors: assign(({ context }) => {
      const result = LocationGroupCreateSchema.safeParse(context.form);
      return { fieldErrors: result.success ? {} : fieldErrorsOf(result.error), problem: null };
    }),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    clearProblem: assign({ problem: null }),
    announce: emit((_, saved: { group: LocationGroup; created: boolean }) => ({
      type: 'group.saved' as const,
      ...saved,
    })),
  },
});
const request = requestIn(locationGroupCreateSetup);

/**
 * The location group dialog (spec section 2, "location group create dialog"): hidden or visible; a
 * required name, a description and the member locations; `POST /api/customers/groups/` for a new
 * group, `PUT /api/customers/groups/{id}/` to rename one or change its members. On success it closes
 * and emits `group.saved` so the lists refresh; the server's field errors stay next to the fields.
 */
export const locationGroupCreateMachine = locationGroupCreateSetup.createMachine({
  id: 'locationGroupCreate',
  context: { group: null, form: NEW_GROUP_FORM, fieldErrors: {}, problem: null },
  initial: 'hidden',
  states: {
    hidden: {
      on: {
        'dialog.open': {
          target: 'visible',
          actions: { type: 'openWith', params: ({ event }) => event.group ?? null },
        },
      },
    },
    visible: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'members.change': {
              actions: { type: 'changeMembers', params: ({ event }) => event.locationIds },
            },
            'dialog.submit': [
              {
                guard: and(['formIsValid', 'isEditing']),
                target: 'saving.updating',
                actions: 'clearProblem',
              },
              { guard: 'formIsValid', target: 'saving.creating', actions: 'clearProblem' },
              { actions: 'showErrors' },
            ],
            'dialog.close': { target: '#locationGroupCreate.hidden', actions: 'reset' },
          },
        },
        saving: {
          tags: ['busy'],
          initial: 'creating',
          states: {
            creating: {
              ...request('createGroup', {
                input: ({ context }) => LocationGroupCreateSchema.parse(context.form),
                done: {
                  target: '#locationGroupCreate.hidden',
                  actions: [
                    { type: 'announce', params: ({ event }) => ({ group: event.output, created: true }) },
                    'reset',
                  ],
                },
                error: {
                  target: '#locationGroupCreate.visible.editing',
                  actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
                },
              }),
            },
            updating: {
              ...request('updateGroup', {
                input: ({ context }) => ({
                  id: context.group?.id ?? 0,
                  group: LocationGroupCreateSchema.parse(context.form),
                }),
                done: {
                  target: '#locationGroupCreate.hidden',
                  actions: [
                    { type: 'announce', params: ({ event }) => ({ group: event.output, created: false }) },
                    'reset',
                  ],
                },
                error: {
                  target: '#locationGroupCreate.visible.editing',
                  actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
                },
              }),
            },
          },
        },
      },
    },
  },
});
