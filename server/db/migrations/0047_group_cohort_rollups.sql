-- Monthly first-visit cohorts per location group (issue 17): a guest's cohort in a group is their first month at
-- any of its locations, which no per-location sum gives, so the cohorts of a group were counted from every
-- guest-month of its locations (7.5 s a call at a million guests). Kept with the checks as cohort_rollups is
-- (cohort-rollups.repository.ts); filled again by the group worker after a group's members change, with its
-- distinct-guest rows (`location_groups.presence_ready`, migration 0046).

SELECT set_config('app.platform', 'on', true);

CREATE TABLE group_cohort_rollups (
  company_id      bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  group_id        bigint NOT NULL REFERENCES location_groups ON DELETE CASCADE,
  cohort_month    date NOT NULL,
  activity_month  date NOT NULL,
  guests          integer NOT NULL,
  checks          integer NOT NULL,
  revenue_cents   bigint NOT NULL,
  PRIMARY KEY (company_id, group_id, cohort_month, activity_month)
);

INSERT INTO group_cohort_rollups (company_id, group_id, cohort_month, activity_month, guests, checks, revenue_cents)
SELECT company_id, group_id, cohort, month, count(*)::int, sum(checks)::int, sum(revenue)::bigint
FROM (SELECT m.company_id, gm.group_id, m.month, sum(m.checks) AS checks, sum(m.revenue_cents) AS revenue,
             min(m.month) OVER (PARTITION BY m.company_id, gm.group_id, m.guest_id) AS cohort
      FROM guest_location_months m
      JOIN location_group_members gm ON gm.company_id = m.company_id AND gm.location_id = m.location_id
      GROUP BY m.company_id, gm.group_id, m.guest_id, m.month) per_guest
GROUP BY 1, 2, 3, 4;

ALTER TABLE group_cohort_rollups ENABLE ROW LEVEL SECURITY;
ALTER TABLE group_cohort_rollups FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON group_cohort_rollups
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON group_cohort_rollups TO regulars_app;
