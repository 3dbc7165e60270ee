-- A check's identity as a POS connector sends it (issue 13): its location, check number and closing time. A
-- batch sent again, or a check in two batches, is then stored once (`INSERT … ON CONFLICT DO NOTHING`).
CREATE UNIQUE INDEX pos_checks_identity ON pos_checks (company_id, location_id, check_number, closed_at);
-- Menu items are found by name when checks arrive.
CREATE INDEX menu_items_name ON menu_items (company_id, lower(name));
