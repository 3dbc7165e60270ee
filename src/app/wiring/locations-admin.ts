import { forkJoin } from 'rxjs';
import { z } from 'zod';
import { fromPromise } from 'xstate';
import {
  locationGroupCreateMachine,
  type GroupUpdateRequest,
} from '../../machines/location-group-create.machine.js';
import {
  locationsAdminMachine,
  type DateRange,
  type LocationsOverview,
  type LocationUpdateRequest,
  type MembershipChange,
} from '../../machines/locations-admin.machine.js';
import {
  LocationGroupSchema,
  LocationRoiSchema,
  LocationSchema,
  type Location,
  type LocationCreate,
  type LocationGroup,
  type LocationGroupCreate,
} from '../../schemas/locations.js';
import { apiRequest } from '../../services/api-client.js';
import { answerOf } from './answer.js';
import { everyLocation } from './locations.js';

/** Each group the location joins or leaves, one `PATCH /api/customers/groups/{id}/` after another. */
async function saveMemberships(
  locationId: number,
  memberships: readonly MembershipChange[],
  signal: AbortSignal,
): Promise<void> {
  for (const change of memberships) {
    const location_ids = change.join ? [...change.otherLocationIds, locationId] : change.otherLocationIds;
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

/** The Locations screens' machine with the locations, groups and ROI calls. */
export const locationsAdminLogic = locationsAdminMachine.provide({
  actors: {
    loadOverview: fromPromise<LocationsOverview, DateRange>(({ input, signal }) =>
      answerOf(
        forkJoin({
          page: everyLocation(),
          // With a range, each group also carries its revenue and checks for it.
          groups: apiRequest({
            method: 'GET',
            path: '/customers/groups/',
            query: { from_date: input.from_date, to_date: input.to_date },
            schema: z.array(LocationGroupSchema),
          }),
          roi: apiRequest({
            method: 'GET',
            path: '/customers/locations/roi/',
            query: { from_date: input.from_date, to_date: input.to_date },
            schema: LocationRoiSchema,
          }),
        }),
        signal,
      ).then(({ page, groups, roi }) => ({ locations: page.results, groups, roi })),
    ),
    createLocation: fromPromise<Location, LocationCreate>(({ input, signal }) =>
      answerOf(
        apiRequest({ method: 'POST', path: '/customers/locations/', body: input, schema: LocationSchema }),
        signal,
      ),
    ),
    updateLocation: fromPromise<Location, LocationUpdateRequest>(async ({ input, signal }) => {
      const location = await answerOf(
        apiRequest({
          method: 'PATCH',
          path: `/customers/locations/${input.id}/`,
          body: input.changes,
          schema: LocationSchema,
        }),
        signal,
      );
      await saveMemberships(location.id, input.memberships, signal);
      return location;
    }),
    deleteLocation: fromPromise<unknown, number>(({ input, signal }) =>
      answerOf(apiRequest({ method: 'DELETE', path: `/customers/locations/${input}/` }), signal),
    ),
    deleteGroup: fromPromise<unknown, number>(({ input, signal }) =>
      answerOf(apiRequest({ method: 'DELETE', path: `/customers/groups/${input}/` }), signal),
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
