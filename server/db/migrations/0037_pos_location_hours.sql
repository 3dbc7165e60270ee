-- The hourly rollup of the POS checks for /consumer/insights/analytics (issue 17; docs/dashboards.md "Consumer
-- insights"): per location, day, opening weekday and hour, and day part — checks, revenue, covers and checks by
-- party size. The day is the local date of the closing time in the company's zone, as every daily rollup's, so a
-- range holds the same checks everywhere; the weekday and hour are those of the opening time in the company's
-- zone (when the guests came); the day part is day_part() of the opening time in the location's zone (migration
-- 0016), as the segment rules and the basket call read it. Kept with the other rollups
-- (server/repositories/pos-rollups.repository.ts) and refilled by pos_rollups_rebuild.

SELECT set_config('app.platform', 'on', true);

CREATE TABLE pos_location_hours (
  company_id     bigint NOT NULL,
  location_id    bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  day            date NOT NULL,
  weekday        smallint NOT NULL CHECK (weekday BETWEEN 1 AND 7), -- ISO: 1 Monday … 7 Sunday
  hour           smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
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
  PRIMARY KEY (company_id, day, location_id, weekday, hour, day_part)
);

ALTER TABLE pos_location_hours ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_location_hours FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_location_hours
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_location_hours TO regulars_app;

-- One company's hours from its checks (the rebuild below and this migration's fill).
CREATE FUNCTION pos_location_hours_fill(company bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO pos_location_hours (company_id, location_id, day, weekday, hour, day_part, checks, revenue_cents,
                                  covers, party_1, party_2, party_3, party_4, party_5, party_6_plus)
  SELECT company, c.location_id, (c.closed_at AT TIME ZONE co.time_zone)::date,
         extract(isodow FROM c.opened_at AT TIME ZONE co.time_zone)::smallint,
         extract(hour FROM c.opened_at AT TIME ZONE co.time_zone)::smallint,
         day_part(c.opened_at, loc.time_zone),
         count(*), sum(c.total_cents), sum(c.guest_count),
         count(*) FILTER (WHERE c.guest_count = 1), count(*) FILTER (WHERE c.guest_count = 2),
         count(*) FILTER (WHERE c.guest_count = 3), count(*) FILTER (WHERE c.guest_count = 4),
         count(*) FILTER (WHERE c.guest_count = 5), count(*) FILTER (WHERE c.guest_count >= 6)
  FROM pos_checks c JOIN companies co ON co.id = company JOIN locations loc ON loc.id = c.location_id
  WHERE c.company_id = company
  GROUP BY 2, 3, 4, 5, 6;
$$;

-- The rebuild of migration 0021, with the hours.
CREATE OR REPLACE FUNCTION pos_rollups_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_location_days WHERE company_id = company;
  DELETE FROM pos_revenue_center_days WHERE company_id = company;
  DELETE FROM pos_menu_item_days WHERE company_id = company;
  DELETE FROM pos_guest_days WHERE company_id = company;
  DELETE FROM pos_location_hours WHERE company_id = company;
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
  SELECT pos_location_hours_fill(company);
$$;

SELECT pos_location_hours_fill(id) FROM companies;

GRANT EXECUTE ON FUNCTION pos_location_hours_fill(bigint) TO regulars_app;
