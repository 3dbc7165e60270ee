-- Monthly first-visit cohorts kept with the checks (issue 13; docs/guest-data.md "Cohorts"). Months are the
-- first day of the month of a check's closing time in the company's time zone.
--   guest_location_months: what each guest did at each location in each month (checks, revenue).
--   cohort_rollups: per cohort month and activity month, the guests active, their checks and revenue; one set
--     of rows per location (a guest's cohort there is their first month there) and one for the whole company
--     (location_id NULL: the cohort is the guest's first month anywhere).
-- Both are kept by server/repositories/cohort-rollups.repository.ts and backfilled here from the stored checks.

SELECT set_config('app.platform', 'on', true);

CREATE TABLE guest_location_months (
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  guest_id       bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  location_id    bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  month          date NOT NULL,
  checks         integer NOT NULL,
  revenue_cents  bigint NOT NULL,
  PRIMARY KEY (company_id, guest_id, location_id, month)
);
-- Several locations' cohorts read the rows of those locations; a location's removal finds its guests.
CREATE INDEX guest_location_months_location ON guest_location_months (company_id, location_id, guest_id);

CREATE TABLE cohort_rollups (
  company_id      bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  location_id     bigint REFERENCES locations ON DELETE CASCADE,
  cohort_month    date NOT NULL,
  activity_month  date NOT NULL,
  guests          integer NOT NULL,
  checks          integer NOT NULL,
  revenue_cents   bigint NOT NULL,
  CONSTRAINT cohort_rollups_key UNIQUE NULLS NOT DISTINCT (company_id, location_id, cohort_month, activity_month)
);

INSERT INTO guest_location_months (company_id, guest_id, location_id, month, checks, revenue_cents)
SELECT c.company_id, c.guest_id, c.location_id,
       date_trunc('month', c.closed_at AT TIME ZONE co.time_zone)::date, count(*)::int, sum(c.total_cents)::bigint
FROM pos_checks c JOIN companies co ON co.id = c.company_id
WHERE c.guest_id IS NOT NULL
GROUP BY 1, 2, 3, 4;

INSERT INTO cohort_rollups (company_id, location_id, cohort_month, activity_month, guests, checks, revenue_cents)
SELECT company_id, location_id, cohort, month, count(*)::int, sum(checks)::int, sum(revenue_cents)::bigint
FROM (SELECT company_id, location_id, month, checks, revenue_cents,
             min(month) OVER (PARTITION BY company_id, guest_id, location_id) AS cohort
      FROM guest_location_months) per_location
GROUP BY 1, 2, 3, 4;

INSERT INTO cohort_rollups (company_id, location_id, cohort_month, activity_month, guests, checks, revenue_cents)
SELECT company_id, NULL, cohort, month, count(*)::int, sum(checks)::int, sum(revenue)::bigint
FROM (SELECT company_id, month, sum(checks) AS checks, sum(revenue_cents) AS revenue,
             min(month) OVER (PARTITION BY company_id, guest_id) AS cohort
      FROM guest_location_months GROUP BY company_id, guest_id, month) per_guest
GROUP BY 1, 3, 4;

ALTER TABLE guest_location_months ENABLE ROW LEVEL SECURITY;
ALTER TABLE guest_location_months FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON guest_location_months
  USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON guest_location_months TO regulars_app;

ALTER TABLE cohort_rollups ENABLE ROW LEVEL SECURITY;
ALTER TABLE cohort_rollups FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON cohort_rollups
  USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON cohort_rollups TO regulars_app;
