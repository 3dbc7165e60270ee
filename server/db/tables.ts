/**
 * The tables that queries built with Kysely (`./query-builder.ts`) read, with the columns those queries
 * use. Plain-SQL repositories do not need an entry here; a table joins this map when a repository first
 * composes a query over it, so the builder can check its column names.
 */
export interface Tables {
  guests: GuestsTable;
  guest_locations: GuestLocationsTable;
  location_group_members: LocationGroupMembersTable;
  subscribers: SubscribersTable;
}

/** `guests`: one row per guest the POS knows. */
export interface GuestsTable {
  id: number;
  company_id: number;
  pos_id: string;
  hashid: string;
  customer_name: string;
  last_four_digits: string;
  first_location_id: number | null;
  visit_count: number;
  total_spend_cents: number;
  first_visit_at: Date | null;
  last_visit_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** `guest_locations`: each guest's first location and every location they have a check at. */
export interface GuestLocationsTable {
  company_id: number;
  guest_id: number;
  location_id: number;
}

/** `location_group_members`: which locations a group holds. */
export interface LocationGroupMembersTable {
  company_id: number;
  group_id: number;
  location_id: number;
}

/** `subscribers`: the columns the guest and subscriber lists filter and page on. */
export interface SubscribersTable {
  id: number;
  company_id: number;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  pos_id: string | null;
  guest_id: number | null;
  source_location_id: number | null;
  created_at: Date;
}
