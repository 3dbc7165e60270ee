-- The basket rollups filled a range of months at a time (issue 17). The demo loader on PGlite, which runs in the
-- server's thread, fills them a month per statement so the server answers between two months; the bulk rebuild is
-- the same fill over every day. The range's rows must be gone before (clearBasketRollups).

SELECT set_config('app.platform', 'on', true);

-- A company's basket rollups of the days in [from_day, to_day) and of the months they make up: from_day and to_day
-- are a month's first day (or ±infinity), so each month is whole.
CREATE FUNCTION pos_basket_rollups_fill(company bigint, from_day date, to_day date) RETURNS void
LANGUAGE sql AS $$
  WITH k AS MATERIALIZED (
    SELECT c.id, c.location_id, day_part(c.opened_at, loc.time_zone) AS day_part,
           (c.closed_at AT TIME ZONE co.time_zone)::date AS start
    FROM pos_checks c JOIN companies co ON co.id = company JOIN locations loc ON loc.id = c.location_id
    WHERE c.company_id = company
      -- The range's local days; as instants too, a day wider (a local midnight can happen twice), so the index on
      -- the closing time finds them.
      AND (c.closed_at AT TIME ZONE co.time_zone)::date >= from_day
      AND (c.closed_at AT TIME ZONE co.time_zone)::date < to_day
      AND c.closed_at >= ((from_day - 1)::timestamp AT TIME ZONE co.time_zone)
      AND c.closed_at < ((to_day + 1)::timestamp AT TIME ZONE co.time_zone)),
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

  -- Every location (0) and every day part (''), from the range's days at each location and day part (the only
  -- day rows of the range so far).
  INSERT INTO pos_basket_checks
  SELECT company, 'd', g.location_id, g.day_part, t.start, sum(t.checks), sum(t.multi_item_checks), sum(t.units),
         sum(t.revenue_cents)
  FROM pos_basket_checks t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company AND t.span = 'd' AND t.start >= from_day AND t.start < to_day
  GROUP BY 3, 4, 5;
  INSERT INTO pos_basket_items
  SELECT company, 'd', g.location_id, g.day_part, t.start, t.menu_item_id, sum(t.checks), sum(t.units),
         sum(t.revenue_cents)
  FROM pos_basket_items t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company AND t.span = 'd' AND t.start >= from_day AND t.start < to_day
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_categories
  SELECT company, 'd', g.location_id, g.day_part, t.start, t.category_id, sum(t.checks), sum(t.units),
         sum(t.revenue_cents)
  FROM pos_basket_categories t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company AND t.span = 'd' AND t.start >= from_day AND t.start < to_day
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_pairs
  SELECT company, 'd', g.location_id, g.day_part, t.start, t.item_a, t.item_b, sum(t.checks)
  FROM pos_basket_pairs t
  CROSS JOIN LATERAL (VALUES (t.location_id, ''), (0, t.day_part), (0, '')) g(location_id, day_part)
  WHERE t.company_id = company AND t.span = 'd' AND t.start >= from_day AND t.start < to_day
  GROUP BY 3, 4, 5, 6, 7;

  -- The months, from the days (whole months: the range starts and ends on a month's first day).
  INSERT INTO pos_basket_checks
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, sum(checks), sum(multi_item_checks),
         sum(units), sum(revenue_cents)
  FROM pos_basket_checks WHERE company_id = company AND span = 'd' AND start >= from_day AND start < to_day
  GROUP BY 3, 4, 5;
  INSERT INTO pos_basket_items
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, menu_item_id, sum(checks), sum(units),
         sum(revenue_cents)
  FROM pos_basket_items WHERE company_id = company AND span = 'd' AND start >= from_day AND start < to_day
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_categories
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, category_id, sum(checks), sum(units),
         sum(revenue_cents)
  FROM pos_basket_categories WHERE company_id = company AND span = 'd' AND start >= from_day AND start < to_day
  GROUP BY 3, 4, 5, 6;
  INSERT INTO pos_basket_pairs
  SELECT company, 'm', location_id, day_part, date_trunc('month', start)::date, item_a, item_b, sum(checks)
  FROM pos_basket_pairs WHERE company_id = company AND span = 'd' AND start >= from_day AND start < to_day
  GROUP BY 3, 4, 5, 6, 7;
$$;

GRANT EXECUTE ON FUNCTION pos_basket_rollups_fill(bigint, date, date) TO regulars_app;

CREATE OR REPLACE FUNCTION pos_basket_rollups_rebuild(company bigint) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM pos_basket_checks WHERE company_id = company;
  DELETE FROM pos_basket_items WHERE company_id = company;
  DELETE FROM pos_basket_categories WHERE company_id = company;
  DELETE FROM pos_basket_pairs WHERE company_id = company;
  SELECT pos_basket_rollups_fill(company, '-infinity', 'infinity');
$$;
