-- Distinct guests of any range without reading every guest-day (issue 17; docs/dashboards.md "Distinct guests
-- from the presence rollup"). A guest is in a range [from, to] once: on the first of their days in it, the one
-- whose previous day in the same scope is before `from` (or who had none). So counting, per scope, day and
-- previous day, the guests of that day turns "distinct guests of a range" into a sum over rows with the day in the
-- range and the previous day before `from`: its size grows with the range's days times earlier days, not with
-- guests or checks. A first presence in the scope (no previous day: '-infinity') also keeps the guest's first day
-- at the company, so "new guests" (first day in the range) is a sum too. Scopes: the company (scope_kind 0,
-- scope_id 0), each location (1, its id) and each location group (2, its id; rebuilt when its members change).
-- Derived from pos_guest_days and kept with it (server/repositories/guest-presence.repository.ts).

SELECT set_config('app.platform', 'on', true);

CREATE TABLE pos_guest_presence (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  scope_kind  smallint NOT NULL CHECK (scope_kind IN (0, 1, 2)),
  scope_id    bigint NOT NULL,
  day         date NOT NULL,
  -- The guest's previous day in the scope; '-infinity' for their first day there.
  prev_day    date NOT NULL,
  -- The guest's first day at the company on a first day in the scope; '-infinity' on the others.
  first_day   date NOT NULL,
  -- The guests of that day, scope, previous and first day, and their checks there that day.
  guests      bigint NOT NULL,
  checks      bigint NOT NULL,
  PRIMARY KEY (company_id, scope_kind, scope_id, day, prev_day, first_day) INCLUDE (guests, checks)
);
-- Rows an increment emptied, found without reading the company's rows.
CREATE INDEX pos_guest_presence_empty ON pos_guest_presence (company_id) WHERE guests = 0;

ALTER TABLE pos_guest_presence ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_guest_presence FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_guest_presence
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_guest_presence TO regulars_app;

-- The presence rows of some guests (null: all) of a company, from their guest-day rows: for the company and each
-- location from the chains pos_guest_days keeps (a day at several locations is one presence in the company, its
-- previous day that of its first row); for each group (only_group: just that one) from the guest's days at its
-- member locations. Subtracted before a change to those guests' rows and added after (the increments), or
-- inserted for the whole company (the rebuild).
CREATE FUNCTION pos_guest_presence_rows(company bigint, guest_ids bigint[], only_group bigint)
RETURNS TABLE (scope_kind smallint, scope_id bigint, day date, prev_day date, first_day date, guests bigint,
               checks bigint)
LANGUAGE sql STABLE AS $$
  -- The guests' guest-day rows: every row of the company, or those of the guests named (their index); the branch
  -- not taken is skipped at run time, so the guests' rows are found by the index, not by a scan of the company.
  WITH src AS NOT MATERIALIZED (
    SELECT g.guest_id, g.location_id, g.day, g.checks, g.prev_day, g.prev_day_here, g.first_day
    FROM pos_guest_days g WHERE guest_ids IS NULL AND g.company_id = company
    UNION ALL
    SELECT g.guest_id, g.location_id, g.day, g.checks, g.prev_day, g.prev_day_here, g.first_day
    FROM pos_guest_days g WHERE guest_ids IS NOT NULL AND g.company_id = company AND g.guest_id = ANY(guest_ids)),
  entries AS (
    SELECT 0::smallint AS kind, 0::bigint AS scope_id, g.day,
           min(coalesce(g.prev_day, '-infinity'::date)) AS prev, min(g.first_day) AS first_day, sum(g.checks) AS checks
    FROM src g WHERE only_group IS NULL
    GROUP BY g.guest_id, g.day
    UNION ALL
    SELECT 1::smallint, g.location_id, g.day, coalesce(g.prev_day_here, '-infinity'::date), g.first_day, g.checks
    FROM src g WHERE only_group IS NULL
    UNION ALL
    SELECT 2::smallint, x.group_id, x.day,
           coalesce(lag(x.day) OVER (PARTITION BY x.group_id, x.guest_id ORDER BY x.day), '-infinity'::date),
           x.first_day, x.checks
    FROM (SELECT m.group_id, g.guest_id, g.day, min(g.first_day) AS first_day, sum(g.checks) AS checks
          FROM src g
          JOIN location_group_members m ON m.company_id = company AND m.location_id = g.location_id
          WHERE only_group IS NULL OR m.group_id = only_group
          GROUP BY 1, 2, 3) x)
  SELECT kind, scope_id, day, prev,
         CASE WHEN prev = '-infinity'::date THEN first_day ELSE '-infinity'::date END,
         count(*), sum(checks)::bigint
  FROM entries GROUP BY 1, 2, 3, 4, 5;
$$;
-- A batch's few guests are estimated dear enough to set off JIT, whose compiling took longer than the statement
-- (measured: 1.6 s against 0.6 s for 500 guests); off for both functions.
ALTER FUNCTION pos_guest_presence_rows(bigint, bigint[], bigint) SET jit = off;
GRANT EXECUTE ON FUNCTION pos_guest_presence_rows(bigint, bigint[], bigint) TO regulars_app;

-- Guests by their checks in a range (the guest dashboard's visit frequency) from the same kind of sums. Number a
-- guest's checks in a scope in day order; a guest has at least k checks in [from, to] when, on the day their
-- count in the range reaches k, the check k before that day's first is before `from` (or none) and the check
-- k - 1 before that day's last is not. So each guest-day adds 1 at (k, day, day of the check k before its first)
-- and takes 1 at (k, day, day of the check k - 1 before its last) when that is an earlier day; the guests with at
-- least k checks in a range are the sum of the rows of its days whose `before_day` is before `from`. k runs from
-- 2 to 10 (the dashboard's "10 or more"); at least 1 is the distinct guests of pos_guest_presence. A row's
-- `guests` is a net count (it may be negative); rows summing to 0 are not kept.
CREATE TABLE pos_guest_frequency (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  scope_kind  smallint NOT NULL CHECK (scope_kind IN (0, 1, 2)),
  scope_id    bigint NOT NULL,
  day         date NOT NULL,
  visits      smallint NOT NULL CHECK (visits BETWEEN 2 AND 10),
  before_day  date NOT NULL,
  guests      bigint NOT NULL,
  PRIMARY KEY (company_id, scope_kind, scope_id, day, visits, before_day) INCLUDE (guests)
);
CREATE INDEX pos_guest_frequency_empty ON pos_guest_frequency (company_id) WHERE guests = 0;

ALTER TABLE pos_guest_frequency ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_guest_frequency FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_guest_frequency
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_guest_frequency TO regulars_app;

-- The frequency rows of some guests (null: all) of a company, from their guest-day rows, per scope as
-- pos_guest_presence_rows; each check one row, numbered, so "the check k before" is a lag.
CREATE FUNCTION pos_guest_frequency_rows(company bigint, guest_ids bigint[], only_group bigint)
RETURNS TABLE (scope_kind smallint, scope_id bigint, day date, visits smallint, before_day date, guests bigint)
LANGUAGE sql STABLE AS $$
  -- The guests' guest-day rows: every row of the company, or those of the guests named (their index); the branch
  -- not taken is skipped at run time, so the guests' rows are found by the index, not by a scan of the company.
  WITH src AS NOT MATERIALIZED (
    SELECT g.guest_id, g.location_id, g.day, g.checks, g.prev_day, g.prev_day_here, g.first_day
    FROM pos_guest_days g WHERE guest_ids IS NULL AND g.company_id = company
    UNION ALL
    SELECT g.guest_id, g.location_id, g.day, g.checks, g.prev_day, g.prev_day_here, g.first_day
    FROM pos_guest_days g WHERE guest_ids IS NOT NULL AND g.company_id = company AND g.guest_id = ANY(guest_ids)),
  days AS (
    SELECT 0::smallint AS kind, 0::bigint AS scope_id, g.guest_id, g.day, sum(g.checks)::int AS checks
    FROM src g WHERE only_group IS NULL
    GROUP BY g.guest_id, g.day
    UNION ALL
    SELECT 1::smallint, g.location_id, g.guest_id, g.day, g.checks::int
    FROM src g WHERE only_group IS NULL
    UNION ALL
    SELECT 2::smallint, m.group_id, g.guest_id, g.day, sum(g.checks)::int
    FROM src g
    JOIN location_group_members m ON m.company_id = company AND m.location_id = g.location_id
    WHERE only_group IS NULL OR m.group_id = only_group
    GROUP BY m.group_id, g.guest_id, g.day),
  lagged AS (
    -- back[j]: the day of the check j before this one in the scope; at: the check's number in the scope.
    SELECT d.kind, d.scope_id, d.day, n, d.checks, row_number() OVER w AS at,
           ARRAY[lag(d.day, 1) OVER w, lag(d.day, 2) OVER w, lag(d.day, 3) OVER w, lag(d.day, 4) OVER w,
                 lag(d.day, 5) OVER w, lag(d.day, 6) OVER w, lag(d.day, 7) OVER w, lag(d.day, 8) OVER w,
                 lag(d.day, 9) OVER w, lag(d.day, 10) OVER w] AS back
    FROM days d, generate_series(1, d.checks) n
    WINDOW w AS (PARTITION BY d.kind, d.scope_id, d.guest_id ORDER BY d.day, n)),
  ends AS (
    -- Beyond the guest's checks up to the day's last (k above it) both ends are '-infinity' and cancel: left out.
    SELECT l.kind, l.scope_id, l.day, k, coalesce(l.back[k], '-infinity'::date) AS before_day, 1 AS sign
    FROM lagged l, generate_series(2, 10) k WHERE l.n = 1 AND k <= l.at + l.checks - 1
    UNION ALL
    SELECT l.kind, l.scope_id, l.day, k, coalesce(l.back[k - 1], '-infinity'::date), -1
    FROM lagged l, generate_series(2, 10) k
    WHERE l.n = l.checks AND k <= l.at AND coalesce(l.back[k - 1], '-infinity'::date) < l.day)
  SELECT kind, scope_id, day, k::smallint, before_day, sum(sign)::bigint
  FROM ends GROUP BY 1, 2, 3, 4, 5 HAVING sum(sign) <> 0;
$$;
ALTER FUNCTION pos_guest_frequency_rows(bigint, bigint[], bigint) SET jit = off;
GRANT EXECUTE ON FUNCTION pos_guest_frequency_rows(bigint, bigint[], bigint) TO regulars_app;

-- Refills a company's presence and frequency rows from its guest-day rows (after pos_rollups_rebuild;
-- rebuildRollups calls it).
CREATE FUNCTION pos_guest_presence_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_guest_presence WHERE company_id = company;
  INSERT INTO pos_guest_presence (company_id, scope_kind, scope_id, day, prev_day, first_day, guests, checks)
  SELECT company, r.scope_kind, r.scope_id, r.day, r.prev_day, r.first_day, r.guests, r.checks
  FROM pos_guest_presence_rows(company, NULL, NULL) r;
  DELETE FROM pos_guest_frequency WHERE company_id = company;
  INSERT INTO pos_guest_frequency (company_id, scope_kind, scope_id, day, visits, before_day, guests)
  SELECT company, r.scope_kind, r.scope_id, r.day, r.visits, r.before_day, r.guests
  FROM pos_guest_frequency_rows(company, NULL, NULL) r;
$$;
GRANT EXECUTE ON FUNCTION pos_guest_presence_rebuild(bigint) TO regulars_app;

SELECT pos_guest_presence_rebuild(id) FROM companies;
