import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import { z } from 'zod';
import { displayLocationName, type Location, type LocationGroup } from '../schemas/locations.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';

/** What the whole app is filtered by: every location, one location, or one location group. */
export const LocationSelectionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('location'), id: z.number().int().positive(), name: z.string() }),
  z.object({ kind: z.literal('group'), id: z.number().int().positive(), name: z.string() }),
]);
/** What the whole app is filtered by. */
export type LocationSelection = z.infer<typeof LocationSelectionSchema>;

/** Every location: the choice before the user makes one. */
export const ALL_LOCATIONS: LocationSelection = { kind: 'all' };

/** The two lists the modal offers. */
export interface LocationChoices {
  locations: Location[];
  groups: LocationGroup[];
}

/** What the picker and the modal send. */
export type LocationSelectionCommand =
  | { type: 'picker.open' }
  | { type: 'picker.close' }
  | { type: 'search.change'; query: string }
  | { type: 'choice.select'; selection: LocationSelection }
  | { type: 'list.retry' }
  /** The locations or groups changed elsewhere (a group was created): load them again when shown. */
  | { type: 'choices.changed' }
  /** The user signed out or now acts in another company: back to every location, nothing stored. */
  | { type: 'selection.reset' };

/** Everything the location selection handles. */
export type LocationSelectionEvent =
  | LocationSelectionCommand
  | DoneActorEvent<unknown, 'readStoredSelection'>
  | ErrorActorEvent<unknown, 'readStoredSelection'>
  | DoneActorEvent<LocationChoices, 'loadChoices'>
  | ErrorActorEvent<unknown, 'loadChoices'>;

/** What the location selection knows. */
export interface LocationSelectionContext {
  selection: LocationSelection;
  /** The lists last loaded, or null before the first load. */
  choices: LocationChoices | null;
  /** The search text of the modal; filters both lists. */
  query: string;
  problem: ApiProblem | null;
}

/** The locations and groups whose names contain the search text (case and accents ignored). */
export function matchingChoices(choices: LocationChoices | null, query: string): LocationChoices {
  if (!choices) return { locations: [], groups: [] };
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const wanted = fold(query.trim());
  if (!wanted) return choices;
  return {
    locations: choices.locations.filter((location) =>
      fold(`${location.name} ${location.city}`).includes(wanted),
    ),
    groups: choices.groups.filter((group) => fold(group.name).includes(wanted)),
  };
}

/**
 * The selection as the loaded lists know it: the same with its current name, or every location when
 * the chosen location or group no longer exists (deleted elsewhere).
 */
export function currentSelection(selection: LocationSelection, choices: LocationChoices): LocationSelection {
  if (selection.kind === 'all') return selection;
  const found =
    selection.kind === 'location'
      ? choices.locations.find((location) => location.id === selection.id)
      : choices.groups.find((group) => group.id === selection.id);
  if (!found) return ALL_LOCATIONS;
  const name = selection.kind === 'location' && 'street' in found ? displayLocationName(found) : found.name;
  return name === selection.name ? selection : { ...selection, name };
}

function sameSelection(a: LocationSelection, b: LocationSelection): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// The selection's types, actors, guards and actions.
const locationSelectionSetup = setup({
  types: {
    context: {} as LocationSelectionContext,
    events: {} as LocationSelectionEvent,
  },
  actors: {
    /** The selection stored in session storage, as stored (checked here). */
    readStoredSelection: placeholder<unknown>(),
    /** `GET /api/customers/locations/` and `GET /api/customers/groups/`. */
    loadChoices: placeholder<LocationChoices>(),
  },
  guards: {
    selectionIsStale: ({ context }, choices: LocationChoices) =>
      !sameSelection(context.selection, currentSelection(context.selection, choices)),
  },
  actions: {
    /** Stores the selection in session storage (provided by src/app). */
    persistSelection: (_, _selection: LocationSelection) => undefined,
    /** Removes the stored selection from session storage (provided by src/app). */
    forgetStoredSelection: () => undefined,
    restore: assign((_, stored: { value: unknown }) => {
      const parsed = LocationSelectionSchema.safeParse(stored.value);
      return { selection: parsed.success ? parsed.data : ALL_LOCATIONS };
    }),
    choose: assign((_, selection: LocationSelection) => ({ selection, query: '' })),
    follow: assign((_, selection: LocationSelection) => ({ selection })),
    keepChoices: assign((_, choices: LocationChoices) => ({ choices, problem: null })),
    keepProblem: assign((_, failure: { error: unknown }) => ({ problem: problemOf(failure.error) })),
    keepQuery: assign((_, query: string) => ({ query })),
    clearQuery: assign({ query: '' }),
    clearProblem: assign({ problem: null }),
    forgetChoices: assign({ choices: null }),
  },
});
const request = requestIn(locationSelectionSetup);

/**
 * The app-wide location selection (spec section 4): the select modal is visible or hidden; the user
 * picks every location, one location or one group; the choice is kept in session storage (the
 * `persistSelection` action) and restored at start (the `readStoredSelection` actor). Choosing closes
 * the modal. The lists load each time the modal opens; a failed load shows an error with retry.
 */
export const locationSelectionMachine = locationSelectionSetup.createMachine({
  id: 'locationSelection',
  context: { selection: ALL_LOCATIONS, choices: null, query: '', problem: null },
  initial: 'restoring',
  on: {
    // Any screen may set the selection; setting it closes the modal (spec section 4).
    'choice.select': {
      target: '.hidden',
      actions: [
        { type: 'choose', params: ({ event }) => event.selection },
        { type: 'persistSelection', params: ({ event }) => event.selection },
      ],
    },
    'choices.changed': { actions: 'forgetChoices' },
    'selection.reset': {
      target: '.hidden',
      actions: [{ type: 'choose', params: ALL_LOCATIONS }, 'forgetChoices', 'forgetStoredSelection'],
    },
  },
  states: {
    restoring: {
      ...request('readStoredSelection', {
        done: {
          target: 'hidden',
          actions: { type: 'restore', params: ({ event }) => ({ value: event.output }) },
        },
        // Storage can be disabled: the app starts with every location.
        error: { target: 'hidden' },
        on: { 'picker.open': { target: 'visible' } },
      }),
    },
    hidden: {
      on: { 'picker.open': { target: 'visible' } },
    },
    visible: {
      initial: 'loading',
      exit: 'clearQuery',
      on: {
        'picker.close': { target: 'hidden' },
        'search.change': { actions: { type: 'keepQuery', params: ({ event }) => event.query } },
        'choices.changed': { target: '.loading', actions: 'forgetChoices' },
      },
      states: {
        loading: {
          tags: ['busy'],
          ...request('loadChoices', {
            done: [
              {
                // The chosen location or group was deleted or renamed elsewhere: follow the lists.
                guard: { type: 'selectionIsStale', params: ({ event }) => event.output },
                target: 'ready',
                actions: [
                  { type: 'keepChoices', params: ({ event }) => event.output },
                  {
                    type: 'persistSelection',
                    params: ({ context, event }) => currentSelection(context.selection, event.output),
                  },
                  {
                    type: 'follow',
                    params: ({ context, event }) => currentSelection(context.selection, event.output),
                  },
                ],
              },
              { target: 'ready', actions: { type: 'keepChoices', params: ({ event }) => event.output } },
            ],
            error: {
              target: 'failed',
              actions: { type: 'keepProblem', params: ({ event }) => ({ error: event.error }) },
            },
          }),
        },
        failed: {
          on: { 'list.retry': { target: 'loading', actions: 'clearProblem' } },
        },
        ready: {},
      },
    },
  },
});
