import { z } from 'zod';
import { type Location, type LocationGroup } from '../schemas/locations.js';
import { LocationCreateSchema, type LocationCreate, type LocationRoi } from '../schemas/location-writes.js';
import { createListMachine } from './kit/list-machine.js';

/** An inclusive period of whole days (`YYYY-MM-DD`), as `GET /customers/locations/roi/` takes it. */
export interface DateRange {
  from_date: string;
  to_date: string;
}

/** True for a period the ROI call accepts: two whole days, the end not before the start. */
export function isDateRange(range: DateRange): boolean {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  return day.test(range.from_date) && day.test(range.to_date) && range.from_date <= range.to_date;
}

/** The filters of the Locations lists: the period their revenue covers (null: no revenue asked). */
export interface LocationsFilters {
  range: DateRange | null;
}

/** What one location earned in the period. */
export type LocationRoiRow = LocationRoi['results'][number];

/** A row of the locations list: the location and what it earned in the period (null: nothing asked). */
export type LocationRow = Location & { roi: LocationRoiRow | null };

/** The location dialog as typed (coordinates are text until they are sent), with its groups. */
export interface LocationForm {
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  latitude: string;
  longitude: string;
  time_zone: string;
  group_ids: number[];
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

/** A coordinate typed as text: empty is none, anything else must read as a number the schema accepts. */
function coordinate(label: string, schema: z.ZodType<number | null, number | null>) {
  return z
    .string()
    .transform((text, context) => {
      const trimmed = text.trim();
      if (trimmed === '') return null;
      const value = Number(trimmed);
      // A coordinate that is not a number would otherwise get zod's generic type message.
      if (Number.isNaN(value)) context.addIssue({ code: 'custom', message: `${label} is not valid` });
      return value;
    })
    .pipe(schema);
}

/**
 * The add dialog checked with the shared schema (spec section 5: a required name, a zip of exactly
 * 5 digits, coordinates as numbers): what `POST /api/customers/locations/` takes.
 */
export const LocationFormSchema = LocationCreateSchema.extend({
  latitude: coordinate('Latitude', LocationCreateSchema.shape.latitude.unwrap()),
  longitude: coordinate('Longitude', LocationCreateSchema.shape.longitude.unwrap()),
});

/** The edit dialog checked: the location's fields and the groups it belongs to afterwards. */
export const LocationEditSchema = LocationFormSchema.extend({ group_ids: z.array(z.number().int()) });

/** What an edit saves: `PATCH /api/customers/locations/{id}/` with the fields, then the group changes. */
export type LocationEdit = LocationCreate & { group_ids: number[] };

/** A group the location joins or leaves: the group's other locations, and which way. */
export interface MembershipChange {
  groupId: number;
  otherLocationIds: number[];
  join: boolean;
}

/** The groups a location joins or leaves when it ends up in `groupIds`, from the groups as they are. */
export function membershipChanges(
  groups: readonly LocationGroup[],
  locationId: number,
  groupIds: readonly number[],
): MembershipChange[] {
  const changes: MembershipChange[] = [];
  for (const group of groups) {
    const isMember = group.location_ids.includes(locationId);
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

/**
 * The locations list of the Locations screens (`/locations`, `/locations-setup`), on the list kit:
 * every location with what it earned in the period (the `range` filter), an add dialog, an edit
 * dialog that also picks the location's groups, and a confirmed delete. The groups are their own list
 * (location-groups.machine.ts); the screen refreshes each list when the other changes.
 */
export const locationsAdminMachine = createListMachine<
  LocationRow,
  LocationForm,
  LocationsFilters,
  LocationCreate,
  LocationEdit,
  Location
>({
  id: 'locationsAdmin',
  pageSize: null,
  searchable: false,
  filters: { range: null },
  // A group changed elsewhere (its dialog, its delete) changes the locations' groups: load again.
  refreshDelay: 0,
  form: {
    empty: NEW_LOCATION_FORM,
    of: (location) => ({
      name: location.name,
      street: location.street,
      city: location.city,
      state: location.state,
      zip: location.zip,
      latitude: location.latitude === null ? '' : String(location.latitude),
      longitude: location.longitude === null ? '' : String(location.longitude),
      time_zone: location.time_zone,
      group_ids: [...location.group_ids],
    }),
    create: LocationFormSchema,
    update: LocationEditSchema,
  },
});
