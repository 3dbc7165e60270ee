-- Day parts in the item presence rollup (issue 17; docs/dashboards.md "Basket analytics"). The basket at a day part
-- counted its guests from the range's checks at every ask (that count's raw SQL: 1.3–8.7 s at 1M guests / 10M
-- checks for 90–365 days), and an item's guests at a day part the same once a day (0.5–3.5 s): the rows of migration
-- 0055 knew no day parts. Now each row has a
-- day part: '' for every day part (the rows as before) and 'breakfast', 'lunch', 'dinner' or 'late' for the checks
-- opened then (`day_part()`, the location's zone, as the basket rollups and the segment rules read it), each chain
-- of days being the guest's days with the item at that day part. Menu item 0 stands for any check (lines or none),
-- kept at the four day parts only: the range's guests at a day part (every day part is the presence rollup's).
-- A location's new time zone moves its checks between day parts, so its guests' rows are worked out again then
-- (locations.service.ts).

SELECT set_config('app.platform', 'on', true);

-- Refilled below: emptied first, so the new key's index is built on no rows and the column needs no default (a
-- writer must say its day part). The table stays locked until the refill ends: 720 s at 1M guests / 10M checks.
TRUNCATE pos_item_presence;
ALTER TABLE pos_item_presence
  ADD COLUMN day_part text NOT NULL CHECK (day_part IN ('', 'breakfast', 'lunch', 'dinner', 'late'));
ALTER TABLE pos_item_presence DROP CONSTRAINT pos_item_presence_pkey;
ALTER TABLE pos_item_presence
  ADD PRIMARY KEY (company_id, scope_kind, scope_id, menu_item_id, day_part, day, prev_day) INCLUDE (guests);

-- The result's columns change, which CREATE OR REPLACE cannot do.
DROP FUNCTION pos_item_presence_rows(bigint, bigint[], bigint);
DROP FUNCTION pos_item_presence_batch(bigint, bigint[]);

-- The item presence rows of some guests (null: all) of a company (migration 0055), now at each day part too.
CREATE FUNCTION pos_item_presence_rows(company bigint, guest_ids bigint[], only_group bigint)
RETURNS TABLE (scope_kind smallint, scope_id bigint, menu_item_id bigint, day_part text, day date, prev_day date,
               guests bigint)
LANGUAGE sql STABLE AS $$
  -- Each guest check's items, and the check itself as item 0, from every guest check of the company (of the group's
  -- locations for a group's fill) or from those of the guests named (their index); each lines branch joined on its
  -- own so the guests' branch probes the lines check by check; the branches not taken are skipped at run time.
  WITH items AS NOT MATERIALIZED (
    SELECT c.guest_id, c.location_id, l.menu_item_id, c.opened_at, c.closed_at
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE guest_ids IS NULL AND c.company_id = company AND c.guest_id IS NOT NULL
      AND (only_group IS NULL
           OR c.location_id IN (SELECT m.location_id FROM location_group_members m
                                WHERE m.company_id = company AND m.group_id = only_group))
    UNION ALL
    SELECT c.guest_id, c.location_id, 0::bigint, c.opened_at, c.closed_at
    FROM pos_checks c
    WHERE guest_ids IS NULL AND c.company_id = company AND c.guest_id IS NOT NULL
      AND (only_group IS NULL
           OR c.location_id IN (SELECT m.location_id FROM location_group_members m
                                WHERE m.company_id = company AND m.group_id = only_group))
    UNION ALL
    SELECT c.guest_id, c.location_id, l.menu_item_id, c.opened_at, c.closed_at
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE guest_ids IS NOT NULL AND c.company_id = company AND c.guest_id = ANY(guest_ids)
    UNION ALL
    SELECT c.guest_id, c.location_id, 0::bigint, c.opened_at, c.closed_at
    FROM pos_checks c
    WHERE guest_ids IS NOT NULL AND c.company_id = company AND c.guest_id = ANY(guest_ids)),
  -- Each guest's days with the item at each location and day part.
  src AS MATERIALIZED (
    SELECT DISTINCT k.guest_id, k.location_id, k.menu_item_id, day_part(k.opened_at, loc.time_zone) AS part,
           (k.closed_at AT TIME ZONE co.time_zone)::date AS day
    FROM items k JOIN companies co ON co.id = company
    JOIN locations loc ON loc.company_id = company AND loc.id = k.location_id),
  -- Those days at their day part, and the items' (not item 0's) at every day part ('').
  parted AS MATERIALIZED (
    SELECT s.guest_id, s.location_id, s.menu_item_id, s.part, s.day FROM src s
    UNION ALL
    SELECT DISTINCT s.guest_id, s.location_id, s.menu_item_id, '', s.day FROM src s WHERE s.menu_item_id <> 0),
  entries AS (
    SELECT 0::smallint AS kind, 0::bigint AS scope_id, x.menu_item_id, x.part, x.day,
           lag(x.day) OVER (PARTITION BY x.guest_id, x.menu_item_id, x.part ORDER BY x.day) AS prev
    FROM (SELECT DISTINCT p.guest_id, p.menu_item_id, p.part, p.day FROM parted p WHERE only_group IS NULL) x
    UNION ALL
    SELECT 1::smallint, p.location_id, p.menu_item_id, p.part, p.day,
           lag(p.day) OVER (PARTITION BY p.guest_id, p.location_id, p.menu_item_id, p.part ORDER BY p.day)
    FROM parted p WHERE only_group IS NULL
    UNION ALL
    SELECT 2::smallint, x.group_id, x.menu_item_id, x.part, x.day,
           lag(x.day) OVER (PARTITION BY x.group_id, x.guest_id, x.menu_item_id, x.part ORDER BY x.day)
    FROM (SELECT DISTINCT m.group_id, p.guest_id, p.menu_item_id, p.part, p.day
          FROM parted p
          JOIN location_group_members m ON m.company_id = company AND m.location_id = p.location_id
          WHERE only_group IS NULL OR m.group_id = only_group) x)
  SELECT kind, scope_id, menu_item_id, part, day, coalesce(prev, '-infinity'::date), count(*)
  FROM entries GROUP BY 1, 2, 3, 4, 5, 6;
$$;
-- As the presence rows': a batch's few guests are estimated dear enough to set off JIT, whose compiling costs more.
ALTER FUNCTION pos_item_presence_rows(bigint, bigint[], bigint) SET jit = off;
GRANT EXECUTE ON FUNCTION pos_item_presence_rows(bigint, bigint[], bigint) TO regulars_app;

-- What a batch of stored checks changes in the item presence rows (migration 0055), now at each day part too: the
-- rows with the checks less the rows without them, for their guests' items on them (and item 0) only.
CREATE FUNCTION pos_item_presence_batch(company bigint, batch bigint[])
RETURNS TABLE (scope_kind smallint, scope_id bigint, menu_item_id bigint, day_part text, day date, prev_day date,
               guests bigint)
LANGUAGE sql STABLE AS $$
  WITH moved AS MATERIALIZED (
    SELECT DISTINCT c.guest_id, l.menu_item_id
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE c.company_id = company AND c.id = ANY(batch) AND c.guest_id IS NOT NULL
    UNION
    SELECT DISTINCT c.guest_id, 0::bigint
    FROM pos_checks c WHERE c.company_id = company AND c.id = ANY(batch) AND c.guest_id IS NOT NULL),
  -- Those guests' checks holding one of their moved items, and all their checks as item 0.
  items AS (
    SELECT c.id, c.guest_id, c.location_id, l.menu_item_id, c.opened_at, c.closed_at
    FROM pos_checks c JOIN pos_check_lines l ON l.company_id = company AND l.check_id = c.id
    WHERE c.company_id = company AND c.guest_id IN (SELECT m.guest_id FROM moved m)
      AND (c.guest_id, l.menu_item_id) IN (SELECT m.guest_id, m.menu_item_id FROM moved m)
    UNION ALL
    SELECT c.id, c.guest_id, c.location_id, 0::bigint, c.opened_at, c.closed_at
    FROM pos_checks c
    WHERE c.company_id = company AND c.guest_id IN (SELECT m.guest_id FROM moved m WHERE m.menu_item_id = 0)),
  -- Each of their days with the item at a location and day part, and whether a check outside the batch holds it.
  days AS MATERIALIZED (
    SELECT i.guest_id, i.location_id, i.menu_item_id, day_part(i.opened_at, loc.time_zone) AS part,
           (i.closed_at AT TIME ZONE co.time_zone)::date AS day, bool_or(i.id <> ALL(batch)) AS without_batch
    FROM items i JOIN companies co ON co.id = company
    JOIN locations loc ON loc.company_id = company AND loc.id = i.location_id
    GROUP BY 1, 2, 3, 4, 5),
  -- Those days at their day part, and the items' (not item 0's) at every day part ('').
  parted AS MATERIALIZED (
    SELECT d.guest_id, d.location_id, d.menu_item_id, d.part, d.day, d.without_batch FROM days d
    UNION ALL
    SELECT d.guest_id, d.location_id, d.menu_item_id, '', d.day, bool_or(d.without_batch)
    FROM days d WHERE d.menu_item_id <> 0 GROUP BY d.guest_id, d.location_id, d.menu_item_id, d.day),
  scoped AS (
    SELECT 0::smallint AS kind, 0::bigint AS scope_id, p.guest_id, p.menu_item_id, p.part, p.day,
           bool_or(p.without_batch) AS without_batch
    FROM parted p GROUP BY p.guest_id, p.menu_item_id, p.part, p.day
    UNION ALL
    SELECT 1::smallint, p.location_id, p.guest_id, p.menu_item_id, p.part, p.day, p.without_batch FROM parted p
    UNION ALL
    SELECT 2::smallint, m.group_id, p.guest_id, p.menu_item_id, p.part, p.day, bool_or(p.without_batch)
    FROM parted p JOIN location_group_members m ON m.company_id = company AND m.location_id = p.location_id
    GROUP BY m.group_id, p.guest_id, p.menu_item_id, p.part, p.day),
  -- The chains with the batch (+1) and without it (-1).
  chains AS (
    SELECT s.kind, s.scope_id, s.menu_item_id, s.part, s.day, 1 AS sign,
           lag(s.day) OVER (PARTITION BY s.kind, s.scope_id, s.guest_id, s.menu_item_id, s.part ORDER BY s.day) AS prev
    FROM scoped s
    UNION ALL
    SELECT s.kind, s.scope_id, s.menu_item_id, s.part, s.day, -1,
           lag(s.day) OVER (PARTITION BY s.kind, s.scope_id, s.guest_id, s.menu_item_id, s.part ORDER BY s.day)
    FROM scoped s WHERE s.without_batch)
  SELECT kind, scope_id, menu_item_id, part, day, coalesce(prev, '-infinity'::date), sum(sign)::bigint
  FROM chains GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(sign) <> 0;
$$;
ALTER FUNCTION pos_item_presence_batch(bigint, bigint[]) SET jit = off;
GRANT EXECUTE ON FUNCTION pos_item_presence_batch(bigint, bigint[]) TO regulars_app;

-- The presence refill (migrations 0042, 0051 and 0055) with the item rows' day parts.
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
  INSERT INTO pos_item_presence (company_id, scope_kind, scope_id, menu_item_id, day_part, day, prev_day, guests)
  SELECT company, r.scope_kind, r.scope_id, r.menu_item_id, r.day_part, r.day, r.prev_day, r.guests
  FROM pos_item_presence_rows(company, NULL, NULL) r;
$$;

INSERT INTO pos_item_presence (company_id, scope_kind, scope_id, menu_item_id, day_part, day, prev_day, guests)
SELECT c.id, r.scope_kind, r.scope_id, r.menu_item_id, r.day_part, r.day, r.prev_day, r.guests
FROM companies c, pos_item_presence_rows(c.id, NULL, NULL) r;
