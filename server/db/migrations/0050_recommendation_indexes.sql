-- The home dashboard's recommendations at 1M guests (issue 17; docs/dashboards.md "Recommendations"): two reads
-- of its audiences went to the table rows for a figure the index could carry.
--   guest_locations by location now includes the guest's visits and last visit there: the segment engine's
--   "guests of these locations" set (`visits > 0`) and the lapsed regulars' count per location (`visits >= 3`,
--   last visit before a bound) become index-only scans (measured at 1M guests, a group of five locations:
--   356 → 51 ms and 80–400 → 28 ms).
--   subscribers by birthday month: the "birthdays this month" set reads the month's linked subscribers, not every
--   subscriber.
-- The cost, on the write side: ingest updates a guest's visits and last visit at a location with every check, and
-- with those columns in an index that update can no longer stay heap-only: it writes its index entries too.
-- Measured with the checks bench: within a few per cent of before (docs/dashboards.md).

DROP INDEX guest_locations_location;
CREATE INDEX guest_locations_location ON guest_locations (company_id, location_id, guest_id)
  INCLUDE (visits, last_visit_at);

CREATE INDEX subscribers_birthday_month ON subscribers (company_id, (extract(month FROM birthday)))
  INCLUDE (guest_id) WHERE guest_id IS NOT NULL;
