import { forkJoin } from 'rxjs';
import { z } from 'zod';
import { fromPromise } from 'xstate';
import {
  locationSelectionMachine,
  type LocationChoices,
  type LocationSelection,
} from '../../machines/location-selection.machine.js';
import { LIMITS } from '../../schemas/constants.js';
import { LocationGroupSchema, LocationPageSchema } from '../../schemas/locations.js';
import { apiRequest } from '../../services/api-client.js';
import { readJson, removeKey, STORAGE_KEYS, writeJson } from '../../services/storage.js';
import { answerOf } from './answer.js';

/** `GET /api/customers/locations/` for every location of the company: one page of the largest size. */
export function everyLocation() {
  return apiRequest({
    method: 'GET',
    path: '/customers/locations/',
    query: { page_size: LIMITS.maxPageSize },
    schema: LocationPageSchema,
  });
}

/** Every location of the company and every group. */
function choicesOf(signal: AbortSignal): Promise<LocationChoices> {
  return answerOf(
    forkJoin({
      page: everyLocation(),
      groups: apiRequest({ method: 'GET', path: '/customers/groups/', schema: z.array(LocationGroupSchema) }),
    }),
    signal,
  ).then(({ page, groups }) => ({ locations: page.results, groups }));
}

/** The app-wide location selection with session storage and the locations API. */
export const locationSelectionLogic = locationSelectionMachine.provide({
  actors: {
    readStoredSelection: fromPromise<unknown>(async () =>
      readJson<unknown>('session', STORAGE_KEYS.selectedLocation),
    ),
    loadChoices: fromPromise<LocationChoices>(({ signal }) => choicesOf(signal)),
  },
  actions: {
    persistSelection: (_, selection: LocationSelection) =>
      writeJson('session', STORAGE_KEYS.selectedLocation, selection),
    forgetStoredSelection: () => removeKey('session', STORAGE_KEYS.selectedLocation),
  },
});
