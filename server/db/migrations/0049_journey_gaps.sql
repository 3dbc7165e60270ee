-- The customer journey's days until the next visit by visit number (issue 17; docs/dashboards.md "Customer
-- journey"), as a rollup of pos_guest_visits (migration 0038). Reading the range's visits took 0.2–0.9 s at 1M
-- guests / 10M checks (90 and 365 days, every location). Each visit row is counted once, on its own day at its
-- location, by its visit number (10 meaning "10 or later", TOP_VISIT_NUMBER of src/schemas/customer-journey.ts)
-- and its exact days until the guest's next visit (0: none yet). The call sums the range's rows by visit number
-- and gap: quartiles and buckets come from the exact gaps, so the answer is the one the visits give.
--   location_id 0 holds the company's sum over its locations, so a range of every location reads one row per day,
--   visit number and gap instead of one per location too.
-- Kept by statement triggers on pos_guest_visits as the return gaps of migration 0043 are: every path that writes
-- visits (the increments at ingest, voids, a location's deletion and its re-chaining, a guest's erasure by
-- cascade) keeps it without a line of its own, and pos_guest_visits_rebuild refills it after its bulk refill.
-- Its size grows with days × locations × visit numbers × distinct gaps: far below the visits when gaps cluster,
-- toward them when every visit's gap differs (docs/dashboards.md says which).

SELECT set_config('app.platform', 'on', true);

CREATE TABLE pos_journey_gaps (
  company_id    bigint NOT NULL,
  -- The visit's location; 0 for the company's sum over its locations.
  location_id   bigint NOT NULL,
  day           date NOT NULL,
  -- 10 is TOP_VISIT_NUMBER (src/schemas/customer-journey.ts): a higher top needs this table refilled.
  visit_number  smallint NOT NULL CHECK (visit_number BETWEEN 1 AND 10),
  -- Days until the guest's next visit; 0 when there is none yet.
  gap           integer NOT NULL CHECK (gap >= 0),
  visits        bigint NOT NULL,
  PRIMARY KEY (company_id, location_id, day, visit_number, gap) INCLUDE (visits)
);

ALTER TABLE pos_journey_gaps ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_journey_gaps FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_journey_gaps
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_journey_gaps TO regulars_app;
-- Rows a change emptied, found by the statement's companies without reading their other rows.
CREATE INDEX pos_journey_gaps_empty ON pos_journey_gaps (company_id) WHERE visits = 0;

-- The rollup's rows of some visits (a query of pos_guest_visits rows with a `sign` column): per location and for
-- the company (location 0).
CREATE FUNCTION pos_journey_gaps_rows(visits text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT format($rows$
    SELECT v.company_id, l.location_id, v.day, least(v.visit_number, 10)::smallint AS visit_number,
           coalesce(v.next_day - v.day, 0) AS gap, sum(v.sign)::bigint AS visits
    FROM (%s) v CROSS JOIN LATERAL (VALUES (v.location_id), (0::bigint)) AS l(location_id)
    GROUP BY 1, 2, 3, 4, 5$rows$, visits)
$$;

-- Adds a statement's new visits and takes its old ones away (the transition tables are read by the dynamic
-- statements); rows reaching no visit are removed. Skipped while pos_guest_visits_rebuild refills the company's
-- visits (the setting is migration 0043's, named for the return gaps; the rebuild refills this table after them).
CREATE FUNCTION pos_journey_gaps_track() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  delta text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows' END;
BEGIN
  IF current_setting('app.return_gaps_rebuilding', true) = 'on' THEN
    RETURN NULL;
  END IF;
  EXECUTE format($statement$
    INSERT INTO pos_journey_gaps AS t (company_id, location_id, day, visit_number, gap, visits)
    SELECT * FROM (%s) c WHERE c.visits <> 0
    ON CONFLICT (company_id, location_id, day, visit_number, gap) DO UPDATE SET visits = t.visits + excluded.visits
  $statement$, pos_journey_gaps_rows(delta));
  -- Rows whose last visit the statement took away (a visit renumbered or re-pointed, voided, erased), looked up
  -- for the statement's companies only.
  EXECUTE format('DELETE FROM pos_journey_gaps WHERE visits = 0 AND company_id IN (SELECT company_id FROM (%s) d)',
                 delta);
  RETURN NULL;
END;
$$;

CREATE TRIGGER pos_guest_visits_journey_gaps_insert AFTER INSERT ON pos_guest_visits
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_journey_gaps_track();
CREATE TRIGGER pos_guest_visits_journey_gaps_update AFTER UPDATE ON pos_guest_visits
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_journey_gaps_track();
CREATE TRIGGER pos_guest_visits_journey_gaps_delete AFTER DELETE ON pos_guest_visits
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_journey_gaps_track();

-- Refills a company's journey gaps from its visits.
CREATE FUNCTION pos_journey_gaps_rebuild(company bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM pos_journey_gaps WHERE company_id = company;
  EXECUTE format('INSERT INTO pos_journey_gaps (company_id, location_id, day, visit_number, gap, visits) %s',
                 pos_journey_gaps_rows(format('SELECT 1 AS sign, * FROM pos_guest_visits WHERE company_id = %s',
                                              company)));
END;
$$;

GRANT EXECUTE ON FUNCTION pos_journey_gaps_rebuild(bigint) TO regulars_app;

-- The visits alone, refilled from the guest-day rows with the visits' triggers off: a step of its own in the demo
-- load on PGlite (server/repositories/pos-rollups.repository.ts `rollupRebuildSteps`), which then refills the
-- return gaps and the journey gaps in steps of their own.
CREATE FUNCTION pos_guest_visits_refill(company bigint) RETURNS void
LANGUAGE sql AS $$
  SELECT set_config('app.return_gaps_rebuilding', 'on', true);
  DELETE FROM pos_guest_visits WHERE company_id = company;
  INSERT INTO pos_guest_visits (company_id, guest_id, day, location_id, visit_number, next_day, next_location_id)
  SELECT company, guest_id, day, location_id,
         row_number() OVER w, lead(day) OVER w, lead(location_id) OVER w
  FROM (SELECT guest_id, day, min(location_id) AS location_id FROM pos_guest_days
        WHERE company_id = company GROUP BY 1, 2) d
  WINDOW w AS (PARTITION BY guest_id ORDER BY day);
  SELECT set_config('app.return_gaps_rebuilding', 'off', true);
$$;

-- The visits' rebuild of migration 0043 (the visits, then their return gaps), the journey gaps refilled after.
CREATE OR REPLACE FUNCTION pos_guest_visits_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  SELECT pos_guest_visits_refill(company);
  SELECT pos_return_gaps_rebuild(company);
  SELECT pos_journey_gaps_rebuild(company);
$$;

GRANT EXECUTE ON FUNCTION pos_guest_visits_refill(bigint) TO regulars_app;

SELECT pos_journey_gaps_rebuild(id) FROM companies;

-- Guest-day rows whose previous day at the company is not their previous day at this location: the guest came
-- from another location (or another one the same day). Only such rows show a guest at two locations in a range,
-- so the journey's multi-location count reads them alone; guests who keep to one location have none.
CREATE INDEX pos_guest_days_location_switches ON pos_guest_days (company_id, day)
  INCLUDE (guest_id, location_id, prev_day, prev_day_here)
  WHERE prev_day IS DISTINCT FROM prev_day_here;
