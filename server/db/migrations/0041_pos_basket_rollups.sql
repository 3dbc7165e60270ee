-- The basket rollups of the POS checks for /basket-analytics (issue 17; docs/dashboards.md "Basket rollups"):
-- per span (a day, 'd', or a whole month, 'm', starting at `start`), location and day part — the checks, the
-- checks with two or more different items, line units and revenue (pos_basket_checks); per item and per category
-- the checks holding it, its units and revenue (pos_basket_items, pos_basket_categories); per unordered pair of
-- items (item_a < item_b) the checks holding both (pos_basket_pairs). A day is the local date of the closing time
-- in the company's zone, as every daily rollup's; the day part is day_part() of the opening time in the location's
-- zone (migration 0016), as the segment rules read it. Location 0 is every location and day part '' every day part,
-- so the usual call (every location, no day part) reads one row per span and pair. Every figure is a count or a
-- sum, so a range adds whole months and the days of its partial months. Kept with the other rollups
-- (server/repositories/pos-rollups.repository.ts, basket-rollups.repository.ts) and refilled by
-- pos_basket_rollups_rebuild. No foreign key on location_id (0 is no location): a location's deletion takes its
-- rows out itself (removeLocationFromBasketRollups).

SELECT set_config('app.platform', 'on', true);

CREATE TABLE pos_basket_checks (
  company_id        bigint NOT NULL,
  span              "char" NOT NULL CHECK (span IN ('d', 'm')),
  location_id       bigint NOT NULL,
  day_part          text NOT NULL,
  start             date NOT NULL,
  checks            bigint NOT NULL,
  multi_item_checks bigint NOT NULL,
  units             bigint NOT NULL,
  revenue_cents     bigint NOT NULL,
  PRIMARY KEY (company_id, span, location_id, day_part, start)
);

CREATE TABLE pos_basket_items (
  company_id    bigint NOT NULL,
  span          "char" NOT NULL CHECK (span IN ('d', 'm')),
  location_id   bigint NOT NULL,
  day_part      text NOT NULL,
  start         date NOT NULL,
  menu_item_id  bigint NOT NULL,
  checks        bigint NOT NULL,
  units         bigint NOT NULL,
  revenue_cents bigint NOT NULL,
  PRIMARY KEY (company_id, span, location_id, day_part, start, menu_item_id)
);

CREATE TABLE pos_basket_categories (
  company_id    bigint NOT NULL,
  span          "char" NOT NULL CHECK (span IN ('d', 'm')),
  location_id   bigint NOT NULL,
  day_part      text NOT NULL,
  start         date NOT NULL,
  category_id   bigint NOT NULL,
  checks        bigint NOT NULL,
  units         bigint NOT NULL,
  revenue_cents bigint NOT NULL,
  PRIMARY KEY (company_id, span, location_id, day_part, start, category_id)
);

CREATE TABLE pos_basket_pairs (
  company_id  bigint NOT NULL,
  span        "char" NOT NULL CHECK (span IN ('d', 'm')),
  location_id bigint NOT NULL,
  day_part    text NOT NULL,
  start       date NOT NULL,
  item_a      bigint NOT NULL,
  item_b      bigint NOT NULL CHECK (item_b > item_a),
  checks      bigint NOT NULL,
  PRIMARY KEY (company_id, span, location_id, day_part, start, item_a, item_b)
);

ALTER TABLE pos_basket_checks ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_basket_checks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_basket_checks
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_basket_checks TO regulars_app;

ALTER TABLE pos_basket_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_basket_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_basket_items
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_basket_items TO regulars_app;

ALTER TABLE pos_basket_categories ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_basket_categories FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_basket_categories
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_basket_categories TO regulars_app;

ALTER TABLE pos_basket_pairs ENABLE ROW LEVEL SECURITY;
ALTER TABLE pos_basket_pairs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON pos_basket_pairs
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON pos_basket_pairs TO regulars_app;

-- One company's basket rollups from its checks, in stages so the pair expansion runs once per check: the days
-- at each location and day part from one read of the checks and lines, then every location and every day part
-- from those days, then the months from the days.
CREATE FUNCTION pos_basket_rollups_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_basket_checks WHERE company_id = company;
  DELETE FROM pos_basket_items WHERE company_id = company;
  DELETE FROM pos_basket_categories WHERE company_id = company;
  DELETE FROM pos_basket_pairs WHERE company_id = company;

  WITH k AS MATERIALIZED (
    SELECT c.id, c.location_id, day_part(c.opened_at, loc.time_zone) AS day_part,
           (c.closed_at AT TIME ZONE co.time_zone)::date AS start
    FROM pos_checks c JOIN companies co ON co.id = company JOIN locations loc ON loc.id = c.location_id
    WHERE c.company_id = company),
  l AS MATERIALIZED (
    SELECT k.id AS check_id, k.location_id, k.day_part, k.start, l.menu_item_id, min(mi.category_id) AS category_id,
           sum(l.quantity)::bigint AS units, sum(l.amount_cents)::bigint AS cents
    FROM k JOIN pos_check_lines l ON l.company_id = company AND l.check_id = k.id
    JOIN menu_items mi ON mi.id = l.menu_item_id
    GROUP BY 1, 2, 3, 4, 5),
  checks AS (
    INSERT INTO pos_basket_checks (company_id, span, location_id, day_part, start, checks, multi_item_checks, units,
                                   revenue_cents)
    SELECT company, 'd', k.location_id, k.day_part, k.start, count(*), count(*) FILTER (WHERE c.items > 1),
           coalesce(sum(c.units), 0), coalesce(sum(c.cents), 0)
    FROM k LEFT JOIN (SELECT check_id, count(*) AS items, sum(units) AS units, sum(cents) AS cents
                      FROM l GROUP BY 1) c ON c.check_id = k.id
    GROUP BY 3, 4, 5),
  items AS (
    INSERT INTO pos_basket_items (company_id, span, location_id, day_part, start, menu_item_id, checks, units,
                                  revenue_cents)
    SELECT company, 'd', location_id, day_part, start, menu_item_id, count(*), sum(units), sum(cents)
    FROM l GROUP BY 3, 4, 5, 6),
  categories AS (
    INSERT INTO pos_basket_categories (company_id, span, location_id, day_part, start, category_id, checks, units,
                                       revenue_cents)
    SELECT company, 'd', location_id, day_part, start, category_id, count(DISTINCT check_id), sum(units), sum(cents)
    FROM l GROUP BY 3, 4, 5, 6)
  INSERT INTO pos_basket_pairs (company_id, span, location_id, day_part, start, item_a, item_b, checks)
  SELECT company, 'd', a.location_id, a.day_part, a.start, a.menu_item_id, b.menu_item_id, count(*)
  FROM l a JOIN l b ON b.check_id = a.check_id AND b.menu_item_id > a.menu_item_id
  GROUP BY 3, 4, 5, 6, 7;

  -- Every location (0) and every day part (''), from the days at each location and day part.
  INSERT INTO pos_basket_checks
  SELECT company, 'd', g.location_id, g.day_part, t.start, sum(t.checks), sum(t.multi_item_checks), sum(t.units),
         sum(t.revenue_cents)
  FROM pos_basket_checks t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company
  GROUP BY 3, 4, 5;
  INSERT INTO pos_basket_items
  SELECT company, 'd', g.location_id, g.day_part, t.start, t.menu_item_id, sum(t.checks), sum(t.units),
         sum(t.revenue_cents)
  FROM pos_basket_items t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_categories
  SELECT company, 'd', g.location_id, g.day_part, t.start, t.category_id, sum(t.checks), sum(t.units),
         sum(t.revenue_cents)
  FROM pos_basket_categories t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_pairs
  SELECT company, 'd', g.location_id, g.day_part, t.start, t.item_a, t.item_b, sum(t.checks)
  FROM pos_basket_pairs t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company
  GROUP BY 3, 4, 5, 6, 7;

  -- The months, from the days.
  INSERT INTO pos_basket_checks
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, sum(checks), sum(multi_item_checks),
         sum(units), sum(revenue_cents)
  FROM pos_basket_checks WHERE company_id = company AND span = 'd'
  GROUP BY 3, 4, 5;
  INSERT INTO pos_basket_items
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, menu_item_id, sum(checks), sum(units),
         sum(revenue_cents)
  FROM pos_basket_items WHERE company_id = company AND span = 'd'
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_categories
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, category_id, sum(checks), sum(units),
         sum(revenue_cents)
  FROM pos_basket_categories WHERE company_id = company AND span = 'd'
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_pairs
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, item_a, item_b, sum(checks)
  FROM pos_basket_pairs WHERE company_id = company AND span = 'd'
  GROUP BY 3, 4, 5, 6, 7;
$$;

SELECT pos_basket_rollups_rebuild(id) FROM companies;

GRANT EXECUTE ON FUNCTION pos_basket_rollups_rebuild(bigint) TO regulars_app;
