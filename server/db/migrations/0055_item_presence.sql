-- "Guests who ordered X" from a rollup (issue 17; docs/dashboards.md "Basket analytics"). The presence rollup's
-- sum (migration 0042) taken per item: a guest is among an item's guests of a range [from, to] once, on the first
-- of their days in it with a check holding the item, the one whose previous such day in the scope is before
-- `from` (or who had none). So per scope, item, day and previous day, the guests of that day turn the count into
-- a sum over rows with the day in the range and the previous day before `from`: its size grows with the items
-- times the range's days times earlier days, not with guests or checks (2.6M rows for the company, 20 locations and
-- a group, 60 items, at 1M guests / 10M checks, against 21M guest-item-days). Scopes as the presence rows': the company
-- (scope_kind 0, scope_id 0), each location (1, its id) and each location group (2, its id; filled by the group
-- worker with the group's other rows). Kept with them by server/repositories/guest-presence.repository.ts.

SELECT set_config('app.platform', 'on', true);

CREATE TABLE pos_item_presence (
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  scope_kind    smallint NOT NULL CHECK (scope_kind IN (0, 1, 2)),
  scope_id      bigint NOT NULL,
  menu_item_id  bigint NOT NULL,
  day           date NOT NULL,
  -- The guest's previous day with the item in the scope; '-infinity' for their first.
  prev_day      date NOT NULL,
  -- The guests of that day, scope, item and previous day.
  guests        bigint NOT NULL,
  PRIMARY KEY (company_id, scope_kind, scope_id, menu_item_id, day, prev_day) INCLUDE (guests)
);
-- Rows an increment emptied, found without reading the company's rows.
CREATE INDEX pos_item_presence_empty ON pos_item_presence (company_id) WHERE guests = 0;

ALTER TABLE pos_item_presence ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_item_presence FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_item_presence
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_item_presence TO regulars_app;

-- The item presence rows of some guests (null: all) of a company, from their checks and lines (a day is the
-- company's, as the guest-day rows'): for the company, each location and each group (only_group: just that one).
-- Subtracted before a change to those guests' checks and added after, as the presence rows are (a guest's or a
-- location's deletion, a group's fill, the bulk rebuild); a batch of checks moves them by pos_item_presence_batch.
CREATE FUNCTION pos_item_presence_rows(company bigint, guest_ids bigint[], only_group bigint)
RETURNS TABLE (scope_kind smallint, scope_id bigint, menu_item_id bigint, day date, prev_day date, guests bigint)
LANGUAGE sql STABLE AS $$
  -- Each guest's days with the item at each location, from every guest check of the company (of the group's
  -- locations for a group's fill) or from those of the guests named (their index), each branch joined to its lines
  -- on its own so the guests' branch probes the lines check by check; the branch not taken is skipped at run time.
  WITH lines AS NOT MATERIALIZED (
    SELECT c.guest_id, c.location_id, l.menu_item_id, c.closed_at
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE guest_ids IS NULL AND c.company_id = company AND c.guest_id IS NOT NULL
      AND (only_group IS NULL
           OR c.location_id IN (SELECT m.location_id FROM location_group_members m
                                WHERE m.company_id = company AND m.group_id = only_group))
    UNION ALL
    SELECT c.guest_id, c.location_id, l.menu_item_id, c.closed_at
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE guest_ids IS NOT NULL AND c.company_id = company AND c.guest_id = ANY(guest_ids)),
  src AS MATERIALIZED (
    SELECT DISTINCT k.guest_id, k.location_id, k.menu_item_id, (k.closed_at AT TIME ZONE co.time_zone)::date AS day
    FROM lines k JOIN companies co ON co.id = company),
  entries AS (
    SELECT 0::smallint AS kind, 0::bigint AS scope_id, x.menu_item_id, x.day,
           lag(x.day) OVER (PARTITION BY x.guest_id, x.menu_item_id ORDER BY x.day) AS prev
    FROM (SELECT DISTINCT s.guest_id, s.menu_item_id, s.day FROM src s WHERE only_group IS NULL) x
    UNION ALL
    SELECT 1::smallint, s.location_id, s.menu_item_id, s.day,
           lag(s.day) OVER (PARTITION BY s.guest_id, s.location_id, s.menu_item_id ORDER BY s.day)
    FROM src s WHERE only_group IS NULL
    UNION ALL
    SELECT 2::smallint, x.group_id, x.menu_item_id, x.day,
           lag(x.day) OVER (PARTITION BY x.group_id, x.guest_id, x.menu_item_id ORDER BY x.day)
    FROM (SELECT DISTINCT m.group_id, s.guest_id, s.menu_item_id, s.day
          FROM src s
          JOIN location_group_members m ON m.company_id = company AND m.location_id = s.location_id
          WHERE only_group IS NULL OR m.group_id = only_group) x)
  SELECT kind, scope_id, menu_item_id, day, coalesce(prev, '-infinity'::date), count(*)
  FROM entries GROUP BY 1, 2, 3, 4, 5;
$$;
-- As the presence rows': a batch's few guests are estimated dear enough to set off JIT, whose compiling costs more.
ALTER FUNCTION pos_item_presence_rows(bigint, bigint[], bigint) SET jit = off;
GRANT EXECUTE ON FUNCTION pos_item_presence_rows(bigint, bigint[], bigint) TO regulars_app;

-- What a batch of stored checks changes in the item presence rows: the rows with the checks less the rows without
-- them, for their guests' items on them only (no other chain moves), from one read of those guests' lines, so only
-- the rows that change are written. Added once the batch is stored, subtracted before it is deleted (a void).
-- Measured at 1M guests / 10M checks: subtracting and adding every item row of a thousand checks' guests wrote
-- about 43,000 rows twice (1.1–3.4 s); the difference is a few per guest.
CREATE FUNCTION pos_item_presence_batch(company bigint, batch bigint[])
RETURNS TABLE (scope_kind smallint, scope_id bigint, menu_item_id bigint, day date, prev_day date, guests bigint)
LANGUAGE sql STABLE AS $$
  WITH moved AS MATERIALIZED (
    SELECT DISTINCT c.guest_id, l.menu_item_id
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE c.company_id = company AND c.id = ANY(batch) AND c.guest_id IS NOT NULL),
  -- Each of those guests' days with one of their moved items at a location, and whether a check outside the batch
  -- holds it.
  days AS MATERIALIZED (
    SELECT c.guest_id, c.location_id, l.menu_item_id, (c.closed_at AT TIME ZONE co.time_zone)::date AS day,
           bool_or(c.id <> ALL(batch)) AS without_batch
    FROM pos_checks c JOIN companies co ON co.id = company
    JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE c.company_id = company AND c.guest_id IN (SELECT m.guest_id FROM moved m)
      AND (c.guest_id, l.menu_item_id) IN (SELECT m.guest_id, m.menu_item_id FROM moved m)
    GROUP BY 1, 2, 3, 4),
  scoped AS (
    SELECT 0::smallint AS kind, 0::bigint AS scope_id, d.guest_id, d.menu_item_id, d.day,
           bool_or(d.without_batch) AS without_batch
    FROM days d GROUP BY d.guest_id, d.menu_item_id, d.day
    UNION ALL
    SELECT 1::smallint, d.location_id, d.guest_id, d.menu_item_id, d.day, d.without_batch FROM days d
    UNION ALL
    SELECT 2::smallint, m.group_id, d.guest_id, d.menu_item_id, d.day, bool_or(d.without_batch)
    FROM days d JOIN location_group_members m ON m.company_id = company AND m.location_id = d.location_id
    GROUP BY m.group_id, d.guest_id, d.menu_item_id, d.day),
  -- The chains with the batch (+1) and without it (-1).
  chains AS (
    SELECT s.kind, s.scope_id, s.menu_item_id, s.day, 1 AS sign,
           lag(s.day) OVER (PARTITION BY s.kind, s.scope_id, s.guest_id, s.menu_item_id ORDER BY s.day) AS prev
    FROM scoped s
    UNION ALL
    SELECT s.kind, s.scope_id, s.menu_item_id, s.day, -1,
           lag(s.day) OVER (PARTITION BY s.kind, s.scope_id, s.guest_id, s.menu_item_id ORDER BY s.day)
    FROM scoped s WHERE s.without_batch)
  SELECT kind, scope_id, menu_item_id, day, coalesce(prev, '-infinity'::date), sum(sign)::bigint
  FROM chains GROUP BY 1, 2, 3, 4, 5 HAVING sum(sign) <> 0;
$$;
ALTER FUNCTION pos_item_presence_batch(bigint, bigint[]) SET jit = off;
GRANT EXECUTE ON FUNCTION pos_item_presence_batch(bigint, bigint[]) TO regulars_app;

-- The presence refill (migrations 0042 and 0051) now refills the item presence rows too.
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
  DELETE FROM pos_item_presence WHERE company_id = company;
  INSERT INTO pos_item_presence (company_id, scope_kind, scope_id, menu_item_id, day, prev_day, guests)
  SELECT company, r.scope_kind, r.scope_id, r.menu_item_id, r.day, r.prev_day, r.guests
  FROM pos_item_presence_rows(company, NULL, NULL) r;
$$;

INSERT INTO pos_item_presence (company_id, scope_kind, scope_id, menu_item_id, day, prev_day, guests)
SELECT c.id, r.scope_kind, r.scope_id, r.menu_item_id, r.day, r.prev_day, r.guests
FROM companies c, pos_item_presence_rows(c.id, NULL, NULL) r;

