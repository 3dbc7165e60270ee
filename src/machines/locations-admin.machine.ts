import { and, assign, type DoneActorEvent, type ErrorActorEvent, setup, spawnChild, stopChild } from 'xstate';
import {
  LocationCreateSchema,
  type Location,
  type LocationCreate,
  type LocationGroup,
  type LocationRoi,
} from '../schemas/locations.js';
import {
  fieldErrorsOf,
  problemOf,
  withoutField,
  type ApiProblem,
  type FieldErrors,
} from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

// Server calls start with spawnChild on entry and stop on exit: what `invoke` does, in the form
// @xstate/graph's createTestModel accepts (see docs/client.md).

/** An inclusive period of whole days (`YYYY-MM-DD`), as `GET /customers/locations/roi/` takes it. */
export interface DateRange {
  from_date: string;
  to_date: string;
}

/** What the Locations screens show: every location, every group and each location's ROI. */
export interface LocationsOverview {
  locations: Location[];
  groups: LocationGroup[];
  roi: LocationRoi;
}

/** The text fields of the location dialog. */
export type LocationTextField =
  'name' | 'street' | 'city' | 'state' | 'zip' | 'latitude' | 'longitude' | 'time_zone';

/** The location dialog as typed (coordinates are text until they are sent), with its groups. */
export type LocationForm = Record<LocationTextField, string> & { group_ids: number[] };

/** A group the location joins or leaves: the group's other locations, and which way. */
export interface MembershipChange {
  groupId: number;
  otherLocationIds: number[];
  join: boolean;
}

/**
 * `PATCH /api/customers/locations/{id}/`, then each group it joins or leaves (an edit only: a retry
 * repeats the same changes, where a retried create would add the location twice).
 */
export interface LocationUpdateRequest {
  id: number;
  changes: LocationCreate;
  memberships: MembershipChange[];
}

/** What the screens send. */
export type LocationsAdminCommand =
  | { type: 'list.retry' }
  | { type: 'range.change'; range: DateRange }
  /** A group was created or changed elsewhere (the group dialog): load again and say so. */
  | { type: 'groups.changed'; created: boolean }
  | { type: 'location.add' }
  | { type: 'location.edit'; location: Location }
  | { type: 'location.delete'; location: Location }
  | { type: 'group.delete'; group: LocationGroup }
  | { type: 'field.change'; field: LocationTextField; value: string }
  | { type: 'groups.pick'; groupIds: number[] }
  | { type: 'dialog.submit' }
  | { type: 'dialog.close' }
  | { type: 'delete.confirm' }
  | { type: 'notice.dismiss' };

/** Everything the locations screens handle. */
export type LocationsAdminEvent =
  | LocationsAdminCommand
  | DoneActorEvent<LocationsOverview, 'loadOverview'>
  | ErrorActorEvent<unknown, 'loadOverview'>
  | DoneActorEvent<Location, 'createLocation'>
  | ErrorActorEvent<unknown, 'createLocation'>
  | DoneActorEvent<Location, 'updateLocation'>
  | ErrorActorEvent<unknown, 'updateLocation'>
  | DoneActorEvent<unknown, 'deleteLocation'>
  | ErrorActorEvent<unknown, 'deleteLocation'>
  | DoneActorEvent<unknown, 'deleteGroup'>
  | ErrorActorEvent<unknown, 'deleteGroup'>;

/** The success notices. */
export type LocationsNotice =
  | 'locationCreated'
  | 'locationUpdated'
  | 'locationDeleted'
  | 'groupCreated'
  | 'groupUpdated'
  | 'groupDeleted';

/** What the locations screens know. */
export interface LocationsAdminContext {
  range: DateRange;
  /** The lists last loaded; kept while the next load runs. */
  overview: LocationsOverview | null;
  /** The location being edited or deleted. */
  location: Location | null;
  /** The group being deleted. */
  group: LocationGroup | null;
  form: LocationForm;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: LocationsNotice | null;
}

/** The add dialog's starting values. */
export const NEW_LOCATION_FORM: LocationForm = {
  name: '',
  street: '',
  city: '',
  state: '',
  zip: '',
  latitude: '',
  longitude: '',
  time_zone: 'America/New_York',
  group_ids: [],
};

function formOf(location: Location): LocationForm {
  return {
    name: location.name,
    street: location.street,
    city: location.city,
    state: location.state,
    zip: location.zip,
    latitude: location.latitude === null ? '' : String(location.latitude),
    longitude: location.longitude === null ? '' : String(location.longitude),
    time_zone: location.time_zone,
    group_ids: [...location.group_ids],
  };
}

/** The groups the dialog's location joins or leaves, from the groups as loaded. */
export function membershipChanges(
  groups: readonly LocationGroup[],
  locationId: number | null,
  groupIds: readonly number[],
): MembershipChange[] {
  const changes: MembershipChange[] = [];
  for (const group of groups) {
    const isMember = locationId !== null && group.location_ids.includes(locationId);
    const join = groupIds.includes(group.id);
    if (isMember === join) continue;
    changes.push({
      groupId: group.id,
      otherLocationIds: group.location_ids.filter((id) => id !== locationId),
      join,
    });
  }
  return changes;
}

function coordinate(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : Number(trimmed);
}

/**
 * The location a form describes, checked with the shared schema (spec section 5: a required name, a
 * zip of exactly 5 digits), or the message of each refused field.
 */
export function locationRequestOf(
  form: LocationForm,
): { ok: true; location: LocationCreate } | { ok: false; fieldErrors: FieldErrors } {
  const fieldErrors: FieldErrors = {};
  const latitude = coordinate(form.latitude);
  const longitude = coordinate(form.longitude);
  // A coordinate that is not a number would otherwise get zod's generic type message.
  if (Number.isNaN(latitude)) fieldErrors.latitude = 'Latitude is not valid';
  if (Number.isNaN(longitude)) fieldErrors.longitude = 'Longitude is not valid';
  const result = LocationCreateSchema.safeParse({
    ...form,
    latitude: Number.isNaN(latitude) ? null : latitude,
    longitude: Number.isNaN(longitude) ? null : longitude,
  });
  if (!result.success) Object.assign(fieldErrors, { ...fieldErrorsOf(result.error), ...fieldErrors });
  if (!result.success || Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return { ok: true, location: result.data };
}

function requestOf(form: LocationForm): LocationCreate {
  const request = locationRequestOf(form);
  if (!request.ok) throw new Error('the form was checked before saving');
  return request.location;
}

/**
 * The Locations screens (`/locations`, `/locations-setup`): every location with its groups and its
 * ROI for a period, a location dialog (add, edit) and confirmed deletes of locations and groups. The
 * group dialog is its own machine; it tells this one with `groups.changed`. A success reloads the
 * lists and shows a notice; the server's field errors stay next to the fields.
 */
export const locationsAdminMachine = setup({
  types: {
    context: {} as LocationsAdminContext,
    events: {} as LocationsAdminEvent,
    input: {} as { range: DateRange },
  },
  actors: {
    /** `GET /api/customers/locations/`, `/customers/groups/` and `/customers/locations/roi/`. */
    loadOverview: placeholder<LocationsOverview, DateRange>(),
    /** `POST /api/customers/locations/`. */
    createLocation: placeholder<Location, LocationCreate>(),
    /** `PATCH /api/customers/locations/{id}/`. */
    updateLocation: placeholder<Location, LocationUpdateRequest>(),
    /** `DELETE /api/customers/locations/{id}/`. */
    deleteLocation: placeholder<unknown, number>(),
    /** `DELETE /api/customers/groups/{id}/`. */
    deleteGroup: placeholder<unknown, number>(),
  },
  guards: {
    formIsValid: ({ context }) => locationRequestOf(context.form).ok,
    isEditing: ({ context }) => context.location !== null,
    rangeIsValid: (_, range: DateRange) =>
      /^\d{4}-\d{2}-\d{2}$/.test(range.from_date) &&
      /^\d{4}-\d{2}-\d{2}$/.test(range.to_date) &&
      range.from_date <= range.to_date,
  },
  actions: {
    keepOverview: assign((_, overview: LocationsOverview) => ({ overview, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepServerErrors: assign((_, failure: { error: unknown }) => {
      const problem = problemOf(failure.error);
      return { problem, fieldErrors: problem.fields };
    }),
    keepRange: assign((_, range: DateRange) => ({ range, notice: null })),
    openCreate: assign({
      location: null,
      group: null,
      form: NEW_LOCATION_FORM,
      fieldErrors: {},
      problem: null,
      notice: null,
    }),
    openLocation: assign((_, location: Location) => ({
      location,
      group: null,
      form: formOf(location),
      fieldErrors: {},
      problem: null,
      notice: null,
    })),
    openGroup: assign((_, group: LocationGroup) => ({ group, location: null, problem: null, notice: null })),
    closeDialog: assign({
      location: null,
      group: null,
      form: NEW_LOCATION_FORM,
      fieldErrors: {},
      problem: null,
    }),
    changeField: assign(({ context }, change: { field: LocationTextField; value: string }) => ({
      form: { ...context.form, [change.field]: change.value },
      fieldErrors: withoutField(context.fieldErrors, change.field),
    })),
    pickGroups: assign(({ context }, groupIds: number[]) => ({
      form: { ...context.form, group_ids: [...new Set(groupIds)] },
    })),
    showErrors: assign(({ context }) => {
      const request = locationRequestOf(context.form);
      return { fieldErrors: request.ok ? {} : request.fieldErrors, problem: null };
    }),
    clearProblem: assign({ problem: null }),
    notify: assign((_, notice: LocationsNotice) => ({ notice })),
    dismissNotice: assign({ notice: null }),
  },
}).createMachine({
  id: 'locationsAdmin',
  context: ({ input }) => ({
    range: input.range,
    overview: null,
    location: null,
    group: null,
    form: NEW_LOCATION_FORM,
    fieldErrors: {},
    problem: null,
    notice: null,
  }),
  initial: 'listing',
  states: {
    listing: {
      initial: 'loading',
      on: {
        'groups.changed': {
          target: '.loading',
          actions: {
            type: 'notify',
            params: ({ event }) => (event.created ? 'groupCreated' : 'groupUpdated'),
          },
        },
        'notice.dismiss': { actions: 'dismissNotice' },
      },
      states: {
        loading: {
          tags: ['busy'],
          entry: spawnChild('loadOverview', { id: 'loadOverview', input: ({ context }) => context.range }),
          exit: stopChild('loadOverview'),
          on: {
            'xstate.done.actor.loadOverview': {
              target: 'browsing',
              actions: { type: 'keepOverview', params: ({ event }) => event.output },
            },
            'xstate.error.actor.loadOverview': {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        failed: {
          on: {
            'list.retry': { target: 'loading', actions: 'clearProblem' },
            'range.change': {
              guard: { type: 'rangeIsValid', params: ({ event }) => event.range },
              target: 'loading',
              actions: { type: 'keepRange', params: ({ event }) => event.range },
            },
          },
        },
        browsing: {
          on: {
            'range.change': {
              guard: { type: 'rangeIsValid', params: ({ event }) => event.range },
              target: 'loading',
              actions: { type: 'keepRange', params: ({ event }) => event.range },
            },
            'location.add': { target: '#locationsAdmin.editingLocation', actions: 'openCreate' },
            'location.edit': {
              target: '#locationsAdmin.editingLocation',
              actions: { type: 'openLocation', params: ({ event }) => event.location },
            },
            'location.delete': {
              target: '#locationsAdmin.deletingLocation',
              actions: { type: 'openLocation', params: ({ event }) => event.location },
            },
            'group.delete': {
              target: '#locationsAdmin.deletingGroup',
              actions: { type: 'openGroup', params: ({ event }) => event.group },
            },
          },
        },
      },
    },
    editingLocation: {
      initial: 'open',
      states: {
        open: {
          on: {
            'field.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'groups.pick': { actions: { type: 'pickGroups', params: ({ event }) => event.groupIds } },
            'dialog.submit': [
              { guard: and(['formIsValid', 'isEditing']), target: 'updating', actions: 'clearProblem' },
              { guard: 'formIsValid', target: 'creating', actions: 'clearProblem' },
              { actions: 'showErrors' },
            ],
            'dialog.close': { target: '#locationsAdmin.listing.browsing', actions: 'closeDialog' },
          },
        },
        creating: {
          tags: ['busy'],
          entry: spawnChild('createLocation', {
            id: 'createLocation',
            input: ({ context }) => requestOf(context.form),
          }),
          exit: stopChild('createLocation'),
          on: {
            'xstate.done.actor.createLocation': {
              target: '#locationsAdmin.listing.loading',
              actions: ['closeDialog', { type: 'notify', params: 'locationCreated' }],
            },
            'xstate.error.actor.createLocation': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        updating: {
          tags: ['busy'],
          entry: spawnChild('updateLocation', {
            id: 'updateLocation',
            input: ({ context }) => ({
              id: context.location?.id ?? 0,
              changes: requestOf(context.form),
              memberships: membershipChanges(
                context.overview?.groups ?? [],
                context.location?.id ?? null,
                context.form.group_ids,
              ),
            }),
          }),
          exit: stopChild('updateLocation'),
          on: {
            'xstate.done.actor.updateLocation': {
              target: '#locationsAdmin.listing.loading',
              actions: ['closeDialog', { type: 'notify', params: 'locationUpdated' }],
            },
            'xstate.error.actor.updateLocation': {
              target: 'open',
              actions: { type: 'keepServerErrors', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    deletingLocation: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'delete.confirm': { target: 'removing', actions: 'clearProblem' },
            'dialog.close': { target: '#locationsAdmin.listing.browsing', actions: 'closeDialog' },
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('deleteLocation', {
            id: 'deleteLocation',
            input: ({ context }) => context.location?.id ?? 0,
          }),
          exit: stopChild('deleteLocation'),
          on: {
            'xstate.done.actor.deleteLocation': {
              target: '#locationsAdmin.listing.loading',
              actions: ['closeDialog', { type: 'notify', params: 'locationDeleted' }],
            },
            'xstate.error.actor.deleteLocation': {
              target: 'confirming',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    deletingGroup: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'delete.confirm': { target: 'removing', actions: 'clearProblem' },
            'dialog.close': { target: '#locationsAdmin.listing.browsing', actions: 'closeDialog' },
          },
        },
        removing: {
          tags: ['busy'],
          entry: spawnChild('deleteGroup', {
            id: 'deleteGroup',
            input: ({ context }) => context.group?.id ?? 0,
          }),
          exit: stopChild('deleteGroup'),
          on: {
            'xstate.done.actor.deleteGroup': {
              target: '#locationsAdmin.listing.loading',
              actions: ['closeDialog', { type: 'notify', params: 'groupDeleted' }],
            },
            'xstate.error.actor.deleteGroup': {
              target: 'confirming',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});
