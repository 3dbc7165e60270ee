-- The days between visits of /consumer/insights/analytics (issue 17; docs/dashboards.md "Consumer insights"), as
-- rollups of pos_guest_visits (migration 0038): a return visit is a visit with a previous one, on its day, at its
-- location (the first of the day's by id), with the days since the guest's previous visit. Each visit row with a
-- next visit holds exactly one return visit (the next one's), so both tables are sums over pos_guest_visits, kept
-- by statement triggers on it: every path that writes visits (the increments at ingest, a void, a location's
-- deletion and its re-chaining, a guest's erasure by cascade) keeps them without a line of its own.
--   pos_return_gap_bins — per day, location and bin of days (1–7, 8–14, 15–21, 22–30, 31–40 … 51–60, 61–75,
--     76–90, 91–120, 121–150, 151–180, 181–270, 271–365, then 90-day bins): the buckets of the chart are sums of
--     bins, and the bins say where the median falls;
--   pos_return_gaps — per exact number of days, day and location: read only for the median's bin(s).

SELECT set_config('app.platform', 'on', true);

-- The bin (its lowest day count) of a gap of `gap` days (1 or more). The chart's buckets (1–7, 8–14, 15–30,
-- 31–60, 61–90, 91+) and the journey's (… 91–180, 181+) are unions of bins.
CREATE FUNCTION return_gap_bin(gap integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN gap <= 14 THEN 1 + (gap - 1) / 7 * 7
              WHEN gap <= 21 THEN 15
              WHEN gap <= 30 THEN 22
              WHEN gap <= 60 THEN 31 + (gap - 31) / 10 * 10
              WHEN gap <= 75 THEN 61
              WHEN gap <= 90 THEN 76
              WHEN gap <= 180 THEN 91 + (gap - 91) / 30 * 30
              WHEN gap <= 270 THEN 181
              WHEN gap <= 365 THEN 271
              ELSE 366 + (gap - 366) / 90 * 90 END
$$;

CREATE TABLE pos_return_gap_bins (
  company_id   bigint NOT NULL,
  day          date NOT NULL,
  location_id  bigint NOT NULL,
  bin          integer NOT NULL,
  visits       bigint NOT NULL,
  PRIMARY KEY (company_id, day, location_id, bin) INCLUDE (visits)
);

-- Gap first: the median's few gaps are read for the range's days without the others.
CREATE TABLE pos_return_gaps (
  company_id   bigint NOT NULL,
  gap          integer NOT NULL CHECK (gap > 0),
  day          date NOT NULL,
  location_id  bigint NOT NULL,
  visits       bigint NOT NULL,
  PRIMARY KEY (company_id, gap, day, location_id) INCLUDE (visits)
);

ALTER TABLE pos_return_gap_bins ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_return_gap_bins FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_return_gap_bins
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_return_gap_bins TO regulars_app;

ALTER TABLE pos_return_gaps ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_return_gaps FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_return_gaps
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_return_gaps TO regulars_app;

-- The later rows of a guest's day at several locations (chained to the same day): with locations picked, a day
-- whose first location is not one of them still counts when a later one is. Rare, so a small index.
CREATE INDEX pos_guest_days_same_day ON pos_guest_days (company_id, day) INCLUDE (location_id, guest_id)
  WHERE prev_day = day;

-- Adds `sign` (1 or -1) return visits per element of the arrays (company, returning day, its location, gap) to both
-- tables; rows reaching zero are removed. Within one statement on pos_guest_visits the triggers of its inserts,
-- updates and deletes may take a visit away before adding it, so a row can be negative until the last of them.
CREATE FUNCTION pos_return_gaps_add(companies bigint[], days date[], locations bigint[], gaps integer[],
                                    sign integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO pos_return_gaps AS t (company_id, gap, day, location_id, visits)
  SELECT c, g, d, l, sign * count(*) FROM unnest(companies, gaps, days, locations) u(c, g, d, l) GROUP BY 1, 2, 3, 4
  ON CONFLICT (company_id, gap, day, location_id) DO UPDATE SET visits = t.visits + excluded.visits;
  INSERT INTO pos_return_gap_bins AS t (company_id, day, location_id, bin, visits)
  SELECT c, d, l, return_gap_bin(g), sign * count(*) FROM unnest(companies, gaps, days, locations) u(c, g, d, l)
  GROUP BY 1, 2, 3, 4
  ON CONFLICT (company_id, day, location_id, bin) DO UPDATE SET visits = t.visits + excluded.visits;
  DELETE FROM pos_return_gaps t USING unnest(companies, gaps, days, locations) u(c, g, d, l)
  WHERE t.company_id = u.c AND t.gap = u.g AND t.day = u.d AND t.location_id = u.l AND t.visits = 0;
  DELETE FROM pos_return_gap_bins t USING unnest(companies, gaps, days, locations) u(c, g, d, l)
  WHERE t.company_id = u.c AND t.day = u.d AND t.location_id = u.l AND t.bin = return_gap_bin(u.g)
    AND t.visits = 0;
$$;

-- The return visits a statement on pos_guest_visits took away (old rows) and added (new rows). Skipped while
-- pos_guest_visits_rebuild refills the company's visits (it refills both tables after).
CREATE FUNCTION pos_return_gaps_track() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('app.return_gaps_rebuilding', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pos_return_gaps_add(array_agg(company_id), array_agg(next_day), array_agg(next_location_id),
                                array_agg(next_day - day), -1)
    FROM old_rows WHERE next_day IS NOT NULL AND next_location_id IS NOT NULL HAVING count(*) > 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pos_return_gaps_add(array_agg(company_id), array_agg(next_day), array_agg(next_location_id),
                                array_agg(next_day - day), 1)
    FROM new_rows WHERE next_day IS NOT NULL AND next_location_id IS NOT NULL HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER pos_guest_visits_return_gaps_insert AFTER INSERT ON pos_guest_visits
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_return_gaps_track();
CREATE TRIGGER pos_guest_visits_return_gaps_update AFTER UPDATE ON pos_guest_visits
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_return_gaps_track();
CREATE TRIGGER pos_guest_visits_return_gaps_delete AFTER DELETE ON pos_guest_visits
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_return_gaps_track();

-- Refills a company's return gaps from its visits.
CREATE FUNCTION pos_return_gaps_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_return_gaps WHERE company_id = company;
  DELETE FROM pos_return_gap_bins WHERE company_id = company;
  INSERT INTO pos_return_gaps (company_id, gap, day, location_id, visits)
  SELECT company, next_day - day, next_day, next_location_id, count(*) FROM pos_guest_visits
  WHERE company_id = company AND next_day IS NOT NULL AND next_location_id IS NOT NULL
  GROUP BY 2, 3, 4;
  INSERT INTO pos_return_gap_bins (company_id, day, location_id, bin, visits)
  SELECT company, day, location_id, return_gap_bin(gap), sum(visits) FROM pos_return_gaps
  WHERE company_id = company GROUP BY 2, 3, 4;
$$;

-- The visits' rebuild of migration 0038, the return gaps refilled after it instead of row by row by the triggers.
CREATE OR REPLACE FUNCTION pos_guest_visits_rebuild(company bigint) RETURNS void
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
  SELECT pos_return_gaps_rebuild(company);
$$;

GRANT EXECUTE ON FUNCTION pos_return_gaps_rebuild(bigint) TO regulars_app;

SELECT pos_return_gaps_rebuild(id) FROM companies;

-- The hourly rollup of migration 0037 for the whole company: the same figures summed over its locations, so a
-- range of every location reads one row per day, weekday, hour and day part instead of one per location too
-- (twenty times fewer at twenty locations). A sum of pos_location_hours, kept by statement triggers on it as the
-- return gaps are on the visits: the increments, voids, a location's deletion (cascade) and the rebuild all keep it.
CREATE TABLE pos_company_hours (
  company_id     bigint NOT NULL,
  day            date NOT NULL,
  weekday        smallint NOT NULL,
  hour           smallint NOT NULL,
  day_part       text NOT NULL,
  checks         bigint NOT NULL,
  revenue_cents  bigint NOT NULL,
  covers         bigint NOT NULL,
  party_1        bigint NOT NULL,
  party_2        bigint NOT NULL,
  party_3        bigint NOT NULL,
  party_4        bigint NOT NULL,
  party_5        bigint NOT NULL,
  party_6_plus   bigint NOT NULL,
  PRIMARY KEY (company_id, day, weekday, hour, day_part)
    INCLUDE (checks, revenue_cents, covers, party_1, party_2, party_3, party_4, party_5, party_6_plus)
);

ALTER TABLE pos_company_hours ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_company_hours FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_company_hours
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_company_hours TO regulars_app;

-- Adds a statement's new rows of pos_location_hours and takes its old rows away (the transition tables are read by
-- the dynamic statements too); rows reaching no check are removed.
CREATE FUNCTION pos_company_hours_track() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  delta text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows' END;
BEGIN
  EXECUTE format($statement$
    INSERT INTO pos_company_hours AS t (company_id, day, weekday, hour, day_part, checks, revenue_cents, covers,
                                        party_1, party_2, party_3, party_4, party_5, party_6_plus)
    SELECT company_id, day, weekday, hour, day_part, sum(sign * checks), sum(sign * revenue_cents),
           sum(sign * covers), sum(sign * party_1), sum(sign * party_2), sum(sign * party_3), sum(sign * party_4),
           sum(sign * party_5), sum(sign * party_6_plus)
    FROM (%s) d GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (company_id, day, weekday, hour, day_part) DO UPDATE
    SET checks = t.checks + excluded.checks, revenue_cents = t.revenue_cents + excluded.revenue_cents,
        covers = t.covers + excluded.covers, party_1 = t.party_1 + excluded.party_1,
        party_2 = t.party_2 + excluded.party_2, party_3 = t.party_3 + excluded.party_3,
        party_4 = t.party_4 + excluded.party_4, party_5 = t.party_5 + excluded.party_5,
        party_6_plus = t.party_6_plus + excluded.party_6_plus$statement$, delta);
  EXECUTE format($statement$
    DELETE FROM pos_company_hours t USING (SELECT DISTINCT company_id, day FROM (%s) d) k
    WHERE t.company_id = k.company_id AND t.day = k.day AND t.checks = 0$statement$, delta);
  RETURN NULL;
END;
$$;

CREATE TRIGGER pos_location_hours_company_insert AFTER INSERT ON pos_location_hours
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_company_hours_track();
CREATE TRIGGER pos_location_hours_company_update AFTER UPDATE ON pos_location_hours
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_company_hours_track();
CREATE TRIGGER pos_location_hours_company_delete AFTER DELETE ON pos_location_hours
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_company_hours_track();

INSERT INTO pos_company_hours (company_id, day, weekday, hour, day_part, checks, revenue_cents, covers, party_1,
                               party_2, party_3, party_4, party_5, party_6_plus)
SELECT company_id, day, weekday, hour, day_part, sum(checks), sum(revenue_cents), sum(covers), sum(party_1),
       sum(party_2), sum(party_3), sum(party_4), sum(party_5), sum(party_6_plus)
FROM pos_location_hours GROUP BY 1, 2, 3, 4, 5;
