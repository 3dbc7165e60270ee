import { z } from 'zod';
import { IsoDateSchema, isTimeZone, PagingQuerySchema, repeated, requiredName } from './common.js';
import { LocationGroupSchema, LocationSchema } from './locations.js';
import { urlWholeNumber } from './numbers.js';

// The locations' write, query and report schemas: apart from src/schemas/locations.ts, whose read schemas the
// header's location picker needs on the first load (zod's top-level calls cannot be shaken out of a chunk).

/** Each writable field of a location, without defaults (a PATCH must not reset what it leaves out). */
const locationFields = {
  name: requiredName('Name'),
  street: z.string().trim().max(200, 'Street must be at most 200 characters'),
  city: z.string().trim().max(100, 'City must be at most 100 characters'),
  state: z.string().trim().max(50, 'State must be at most 50 characters'),
  zip: z
    .string()
    .trim()
    .regex(/^(\d{5})?$/, 'Zip code is not valid'),
  latitude: z.number().min(-90, 'Latitude is not valid').max(90, 'Latitude is not valid').nullable(),
  longitude: z.number().min(-180, 'Longitude is not valid').max(180, 'Longitude is not valid').nullable(),
  time_zone: z.string().refine(isTimeZone, 'Time zone is not valid'),
};

/** The fields a client may set on a location; all but the name have defaults. */
export const LocationCreateSchema = z.object({
  name: locationFields.name,
  street: locationFields.street.default(''),
  city: locationFields.city.default(''),
  state: locationFields.state.default(''),
  zip: locationFields.zip.default(''),
  latitude: locationFields.latitude.default(null),
  longitude: locationFields.longitude.default(null),
  time_zone: locationFields.time_zone.default('America/New_York'),
});
/** The fields a client may set on a location. */
export type LocationCreate = z.infer<typeof LocationCreateSchema>;

/** A full replacement (PUT) takes the same fields as a create: what it leaves out returns to the default. */
export const LocationUpdateSchema = LocationCreateSchema;
/** A partial change (PATCH): any subset of the fields, nothing else touched. */
export const LocationPatchSchema = z.object(locationFields).partial();
/** A partial change (PATCH): any subset of the fields. */
export type LocationPatch = z.infer<typeof LocationPatchSchema>;

/** `GET /customers/locations/` query. */
export const LocationListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(100).optional(),
  location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
});
/** `GET /customers/locations/` query. */
export type LocationListQuery = z.infer<typeof LocationListQuerySchema>;

/** An optional date range; both ends inclusive, the end not before the start. */
export const DateRangeQuerySchema = z
  .object({ from_date: IsoDateSchema.optional(), to_date: IsoDateSchema.optional() })
  .refine((range) => !range.from_date || !range.to_date || range.from_date <= range.to_date, {
    message: 'to_date must not be before from_date',
    path: ['to_date'],
  });
/** An optional date range. */
export type DateRangeQuery = z.infer<typeof DateRangeQuerySchema>;

/** `GET /customers/locations/roi/` query: both ends are required; repeated location and group filters. */
export const LocationRoiQuerySchema = z
  .object({
    from_date: IsoDateSchema,
    to_date: IsoDateSchema,
    location_id: repeated(urlWholeNumber('location_id is not valid')),
    location_group_id: repeated(urlWholeNumber('location_group_id is not valid')),
  })
  .refine((range) => range.from_date <= range.to_date, {
    message: 'to_date must not be before from_date',
    path: ['to_date'],
  });

/** `GET /customers/locations/roi/` query. */
export type LocationRoiQuery = z.infer<typeof LocationRoiQuerySchema>;

/** What each location earned in a period (spec: ROI query → results). */
export const LocationRoiRowSchema = z.object({
  location_id: z.number().int(),
  name: z.string(),
  revenue: z.number(),
  checks: z.number().int(),
  guests: z.number().int(),
  returning_guests: z.number().int(),
  average_check: z.number(),
});
/** `GET /customers/locations/roi/` answer. */
export const LocationRoiSchema = z.object({
  from_date: z.string(),
  to_date: z.string(),
  results: z.array(LocationRoiRowSchema),
});
/** `GET /customers/locations/roi/` answer. */
export type LocationRoi = z.infer<typeof LocationRoiSchema>;

/** Each writable field of a group, without defaults. */
const groupFields = {
  name: requiredName('Name'),
  description: z.string().trim().max(500, 'Description must be at most 500 characters'),
  location_ids: z.array(z.number().int().positive('location_ids must hold location ids')),
};

/** The fields a client may set on a group. */
export const LocationGroupCreateSchema = z.object({
  name: groupFields.name,
  description: groupFields.description.default(''),
  location_ids: groupFields.location_ids.default([]),
});
/** The fields a client may set on a group. */
export type LocationGroupCreate = z.infer<typeof LocationGroupCreateSchema>;
/** A partial change of a group. */
export const LocationGroupPatchSchema = z.object(groupFields).partial();
/** A partial change of a group. */
export type LocationGroupPatch = z.infer<typeof LocationGroupPatchSchema>;

/** A group with its locations inlined (`GET /customers/groups-with-locations/`). */
export const LocationGroupWithLocationsSchema = LocationGroupSchema.omit({ location_ids: true }).extend({
  locations: z.array(LocationSchema),
});

/** A group id in a path; 0 is allowed and means "no group" (its locations are empty). */
export const GroupIdParamSchema = z.object({
  id: urlWholeNumber('id must be 0 or a positive integer', { min: 0 }),
});
