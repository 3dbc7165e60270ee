import type { Location, LocationGroup } from '../../src/schemas/locations.js';
import type {
  LocationCreate,
  LocationGroupCreate,
  LocationGroupPatch,
  LocationPatch,
  LocationRoi,
  LocationRoiQuery,
} from '../../src/schemas/location-writes.js';
import type { Database } from '../db/database.js';
import { fieldFailure, invalid, notFound } from '../http/errors.js';
import {
  createLocationGroup,
  deleteLocationGroup,
  listGroupLocations,
  listGroupsWithLocations,
  listLocationGroups,
  UnknownLocationsError,
  updateLocationGroup,
  type LocationGroupRow,
  type Period,
} from '../repositories/location-groups.repository.js';
import {
  createLocation,
  deleteLocation,
  getLocation,
  listLocations,
  updateLocation,
  type LocationRow,
} from '../repositories/locations.repository.js';
import { exitOutOfGroupScope } from '../repositories/flow-exits.repository.js';
import {
  recountLocationInBasketRollups,
  removeLocationFromBasketRollups,
} from '../repositories/basket-rollups.repository.js';
import { removeLocationFromCohorts } from '../repositories/cohort-rollups.repository.js';
import { lockCompanyIngestion } from '../repositories/pos-ingestion.repository.js';
import { rechainGuestDays, recountLocationHours } from '../repositories/pos-rollups.repository.js';
import { addGuestPresence, subtractGuestPresence } from '../repositories/guest-presence.repository.js';
import { guestsWithChecksAt, recountGuests } from '../repositories/pos.repository.js';
import { locationEarnings } from '../repositories/pos-analytics.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { scopeOf } from './pos-analytics.service.js';

/** A location row as the API shows it. */
export function presentLocation(row: LocationRow): Location {
  return {
    id: row.id,
    name: row.name,
    street: row.street,
    city: row.city,
    state: row.state,
    zip: row.zip,
    latitude: row.latitude,
    longitude: row.longitude,
    time_zone: row.time_zone,
    group_ids: row.group_ids,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A group row as the API shows it; money in dollars. */
export function presentLocationGroup(row: LocationGroupRow): LocationGroup {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    location_ids: row.location_ids,
    revenue: row.revenue_cents === null ? null : row.revenue_cents / 100,
    checks: row.checks,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The days of an optional range (the company's, inclusive); null when neither end is given. */
export function optionalPeriod(fromDate?: string, toDate?: string): Period | null {
  if (!fromDate && !toDate) return null;
  return { from: fromDate ?? null, to: toDate ?? null };
}

/** Turns a group's unknown member ids into a 400 that names the field. */
function rejectUnknownLocations(error: unknown): never {
  if (error instanceof UnknownLocationsError) {
    throw invalid({
      location_ids: fieldFailure('not_valid', `Unknown location ids: ${error.ids.join(', ')}`),
    });
  }
  throw error;
}

/** Locations and location groups: the business rules between the routes and the repositories. */
export function locationsService(db: Database) {
  return {
    async list(companyId: number, filter: Parameters<typeof listLocations>[2]) {
      const { count, rows } = await db.tenant(companyId, (sql) => listLocations(sql, companyId, filter));
      return { count, results: rows.map(presentLocation) };
    },
    async get(companyId: number, id: number): Promise<Location> {
      const row = await db.tenant(companyId, (sql) => getLocation(sql, companyId, id));
      if (!row) throw notFound('Location');
      return presentLocation(row);
    },
    async create(scope: WriteScope, input: LocationCreate): Promise<Location> {
      return presentLocation(await db.tenant(scope.companyId, (sql) => createLocation(sql, scope, input)));
    },
    async update(scope: WriteScope, id: number, changes: LocationPatch): Promise<Location> {
      const row = await db.tenant(scope.companyId, async (sql) => {
        // Day parts are the location's: a new zone moves its checks between them in the basket rollups, the
        // hours, its guests' visits by day part and their item presence rows (taken out under the old zone). The
        // zone is read under the company's ingestion lock, so two changes of it at once are one after the other.
        if (changes.time_zone !== undefined) await lockCompanyIngestion(sql, scope.companyId);
        const before = changes.time_zone === undefined ? null : await getLocation(sql, scope.companyId, id);
        const zoneMoves = before !== null && before.time_zone !== changes.time_zone;
        let guests: number[] = [];
        if (zoneMoves) {
          guests = await guestsWithChecksAt(sql, scope.companyId, id);
          await subtractGuestPresence(sql, scope.companyId, guests, 'items');
        }
        const updated = await updateLocation(sql, scope, id, changes);
        if (updated && zoneMoves) {
          await recountLocationInBasketRollups(sql, scope.companyId, id);
          await recountLocationHours(sql, scope.companyId, id);
          await recountGuests(sql, scope.companyId, guests);
          await addGuestPresence(sql, scope.companyId, guests, 'items');
        }
        return updated;
      });
      if (!row) throw notFound('Location');
      return presentLocation(row);
    },
    async remove(scope: WriteScope, id: number): Promise<void> {
      const deleted = await db.tenant(scope.companyId, async (sql) => {
        // The location's checks go with it: no batch may add one meanwhile; its guests' cohorts are worked
        // out again first, their running figures and first days after.
        await lockCompanyIngestion(sql, scope.companyId);
        await removeLocationFromCohorts(sql, scope.companyId, id);
        await removeLocationFromBasketRollups(sql, scope.companyId, id);
        const guests = await guestsWithChecksAt(sql, scope.companyId, id);
        await subtractGuestPresence(sql, scope.companyId, guests);
        const deleted = await deleteLocation(sql, scope, id);
        await recountGuests(sql, scope.companyId, guests);
        await rechainGuestDays(sql, scope.companyId, guests);
        await addGuestPresence(sql, scope.companyId, guests);
        return deleted;
      });
      if (!deleted) throw notFound('Location');
    },
    /** Per location of the filters, from the daily rollups: the days are the company's. */
    async roi(companyId: number, query: LocationRoiQuery): Promise<LocationRoi> {
      const { from_date: fromDate, to_date: toDate } = query;
      const rows = await db.tenant(companyId, async (sql) =>
        locationEarnings(sql, companyId, await scopeOf(sql, companyId, query), {
          from: fromDate,
          to: toDate,
        }),
      );
      return {
        from_date: fromDate,
        to_date: toDate,
        results: rows.map((row) => ({
          location_id: row.location_id,
          name: row.name,
          revenue: Number(row.revenue_cents) / 100,
          checks: Number(row.checks),
          guests: Number(row.guests),
          returning_guests: Number(row.returning_guests),
          average_check:
            Number(row.checks) === 0 ? 0 : Math.round(Number(row.revenue_cents) / Number(row.checks)) / 100,
        })),
      };
    },
    async listGroups(companyId: number, period: Period | null): Promise<LocationGroup[]> {
      return (await db.tenant(companyId, (sql) => listLocationGroups(sql, companyId, period))).map(
        presentLocationGroup,
      );
    },
    async createGroup(scope: WriteScope, input: LocationGroupCreate): Promise<LocationGroup> {
      return presentLocationGroup(
        await db
          .tenant(scope.companyId, (sql) => createLocationGroup(sql, scope, input))
          .catch(rejectUnknownLocations),
      );
    },
    async updateGroup(scope: WriteScope, id: number, changes: LocationGroupPatch): Promise<LocationGroup> {
      const row = await db
        .tenant(scope.companyId, async (sql) => {
          const updated = await updateLocationGroup(sql, scope, id, changes);
          // Flows kept to the group follow its members at once: people at a location that left it leave.
          if (updated && changes.location_ids) await exitOutOfGroupScope(sql, scope.companyId, id);
          return updated;
        })
        .catch(rejectUnknownLocations);
      if (!row) throw notFound('Location group');
      return presentLocationGroup(row);
    },
    async removeGroup(scope: WriteScope, id: number): Promise<void> {
      const removed = await db.tenant(scope.companyId, async (sql) => {
        if (!(await deleteLocationGroup(sql, scope, id))) return false;
        // A flow naming a group that is gone takes none of its locations (docs/flows.md, "out_of_scope").
        await exitOutOfGroupScope(sql, scope.companyId, id);
        return true;
      });
      if (!removed) throw notFound('Location group');
    },
    /** Group 0 stands for "no group" and has no locations (spec section 4). */
    async groupLocations(companyId: number, groupId: number): Promise<Location[]> {
      if (groupId === 0) return [];
      const rows = await db.tenant(companyId, (sql) => listGroupLocations(sql, companyId, groupId));
      if (!rows) throw notFound('Location group');
      return rows.map(presentLocation);
    },
    async groupsWithLocations(companyId: number) {
      return (await db.tenant(companyId, (sql) => listGroupsWithLocations(sql, companyId))).map((group) => ({
        ...presentLocationGroup(group),
        locations: group.locations.map(presentLocation),
      }));
    },
  };
}

/** The locations service's interface. */
export type LocationsService = ReturnType<typeof locationsService>;
