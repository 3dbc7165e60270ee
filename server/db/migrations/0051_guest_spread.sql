-- Guests seen at one location only, in any range, from sums (issue 17; docs/dashboards.md "Customer journey"): the
-- journey's multi-location guests of a scope are its distinct guests (pos_guest_presence) minus those whose every
-- guest-day in the range is at one location. Migration 0049 counted those movers from the guest-day rows where a
-- guest changed location: at 1M guests a year held 854,000 such rows, 0.4–1.4 s a call.
--
-- Take a guest's guest-day rows in (day, location) order, the company's chain. Their rows in a range [F, T] are a
-- run of that order. The guest is at one location in the range when its first row there, r, is at a location L
-- and no row after r up to T is elsewhere. Summed over L in a scope:
--   A. rows at L that are the guest's first of the range: day in [F, T] and previous day before F (or none);
--   B. minus those guests who then change location inside the range. Such a guest has exactly one row w (its first
--      elsewhere) whose previous row is at L and in the range (previous day >= F), the run of rows at L before it
--      beginning after a row before F (break day < F, or none) and w itself by T.
-- Both become "rows whose day is in [F, T] and whose since_day is F or later": A is the rows of the days (since_day
-- 'infinity') less those with a previous day from F on; B, since a run's break day is never after its last day, is
-- the switch rows whose previous day is from F on less those whose break day is from F on. Each row of a guest so
-- adds 1 at (day, 'infinity') and takes 1 at (day, previous day); each change of location takes 1 at (day, its
-- previous day) and adds 1 at (day, its break day), both for the location it left. The sums are net; rows summing
-- to 0 are not kept. Scopes as pos_guest_presence: the company (0), each location (1) and each group (2, the sum over
-- its members, filled again when they change). Kept with the presence rows (guest-presence.repository.ts).
-- Measured at 1M guests / 10M checks: filled in 25.5 s (96,376 rows); the journey's 365-day call 0.4–1.4 s → 8–11
-- ms p95; ingest a tenth to a fifth slower through the API (docs/dashboards.md, "Customer journey").

SELECT set_config('app.platform', 'on', true);

CREATE TABLE pos_guest_spread (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  scope_kind  smallint NOT NULL CHECK (scope_kind IN (0, 1, 2)),
  scope_id    bigint NOT NULL,
  day         date NOT NULL,
  since_day   date NOT NULL,
  -- Net: a range's guests at one location are the sum of its days' rows whose since_day is from its first day on.
  guests      bigint NOT NULL,
  PRIMARY KEY (company_id, scope_kind, scope_id, day, since_day) INCLUDE (guests)
);
-- Rows an increment emptied, found without reading the company's rows.
CREATE INDEX pos_guest_spread_empty ON pos_guest_spread (company_id) WHERE guests = 0;

ALTER TABLE pos_guest_spread ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_guest_spread FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_guest_spread
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_guest_spread TO regulars_app;

-- The spread rows of some guests (null: all) of a company from their guest-day rows, per scope (only_group: just that
-- group's); subtracted before a change to those guests' rows and added after, as pos_guest_presence_rows.
CREATE FUNCTION pos_guest_spread_rows(company bigint, guest_ids bigint[], only_group bigint)
RETURNS TABLE (scope_kind smallint, scope_id bigint, day date, since_day date, guests bigint)
LANGUAGE sql STABLE AS $$
  -- The guests' guest-day rows: every row of the company, or those of the guests named (their index); the branch
  -- not taken is skipped at run time.
  WITH src AS NOT MATERIALIZED (
    SELECT g.guest_id, g.location_id, g.day FROM pos_guest_days g
    WHERE guest_ids IS NULL AND g.company_id = company
    UNION ALL
    SELECT g.guest_id, g.location_id, g.day FROM pos_guest_days g
    WHERE guest_ids IS NOT NULL AND g.company_id = company AND g.guest_id = ANY(guest_ids)),
  chain AS (
    SELECT s.guest_id, s.location_id, s.day, lag(s.day) OVER w AS prev_day, lag(s.location_id) OVER w AS prev_location
    FROM src s WINDOW w AS (PARTITION BY s.guest_id ORDER BY s.day, s.location_id)),
  -- The first row of each run at one location; break_day: the day of the row before the previous run began.
  runs AS (
    SELECT c.location_id, c.day, c.prev_day, c.prev_location,
           lag(c.prev_day) OVER (PARTITION BY c.guest_id ORDER BY c.day, c.location_id) AS break_day
    FROM chain c WHERE c.prev_location IS DISTINCT FROM c.location_id),
  terms AS (
    SELECT location_id, day, 'infinity'::date AS since_day, 1 AS sign FROM chain
    UNION ALL
    SELECT location_id, day, prev_day, -1 FROM chain WHERE prev_day IS NOT NULL
    UNION ALL
    SELECT prev_location, day, prev_day, -1 FROM runs WHERE prev_location IS NOT NULL
    UNION ALL
    SELECT prev_location, day, break_day, 1 FROM runs WHERE prev_location IS NOT NULL AND break_day IS NOT NULL),
  scoped AS (
    SELECT 0::smallint AS kind, 0::bigint AS scope_id, t.day, t.since_day, t.sign FROM terms t WHERE only_group IS NULL
    UNION ALL
    SELECT 1::smallint, t.location_id, t.day, t.since_day, t.sign FROM terms t WHERE only_group IS NULL
    UNION ALL
    SELECT 2::smallint, m.group_id, t.day, t.since_day, t.sign FROM terms t
    JOIN location_group_members m ON m.company_id = company AND m.location_id = t.location_id
    WHERE only_group IS NULL OR m.group_id = only_group)
  SELECT kind, scope_id, day, since_day, sum(sign)::bigint FROM scoped
  GROUP BY 1, 2, 3, 4 HAVING sum(sign) <> 0;
$$;
-- As the presence rows': a batch's few guests are estimated dear enough to set off JIT, whose compiling costs more.
ALTER FUNCTION pos_guest_spread_rows(bigint, bigint[], bigint) SET jit = off;
GRANT EXECUTE ON FUNCTION pos_guest_spread_rows(bigint, bigint[], bigint) TO regulars_app;

-- The presence refill (migration 0042) now refills the spread rows too.
CREATE OR REPLACE FUNCTION pos_guest_presence_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_guest_presence WHERE company_id = company;
  INSERT INTO pos_guest_presence (company_id, scope_kind, scope_id, day, prev_day, first_day, guests, checks)
  SELECT company, r.scope_kind, r.scope_id, r.day, r.prev_day, r.first_day, r.guests, r.checks
  FROM pos_guest_presence_rows(company, NULL, NULL) r;
  DELETE FROM pos_guest_frequency WHERE company_id = company;
  INSERT INTO pos_guest_frequency (company_id, scope_kind, scope_id, day, visits, before_day, guests)
  SELECT company, r.scope_kind, r.scope_id, r.day, r.visits, r.before_day, r.guests
  FROM pos_guest_frequency_rows(company, NULL, NULL) r;
  DELETE FROM pos_guest_spread WHERE company_id = company;
  INSERT INTO pos_guest_spread (company_id, scope_kind, scope_id, day, since_day, guests)
  SELECT company, r.scope_kind, r.scope_id, r.day, r.since_day, r.guests
  FROM pos_guest_spread_rows(company, NULL, NULL) r;
$$;

INSERT INTO pos_guest_spread (company_id, scope_kind, scope_id, day, since_day, guests)
SELECT c.id, r.scope_kind, r.scope_id, r.day, r.since_day, r.guests
FROM companies c, pos_guest_spread_rows(c.id, NULL, NULL) r;

-- Migration 0049's index of the rows where a guest changed location served only the count these sums replace.
DROP INDEX pos_guest_days_location_switches;
