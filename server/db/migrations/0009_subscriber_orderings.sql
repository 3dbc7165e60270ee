-- The subscriber list orders by what it shows (newest first by default) and by email or name on request; each
-- order reads a page straight from an index, with the id as the tie-breaker, at a million subscribers too.
CREATE INDEX subscribers_created ON subscribers (company_id, created_at, id);
CREATE INDEX subscribers_email_order ON subscribers (company_id, lower(email), id);
CREATE INDEX subscribers_name_order ON subscribers (company_id, lower(first_name), lower(last_name), id);
