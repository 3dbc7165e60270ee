-- Each guest's first and last visit at each location (issue 17; docs/segments.md "Location-scoped figures",
-- docs/dashboards.md "Recommendations"), beside the visits and spend there (migration 0016): kept with them where
-- checks are ingested or taken away (pos.repository.ts) and by the demo loader's bulk fill, so the segment rules
-- scoped to locations (visits, spend, first and last visit at a location) read one row per guest and location
-- instead of every check, and the home dashboard's lapsed regulars are one grouped count over this table.
-- Backfilled here from the checks already stored; NULL for a location without a check.

SELECT set_config('app.platform', 'on', true);

ALTER TABLE guest_locations ADD COLUMN first_visit_at timestamptz;
ALTER TABLE guest_locations ADD COLUMN last_visit_at timestamptz;
UPDATE guest_locations gl SET first_visit_at = a.first_at, last_visit_at = a.last_at
FROM (SELECT company_id, guest_id, location_id, min(closed_at) AS first_at, max(closed_at) AS last_at
      FROM pos_checks WHERE guest_id IS NOT NULL GROUP BY company_id, guest_id, location_id) a
WHERE gl.company_id = a.company_id AND gl.guest_id = a.guest_id AND gl.location_id = a.location_id;

