-- The customer journey (issue 17; docs/dashboards.md "Customer journey"): one row per guest and visit, a visit
-- being a guest's local day at the company, numbered in order and pointing at the next visit's day and
-- location. The journey heatmap reads first visits (visit_number 1) with their next location, and the days
-- until the next visit by visit number, from one index-only scan of the range instead of windows over every
-- guest-day. Derived from pos_guest_days and kept with it (server/repositories/pos-rollups.repository.ts).

SELECT set_config('app.platform', 'on', true);

-- A day at several locations is one visit, at the first of them in the chain's order (day, then location id).
-- A guest's deletion takes their rows (as pos_guest_days); a location's deletion takes its visits, and the
-- location service works its guests' visits out again.
CREATE TABLE pos_guest_visits (
  company_id        bigint NOT NULL,
  guest_id          bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  day               date NOT NULL,
  location_id       bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  visit_number      integer NOT NULL,
  next_day          date,
  next_location_id  bigint REFERENCES locations ON DELETE SET NULL,
  PRIMARY KEY (company_id, day, guest_id) INCLUDE (location_id, visit_number, next_day, next_location_id)
);
-- A guest's visits (working them out again; the cascade on the guest's deletion).
CREATE INDEX pos_guest_visits_guest ON pos_guest_visits (guest_id, day);
-- First visits of a range (the journey heatmap) without reading the later visits.
CREATE INDEX pos_guest_visits_first ON pos_guest_visits (company_id, day)
  INCLUDE (location_id, next_day, next_location_id) WHERE visit_number = 1;
-- A location's deletion finds the visits pointing at it.
CREATE INDEX pos_guest_visits_next_location ON pos_guest_visits (next_location_id);

ALTER TABLE pos_guest_visits ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_guest_visits FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_guest_visits
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_guest_visits TO regulars_app;

-- Refills a company's visits from its guest-day rows (after pos_rollups_rebuild; rebuildRollups calls both).
CREATE FUNCTION pos_guest_visits_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_guest_visits WHERE company_id = company;
  INSERT INTO pos_guest_visits (company_id, guest_id, day, location_id, visit_number, next_day, next_location_id)
  SELECT company, guest_id, day, location_id,
         row_number() OVER w, lead(day) OVER w, lead(location_id) OVER w
  FROM (SELECT guest_id, day, min(location_id) AS location_id FROM pos_guest_days
        WHERE company_id = company GROUP BY 1, 2) d
  WINDOW w AS (PARTITION BY guest_id ORDER BY day);
$$;
GRANT EXECUTE ON FUNCTION pos_guest_visits_rebuild(bigint) TO regulars_app;

SELECT pos_guest_visits_rebuild(id) FROM companies;
