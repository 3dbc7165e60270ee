-- The days each guest with a profile came, for the demographics dashboard (issue 17; docs/dashboards.md
-- "Demographics"). Birthdays and zip codes live on subscribers, so the dashboard's breakdowns are those of the range's
-- guests with a linked subscriber. It read each such guest's guest-day rows one by one: 200,000 probes, 1.1–2.1 s a
-- call at 1M guests. Here each of them has one row per location they came to and one for the company (location 0),
-- holding the profile (the earliest linked subscriber's birthday and zip) and the days as date multiranges: every day
-- (`days`), the days at a location with a zip (`zip_days`) and the days at a location in the guest's own zip
-- (`near_days`). A range's people are then the rows whose days overlap it, read in one pass; a group or a pick of
-- locations groups its locations' rows per guest, so groups need no rows of their own.
--
-- Kept by `pos_profile_days_refresh(company, guests)`, which works the rows of some guests (null: all) out again from
-- their guest-day rows, subscribers and locations:
--   - after their guest-day rows change: with the presence rows (guest-presence.repository.ts: ingest, voids,
--     location deletion, the demo loader's steps, the bulk rebuild; a guest's erasure removes its rows);
--   - after their subscribers change (a statement trigger on subscribers: linked, unlinked, birthday or zip);
--   - after a location's zip changes (a statement trigger on locations: that location's guests).

SELECT set_config('app.platform', 'on', true);

CREATE TABLE pos_profile_days (
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  -- 0: every location of the company.
  location_id  bigint NOT NULL,
  guest_id     bigint NOT NULL,
  birthday     date,
  zip          text NOT NULL,
  days         datemultirange NOT NULL,
  zip_days     datemultirange NOT NULL,
  near_days    datemultirange NOT NULL,
  PRIMARY KEY (company_id, location_id, guest_id)
) PARTITION BY RANGE (location_id);
-- The company's rows apart from the locations', so reading every location scans a third of the rows (at 1M guests:
-- 80 ms against 118 ms).
CREATE TABLE pos_profile_days_company PARTITION OF pos_profile_days FOR VALUES FROM (0) TO (1);
CREATE TABLE pos_profile_days_locations PARTITION OF pos_profile_days FOR VALUES FROM (1) TO (MAXVALUE);
-- A guest's rows, found when they are worked out again.
CREATE INDEX pos_profile_days_guest ON pos_profile_days (company_id, guest_id);

-- Row-level security on the table and on each partition (never read directly, but guarded all the same).
ALTER TABLE pos_profile_days ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_profile_days FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_profile_days
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_profile_days TO regulars_app;
ALTER TABLE pos_profile_days_company ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_profile_days_company FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_profile_days_company
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
ALTER TABLE pos_profile_days_locations ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_profile_days_locations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_profile_days_locations
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));

-- The rows of some guests of a company (null: all) from scratch: their earliest linked subscriber's profile, and
-- their guest-day rows per location and over the company. Null becomes the company's linked guests, so each statement
-- keeps the one plan an array of guests gets from the indexes (with "null or any of them" it read every row: 2.7 s
-- for 1,000 guests at 1M guests, against 25 ms).
CREATE FUNCTION pos_profile_days_refresh(company bigint, guest_ids bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF guest_ids IS NULL THEN
    DELETE FROM pos_profile_days WHERE company_id = company;
    guest_ids := ARRAY(SELECT DISTINCT guest_id FROM subscribers WHERE company_id = company AND guest_id IS NOT NULL);
  ELSE
    -- One refresh of a guest at a time: a subscriber's change (its trigger) and a batch of that guest's checks would
    -- otherwise each miss the other's rows, or both insert them. Each waits for the other to commit, then reads it.
    -- As ingestion's own update of the guest row does; the whole company's refresh runs under the ingestion lock.
    PERFORM 1 FROM guests WHERE company_id = company AND id = ANY(guest_ids) ORDER BY id FOR NO KEY UPDATE;
    DELETE FROM pos_profile_days WHERE company_id = company AND guest_id = ANY(guest_ids);
  END IF;
  INSERT INTO pos_profile_days (company_id, location_id, guest_id, birthday, zip, days, zip_days, near_days)
  SELECT company, coalesce(d.location_id, 0), p.guest_id, p.birthday, p.zip,
         range_agg(daterange(d.day, d.day, '[]')),
         coalesce(range_agg(daterange(d.day, d.day, '[]')) FILTER (WHERE l.zip <> ''), '{}'),
         coalesce(range_agg(daterange(d.day, d.day, '[]')) FILTER (WHERE p.zip <> '' AND l.zip = p.zip), '{}')
  FROM (SELECT DISTINCT ON (s.guest_id) s.guest_id, s.birthday, s.zip FROM subscribers s
        WHERE s.company_id = company AND s.guest_id = ANY(guest_ids)
        ORDER BY s.guest_id, s.id) p
  JOIN pos_guest_days d ON d.company_id = company AND d.guest_id = p.guest_id
  JOIN locations l ON l.company_id = company AND l.id = d.location_id
  GROUP BY GROUPING SETS ((p.guest_id, p.birthday, p.zip, d.location_id), (p.guest_id, p.birthday, p.zip));
END;
$$;
GRANT EXECUTE ON FUNCTION pos_profile_days_refresh(bigint, bigint[]) TO regulars_app;

-- The guests whose profile a statement on subscribers may have changed: those of the rows it inserted or deleted,
-- and of the rows whose guest, birthday or zip it changed (before and after).
CREATE FUNCTION pos_profile_days_track_subscribers() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR changed IN SELECT company_id, array_agg(DISTINCT guest_id) AS guests FROM new_rows
                   WHERE guest_id IS NOT NULL GROUP BY company_id LOOP
      PERFORM pos_profile_days_refresh(changed.company_id, changed.guests);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR changed IN SELECT company_id, array_agg(DISTINCT guest_id) AS guests FROM old_rows
                   WHERE guest_id IS NOT NULL GROUP BY company_id LOOP
      PERFORM pos_profile_days_refresh(changed.company_id, changed.guests);
    END LOOP;
  ELSE
    FOR changed IN
      WITH moved AS (
        SELECT o.company_id, o.guest_id AS before, n.guest_id AS after FROM old_rows o JOIN new_rows n USING (id)
        WHERE (o.guest_id, o.birthday, o.zip) IS DISTINCT FROM (n.guest_id, n.birthday, n.zip))
      SELECT company_id, array_agg(DISTINCT guest_id) AS guests
      FROM (SELECT company_id, before AS guest_id FROM moved UNION ALL SELECT company_id, after FROM moved) g
      WHERE guest_id IS NOT NULL GROUP BY company_id
    LOOP
      PERFORM pos_profile_days_refresh(changed.company_id, changed.guests);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER subscribers_profile_days_insert AFTER INSERT ON subscribers
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_profile_days_track_subscribers();
CREATE TRIGGER subscribers_profile_days_update AFTER UPDATE ON subscribers
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pos_profile_days_track_subscribers();
CREATE TRIGGER subscribers_profile_days_delete AFTER DELETE ON subscribers
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION pos_profile_days_track_subscribers();

-- The guests of locations whose zip a statement changed: their days near home and at a zip move.
CREATE FUNCTION pos_profile_days_track_locations() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed record;
BEGIN
  FOR changed IN
    SELECT p.company_id, array_agg(DISTINCT p.guest_id) AS guests
    FROM old_rows o JOIN new_rows n USING (id)
    JOIN pos_profile_days p ON p.company_id = o.company_id AND p.location_id = o.id
    WHERE o.zip IS DISTINCT FROM n.zip
    GROUP BY p.company_id
  LOOP
    PERFORM pos_profile_days_refresh(changed.company_id, changed.guests);
  END LOOP;
  RETURN NULL;
END;
$$;

CREATE TRIGGER locations_profile_days_update AFTER UPDATE ON locations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pos_profile_days_track_locations();

SELECT pos_profile_days_refresh(id, NULL) FROM companies;
-- Autovacuum analyses the partitions, never the partitioned table itself.
ANALYZE pos_profile_days;
