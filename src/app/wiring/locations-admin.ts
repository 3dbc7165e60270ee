import { forkJoin, map, of } from 'rxjs';
import { z } from 'zod';
import { fromPromise } from 'xstate';
import type { ListQuery, UpdateRequest } from '../../machines/kit/list-machine.js';
import {
  locationGroupCreateMachine,
  type GroupUpdateRequest,
} from '../../machines/location-group-create.machine.js';
import { locationGroupsMachine } from '../../machines/location-groups.machine.js';
import {
  locationsAdminMachine,
  membershipChanges,
  type DateRange,
  type LocationEdit,
  type LocationRow,
  type LocationsFilters,
} from '../../machines/locations-admin.machine.js';
import {
  LocationGroupSchema,
  LocationSchema,
  type Location,
  type LocationGroup,
} from '../../schemas/locations.js';
import {
  LocationRoiSchema,
  type LocationCreate,
  type LocationGroupCreate,
} from '../../schemas/location-writes.js';
import { apiRequest } from '../../services/api-client.js';
import { answerOf, apiCall } from './answer.js';
import { everyLocation } from './locations.js';

/** `GET /api/customers/groups/`; with a range, each group also carries its revenue and checks for it. */
function everyGroup(range: DateRange | null) {
  return apiRequest({
    method: 'GET',
    path: '/customers/groups/',
    ...(range ? { query: { from_date: range.from_date, to_date: range.to_date } } : {}),
    schema: z.array(LocationGroupSchema),
  });
}

/** `GET /api/customers/locations/roi/` for the range; no call (no revenue) without one. */
function roiOf(range: DateRange | null) {
  if (!range) return of(null);
  return apiRequest({
    method: 'GET',
    path: '/customers/locations/roi/',
    query: { from_date: range.from_date, to_date: range.to_date },
    schema: LocationRoiSchema,
  });
}

/** Each group the location joins or leaves, one `PATCH /api/customers/groups/{id}/` after another. */
async function saveMemberships(location: Location, groupIds: number[], signal: AbortSignal): Promise<void> {
  // The groups as they are now, not as the screen last loaded them: another tab may have changed them.
  const groups = await answerOf(everyGroup(null), signal);
  for (const change of membershipChanges(groups, location.id, groupIds)) {
    const location_ids = change.join ? [...change.otherLocationIds, location.id] : change.otherLocationIds;
    await answerOf(
      apiRequest({
        method: 'PATCH',
        path: `/customers/groups/${change.groupId}/`,
        body: { location_ids },
        schema: LocationGroupSchema,
      }),
      signal,
    );
  }
}

/** The locations list with `/api/customers/locations/` and each location's ROI for the range. */
export const locationsAdminLogic = locationsAdminMachine.provide({
  actors: {
    loadList: apiCall(({ range }: ListQuery<LocationsFilters>) =>
      forkJoin({ page: everyLocation(), roi: roiOf(range) }).pipe(
        map(({ page, roi }): LocationRow[] => {
          const roiBy = new Map((roi?.results ?? []).map((row) => [row.location_id, row]));
          return page.results.map((location) => ({ ...location, roi: roiBy.get(location.id) ?? null }));
        }),
      ),
    ),
    createItem: apiCall((location: LocationCreate) =>
      apiRequest({ method: 'POST', path: '/customers/locations/', body: location, schema: LocationSchema }),
    ),
    // An edit only: a retry repeats the same changes, where a retried create would add the location twice.
    updateItem: fromPromise<LocationRow, UpdateRequest<LocationRow, LocationEdit>>(
      async ({ input, signal }) => {
        const { group_ids, ...changes } = input.changes;
        const location = await answerOf(
          apiRequest({
            method: 'PATCH',
            path: `/customers/locations/${input.item.id}/`,
            body: changes,
            schema: LocationSchema,
          }),
          signal,
        );
        await saveMemberships(location, group_ids, signal);
        return { ...location, roi: input.item.roi };
      },
    ),
    deleteItem: apiCall((location: LocationRow) =>
      apiRequest({ method: 'DELETE', path: `/customers/locations/${location.id}/` }),
    ),
  },
});

/** The location groups list with `/api/customers/groups/` and each group's revenue for the range. */
export const locationGroupsLogic = locationGroupsMachine.provide({
  actors: {
    loadList: apiCall(({ range }: ListQuery<LocationsFilters>) => everyGroup(range)),
    deleteItem: apiCall((group: LocationGroup) =>
      apiRequest({ method: 'DELETE', path: `/customers/groups/${group.id}/` }),
    ),
  },
});

/** The location group dialog with `POST /api/customers/groups/` and `PUT /api/customers/groups/{id}/`. */
export const locationGroupCreateLogic = locationGroupCreateMachine.provide({
  actors: {
    createGroup: fromPromise<LocationGroup, LocationGroupCreate>(({ input, signal }) =>
      answerOf(
        apiRequest({ method: 'POST', path: '/customers/groups/', body: input, schema: LocationGroupSchema }),
        signal,
      ),
    ),
    updateGroup: fromPromise<LocationGroup, GroupUpdateRequest>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'PUT',
          path: `/customers/groups/${input.id}/`,
          body: input.group,
          schema: LocationGroupSchema,
        }),
        signal,
      ),
    ),
  },
});
