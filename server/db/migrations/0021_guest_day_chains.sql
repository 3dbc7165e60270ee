-- Distinct guests of a range without hashing every guest-day in it (issue 13; docs/guest-data.md "Daily rollups").
-- Each guest-day row carries the day of the guest's previous row (ordered by day, then location: one row per
-- guest is the first of any range), the guest's previous day at the same location, and the guest's first day at
-- the company. A range's distinct guests are then its rows whose previous day falls before it, new guests those
-- whose first day falls in it: counts over one index-only scan of the range. first_visit becomes first_day.

SELECT set_config('app.platform', 'on', true);

ALTER TABLE pos_guest_days
  ADD COLUMN prev_day date,
  ADD COLUMN prev_day_here date,
  ADD COLUMN first_day date;

UPDATE pos_guest_days d
SET prev_day = c.prev_day, prev_day_here = c.prev_day_here, first_day = c.first_day
FROM (SELECT company_id, location_id, day, guest_id,
             lag(day) OVER (PARTITION BY guest_id ORDER BY day, location_id) AS prev_day,
             lag(day) OVER (PARTITION BY guest_id, location_id ORDER BY day) AS prev_day_here,
             min(day) OVER (PARTITION BY guest_id) AS first_day
      FROM pos_guest_days) c
WHERE d.company_id = c.company_id AND d.day = c.day AND d.location_id = c.location_id AND d.guest_id = c.guest_id;

ALTER TABLE pos_guest_days ALTER COLUMN first_day SET NOT NULL;
DROP INDEX pos_guest_days_first;
ALTER TABLE pos_guest_days DROP COLUMN first_visit;

-- The range scans read the chain columns from the primary key's index alone.
ALTER TABLE pos_guest_days DROP CONSTRAINT pos_guest_days_pkey;
ALTER TABLE pos_guest_days ADD PRIMARY KEY (company_id, day, location_id, guest_id)
  INCLUDE (prev_day, prev_day_here, first_day);
-- A guest's rows in chain order (the lookups when a row is added; the cascade on the guest's deletion).
DROP INDEX pos_guest_days_guest;
CREATE INDEX pos_guest_days_guest ON pos_guest_days (guest_id, day, location_id) INCLUDE (company_id);

CREATE OR REPLACE FUNCTION pos_rollups_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_location_days WHERE company_id = company;
  DELETE FROM pos_revenue_center_days WHERE company_id = company;
  DELETE FROM pos_menu_item_days WHERE company_id = company;
  DELETE FROM pos_guest_days WHERE company_id = company;
  INSERT INTO pos_location_days (company_id, location_id, day, revenue_cents, checks, covers)
  SELECT company, c.location_id, (c.closed_at AT TIME ZONE co.time_zone)::date,
         sum(c.total_cents), count(*), sum(c.guest_count)
  FROM pos_checks c JOIN companies co ON co.id = company
  WHERE c.company_id = company
  GROUP BY 2, 3;
  INSERT INTO pos_revenue_center_days (company_id, location_id, revenue_center_id, day, revenue_cents, checks)
  SELECT company, c.location_id, c.revenue_center_id, (c.closed_at AT TIME ZONE co.time_zone)::date,
         sum(c.total_cents), count(*)
  FROM pos_checks c JOIN companies co ON co.id = company
  WHERE c.company_id = company AND c.revenue_center_id IS NOT NULL
  GROUP BY 2, 3, 4;
  INSERT INTO pos_menu_item_days (company_id, location_id, menu_item_id, day, units, revenue_cents, checks)
  SELECT company, c.location_id, l.menu_item_id, (c.closed_at AT TIME ZONE co.time_zone)::date,
         sum(l.quantity), sum(l.amount_cents), count(DISTINCT c.id)
  FROM pos_checks c JOIN companies co ON co.id = company
  JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
  WHERE c.company_id = company
  GROUP BY 2, 3, 4;
  INSERT INTO pos_guest_days (company_id, location_id, day, guest_id, checks, prev_day, prev_day_here, first_day)
  SELECT company, location_id, day, guest_id, checks,
         lag(day) OVER (PARTITION BY guest_id ORDER BY day, location_id),
         lag(day) OVER (PARTITION BY guest_id, location_id ORDER BY day),
         min(day) OVER (PARTITION BY guest_id)
  FROM (SELECT c.location_id, (c.closed_at AT TIME ZONE co.time_zone)::date AS day, c.guest_id, count(*) AS checks
        FROM pos_checks c JOIN companies co ON co.id = company
        WHERE c.company_id = company AND c.guest_id IS NOT NULL
        GROUP BY 1, 2, 3) g;
$$;
