-- Per-guest metrics kept current as checks arrive (issue 13; docs/guest-data.md): visits and spend at each
-- location (the favourite location), quantities of each menu item (the favourite items), and visits by day part
-- in the location's time zone. Averages, recency and visits per month are worked out from the running totals
-- when read. Backfilled here from the checks already stored.

SELECT set_config('app.platform', 'on', true);

ALTER TABLE guest_locations ADD COLUMN visits integer NOT NULL DEFAULT 0 CHECK (visits >= 0);
ALTER TABLE guest_locations ADD COLUMN spend_cents bigint NOT NULL DEFAULT 0 CHECK (spend_cents >= 0);
UPDATE guest_locations gl SET visits = a.visits, spend_cents = a.spend
FROM (SELECT company_id, guest_id, location_id, count(*)::int AS visits, sum(total_cents)::bigint AS spend
      FROM pos_checks WHERE guest_id IS NOT NULL GROUP BY company_id, guest_id, location_id) a
WHERE gl.company_id = a.company_id AND gl.guest_id = a.guest_id AND gl.location_id = a.location_id;

CREATE TABLE guest_menu_items (
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  guest_id      bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  menu_item_id  bigint NOT NULL REFERENCES menu_items ON DELETE CASCADE,
  -- Units bought, and on how many checks.
  quantity      bigint NOT NULL CHECK (quantity >= 0),
  checks        bigint NOT NULL CHECK (checks >= 0),
  PRIMARY KEY (company_id, guest_id, menu_item_id)
);
-- "Guests who ordered X" reads by item; a guest's deletion cascades by guest_id alone.
CREATE INDEX guest_menu_items_item ON guest_menu_items (company_id, menu_item_id, guest_id);
CREATE INDEX guest_menu_items_guest ON guest_menu_items (guest_id);
INSERT INTO guest_menu_items (company_id, guest_id, menu_item_id, quantity, checks)
SELECT c.company_id, c.guest_id, l.menu_item_id, sum(l.quantity)::bigint, count(DISTINCT c.id)::bigint
FROM pos_check_lines l JOIN pos_checks c ON c.id = l.check_id
WHERE c.guest_id IS NOT NULL
GROUP BY c.company_id, c.guest_id, l.menu_item_id;

-- Day parts by the hour a check opened, in its location's time zone: breakfast 05–11, lunch 11–16,
-- dinner 16–22, late 22–05.
ALTER TABLE guests ADD COLUMN breakfast_visits integer NOT NULL DEFAULT 0 CHECK (breakfast_visits >= 0);
ALTER TABLE guests ADD COLUMN lunch_visits integer NOT NULL DEFAULT 0 CHECK (lunch_visits >= 0);
ALTER TABLE guests ADD COLUMN dinner_visits integer NOT NULL DEFAULT 0 CHECK (dinner_visits >= 0);
ALTER TABLE guests ADD COLUMN late_visits integer NOT NULL DEFAULT 0 CHECK (late_visits >= 0);

CREATE FUNCTION day_part(opened_at timestamptz, time_zone text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN h >= 5 AND h < 11 THEN 'breakfast'
    WHEN h >= 11 AND h < 16 THEN 'lunch'
    WHEN h >= 16 AND h < 22 THEN 'dinner'
    ELSE 'late' END
  FROM (SELECT extract(hour FROM opened_at AT TIME ZONE time_zone)::int AS h) t
$$;

UPDATE guests g SET breakfast_visits = a.breakfast, lunch_visits = a.lunch, dinner_visits = a.dinner,
                    late_visits = a.late
FROM (SELECT c.company_id, c.guest_id,
             count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'breakfast')::int AS breakfast,
             count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'lunch')::int AS lunch,
             count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'dinner')::int AS dinner,
             count(*) FILTER (WHERE day_part(c.opened_at, loc.time_zone) = 'late')::int AS late
      FROM pos_checks c JOIN locations loc ON loc.id = c.location_id
      WHERE c.guest_id IS NOT NULL
      GROUP BY c.company_id, c.guest_id) a
WHERE g.company_id = a.company_id AND g.id = a.guest_id;

ALTER TABLE guest_menu_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE guest_menu_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON guest_menu_items USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON guest_menu_items TO regulars_app;
GRANT EXECUTE ON FUNCTION day_part(timestamptz, text) TO regulars_app;
