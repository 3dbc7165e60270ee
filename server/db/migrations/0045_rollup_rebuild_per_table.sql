-- The daily rollups' rebuild cut into one function per table (issue 17). The demo loader on PGlite, which runs in
-- the server's thread, calls them one per transaction so the server answers between two tables (the whole rebuild
-- held the thread for about 13 s); pos_rollups_rebuild calls them all, with the same rows as before.

SELECT set_config('app.platform', 'on', true);

-- A company's location days from its checks.
CREATE FUNCTION pos_location_days_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_location_days WHERE company_id = company;
  INSERT INTO pos_location_days (company_id, location_id, day, revenue_cents, checks, covers)
  SELECT company, c.location_id, (c.closed_at AT TIME ZONE co.time_zone)::date,
         sum(c.total_cents), count(*), sum(c.guest_count)
  FROM pos_checks c JOIN companies co ON co.id = company
  WHERE c.company_id = company
  GROUP BY 2, 3;
$$;

-- A company's revenue-centre days from its checks.
CREATE FUNCTION pos_revenue_center_days_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_revenue_center_days WHERE company_id = company;
  INSERT INTO pos_revenue_center_days (company_id, location_id, revenue_center_id, day, revenue_cents, checks)
  SELECT company, c.location_id, c.revenue_center_id, (c.closed_at AT TIME ZONE co.time_zone)::date,
         sum(c.total_cents), count(*)
  FROM pos_checks c JOIN companies co ON co.id = company
  WHERE c.company_id = company AND c.revenue_center_id IS NOT NULL
  GROUP BY 2, 3, 4;
$$;

-- A company's menu-item days from its checks' lines.
CREATE FUNCTION pos_menu_item_days_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_menu_item_days WHERE company_id = company;
  INSERT INTO pos_menu_item_days (company_id, location_id, menu_item_id, day, units, revenue_cents, checks)
  SELECT company, c.location_id, l.menu_item_id, (c.closed_at AT TIME ZONE co.time_zone)::date,
         sum(l.quantity), sum(l.amount_cents), count(DISTINCT c.id)
  FROM pos_checks c JOIN companies co ON co.id = company
  JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
  WHERE c.company_id = company
  GROUP BY 2, 3, 4;
$$;

-- A company's guest days with their chains (the day before anywhere, before here, and the first day).
CREATE FUNCTION pos_guest_days_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_guest_days WHERE company_id = company;
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

-- A company's location hours from its checks.
CREATE FUNCTION pos_location_hours_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_location_hours WHERE company_id = company;
  SELECT pos_location_hours_fill(company);
$$;

CREATE OR REPLACE FUNCTION pos_rollups_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  SELECT pos_location_days_rebuild(company);
  SELECT pos_revenue_center_days_rebuild(company);
  SELECT pos_menu_item_days_rebuild(company);
  SELECT pos_guest_days_rebuild(company);
  SELECT pos_location_hours_rebuild(company);
$$;

GRANT EXECUTE ON FUNCTION pos_location_days_rebuild(bigint), pos_revenue_center_days_rebuild(bigint),
  pos_menu_item_days_rebuild(bigint), pos_guest_days_rebuild(bigint), pos_location_hours_rebuild(bigint)
  TO regulars_app;
