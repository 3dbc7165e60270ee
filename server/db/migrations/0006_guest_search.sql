-- Fast guest and subscriber lists at a million rows: the locations each guest has been to, kept beside the
-- checks (a location filter no longer scans every guest's checks), and trigram indexes for `q` searches
-- (`ILIKE '%…%'` can then use an index instead of reading every row).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- A guest is "at" a location when it is their first location or they have a check there.
CREATE TABLE guest_locations (
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  guest_id     bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  location_id  bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  PRIMARY KEY (company_id, guest_id, location_id)
);
CREATE INDEX guest_locations_location ON guest_locations (company_id, location_id, guest_id);
-- Deleting a guest cascades here by guest_id alone; without this index each delete reads the whole table.
CREATE INDEX guest_locations_guest ON guest_locations (guest_id);

-- The backfill reads every company: an owner that is not a superuser is still under the forced policies.
SELECT set_config('app.platform', 'on', true);
INSERT INTO guest_locations (company_id, guest_id, location_id)
SELECT company_id, guest_id, location_id FROM pos_checks WHERE guest_id IS NOT NULL
UNION
SELECT company_id, id, first_location_id FROM guests WHERE first_location_id IS NOT NULL;

ALTER TABLE guest_locations ENABLE ROW LEVEL SECURITY;
ALTER TABLE guest_locations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON guest_locations
  USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON guest_locations TO regulars_app;

CREATE INDEX guests_name_trgm ON guests USING gin (customer_name gin_trgm_ops);
CREATE INDEX guests_pos_id_trgm ON guests USING gin (pos_id gin_trgm_ops);
CREATE INDEX guests_digits_trgm ON guests USING gin (last_four_digits gin_trgm_ops);
CREATE INDEX subscribers_email_trgm ON subscribers USING gin (email gin_trgm_ops);
CREATE INDEX subscribers_name_trgm ON subscribers USING gin ((first_name || ' ' || last_name) gin_trgm_ops);
CREATE INDEX subscribers_phone_trgm ON subscribers USING gin (phone gin_trgm_ops);

-- Row-level security applies its policy before any condition whose function is not LEAKPROOF, which keeps
-- ILIKE and lower() from using indexes: a search or an email lookup (`lower(email) = lower($2)`, the
-- subscribers_email_unique and guests_dedupe indexes) reads every row of the company instead. Neither
-- function can fail on a stored value (ILIKE only on its pattern, the caller's own escaped input), so
-- neither reveals anything about rows the policy hides. Marking them needs a superuser; elsewhere
-- everything still works, only without these indexes.
DO $$
BEGIN
  ALTER FUNCTION texticlike(text, text) LEAKPROOF;
  ALTER FUNCTION lower(text) LEAKPROOF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'ILIKE and lower() not marked LEAKPROOF (needs a superuser): searches and email lookups scan';
END
$$;
