-- Daily rollups of the POS checks (issue 13; docs/guest-data.md "Daily rollups"), kept with the checks so the
-- menu, revenue, sales and ROI calls read days instead of checks. A day is the local date of a check's closing
-- time in the company's time zone. Every figure equals the same one counted from pos_checks (tests prove it).

SELECT set_config('app.platform', 'on', true);

-- Foreign keys only where a deletion must take rows with it (location, revenue center, guest): each one is a check
-- per row written, and a company's deletion already reaches every row through its locations; a menu item with
-- sales cannot be deleted (its lines restrict it).

-- Revenue, checks and covers per location and day: additive, so any range is a sum.
CREATE TABLE pos_location_days (
  company_id     bigint NOT NULL,
  location_id    bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  day            date NOT NULL,
  revenue_cents  bigint NOT NULL,
  checks         bigint NOT NULL,
  covers         bigint NOT NULL,
  PRIMARY KEY (company_id, location_id, day)
);

-- The same per revenue center (checks without one are not in this table).
CREATE TABLE pos_revenue_center_days (
  company_id         bigint NOT NULL,
  location_id        bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  revenue_center_id  bigint NOT NULL REFERENCES revenue_centers ON DELETE CASCADE,
  day                date NOT NULL,
  revenue_cents      bigint NOT NULL,
  checks             bigint NOT NULL,
  PRIMARY KEY (company_id, day, location_id, revenue_center_id)
);
CREATE INDEX pos_revenue_center_days_center ON pos_revenue_center_days (revenue_center_id, day);

-- Units, line revenue and checks with the item, per location, item and day.
CREATE TABLE pos_menu_item_days (
  company_id     bigint NOT NULL,
  location_id    bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  menu_item_id   bigint NOT NULL,
  day            date NOT NULL,
  units          bigint NOT NULL,
  revenue_cents  bigint NOT NULL,
  checks         bigint NOT NULL,
  PRIMARY KEY (company_id, day, location_id, menu_item_id)
);

-- One row per guest, location and day with a check: distinct guests are not additive across days, so a range's
-- guests are counted from these rows. first_visit marks the rows on the guest's first day at the company.
-- A guest's deletion takes their rows (the checks stay, unlinked), as the raw checks lose the guest.
CREATE TABLE pos_guest_days (
  company_id   bigint NOT NULL,
  location_id  bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  day          date NOT NULL,
  guest_id     bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  checks       bigint NOT NULL,
  first_visit  boolean NOT NULL DEFAULT false,
  PRIMARY KEY (company_id, day, location_id, guest_id)
);
-- A guest's days (first-visit flags, the cascade on deletion); the guests new in a range.
CREATE INDEX pos_guest_days_guest ON pos_guest_days (guest_id, day);
CREATE INDEX pos_guest_days_first ON pos_guest_days (company_id, day, guest_id) WHERE first_visit;

-- Refills one company's rollups from its checks: the demo load after COPY, and after the company's time zone
-- changes (the days move). The increments in server/repositories/pos-rollups.repository.ts keep the same figures.
CREATE FUNCTION pos_rollups_rebuild(company bigint) RETURNS void
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
  INSERT INTO pos_guest_days (company_id, location_id, day, guest_id, checks, first_visit)
  SELECT company, location_id, day, guest_id, checks, day = min(day) OVER (PARTITION BY guest_id)
  FROM (SELECT c.location_id, (c.closed_at AT TIME ZONE co.time_zone)::date AS day, c.guest_id, count(*) AS checks
        FROM pos_checks c JOIN companies co ON co.id = company
        WHERE c.company_id = company AND c.guest_id IS NOT NULL
        GROUP BY 1, 2, 3) g;
$$;

SELECT pos_rollups_rebuild(id) FROM companies;

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['pos_location_days', 'pos_revenue_center_days', 'pos_menu_item_days',
                                      'pos_guest_days'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (company_id = app_company_id() OR app_is_platform()) '
      'WITH CHECK (company_id = app_company_id() OR app_is_platform())', tenant_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO regulars_app', tenant_table);
  END LOOP;
END
$$;
GRANT EXECUTE ON FUNCTION pos_rollups_rebuild(bigint) TO regulars_app;
