-- The audiences kept for the company's day serve the basket's "guests who ordered X" as well as the home
-- dashboard's recommendations (issue 17; docs/dashboards.md "Kept audiences"): one item's distinct guests in a range
-- is counted from the range's checks and the item's lines, 0.6–6.2 s at 1M guests / 10M checks, and no rollup of a
-- sensible size gives it. The table of migration 0052 is renamed for both; a key is still the SHA-256 of what was
-- counted (a recommendation's segment, or the basket's item, range, locations, day part and zone), so the two
-- kinds never share a key; the key column is renamed to say so. Rows, policy and grants go with the rename, and
-- the constraints 0052 named after the table are renamed with it.

SELECT set_config('app.platform', 'on', true);

ALTER TABLE recommendation_audiences RENAME TO kept_audiences;
ALTER TABLE kept_audiences RENAME CONSTRAINT recommendation_audiences_pkey TO kept_audiences_pkey;
ALTER TABLE kept_audiences RENAME CONSTRAINT recommendation_audiences_segment_key_check TO kept_audiences_audience_key_check;
ALTER TABLE kept_audiences RENAME CONSTRAINT recommendation_audiences_audience_check TO kept_audiences_audience_check;
ALTER TABLE kept_audiences RENAME CONSTRAINT recommendation_audiences_company_id_fkey TO kept_audiences_company_id_fkey;
ALTER TABLE kept_audiences RENAME COLUMN segment_key TO audience_key;
