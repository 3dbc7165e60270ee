import { z } from 'zod';
import { pageOf } from './common.js';

/** A location as the API returns it. */
export const LocationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  time_zone: z.string(),
  group_ids: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A location as the API returns it. */
export type Location = z.infer<typeof LocationSchema>;

/** A page of locations. */
export const LocationPageSchema = pageOf(LocationSchema);

/** A location group as the API returns it; revenue and checks only when a date range was asked. */
export const LocationGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  location_ids: z.array(z.number().int()),
  revenue: z.number().nullable(),
  checks: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A location group as the API returns it. */
export type LocationGroup = z.infer<typeof LocationGroupSchema>;

/**
 * The name shown for a location: the street is stripped from it (spec section 3), so
 * "Harbor Grill - 12 Pier St" with street "12 Pier St" shows as "Harbor Grill".
 */
export function displayLocationName(location: Pick<Location, 'name' | 'street'>): string {
  const street = location.street.trim();
  if (!street) return location.name.trim();
  const stripped = location.name
    .replace(street, '')
    .replace(/[\s,\-–—|()]+$/u, '')
    .replace(/^[\s,\-–—|()]+/u, '');
  return stripped.trim() || location.name.trim();
}
