-- Stored RFM scores (docs/segments.md, "RFM"): worked out for a company with its CLV refresh, so the RFM
-- dashboard and the `rfm_cell` rule read one row per scored guest instead of ranking every guest on each call.
-- A row is a guest who had at least one check when scored; `spend_cents` and `clv_cents` are the guest's spend
-- and predicted CLV at that moment, so a dashboard's revenue shares and averages match its scores.

CREATE TABLE guest_rfm (
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  guest_id     bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  r            smallint NOT NULL CHECK (r BETWEEN 1 AND 5),
  f            smallint NOT NULL CHECK (f BETWEEN 1 AND 5),
  m            smallint NOT NULL CHECK (m BETWEEN 1 AND 5),
  spend_cents  bigint NOT NULL CHECK (spend_cents >= 0),
  -- NULL for a guest the last CLV fit did not see.
  clv_cents    bigint CHECK (clv_cents >= 0),
  PRIMARY KEY (company_id, guest_id)
);
-- A cell's guests by id (keyset pages) and the grid's counts read this index alone.
CREATE INDEX guest_rfm_cell ON guest_rfm (company_id, r, f, guest_id);
-- Deleting a guest cascades here by guest_id alone.
CREATE INDEX guest_rfm_guest ON guest_rfm (guest_id);

-- The grid's squares summed when the scores are worked out, for every location (location_id NULL) and for each
-- location (its visitors), so the dashboard of one of them reads 25 rows; several locations or a group are summed
-- from guest_rfm on the call.
CREATE TABLE rfm_squares (
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  location_id  bigint REFERENCES locations ON DELETE CASCADE,
  r            smallint NOT NULL,
  f            smallint NOT NULL,
  guests       integer NOT NULL,
  spend_cents  bigint NOT NULL,
  m_sum        bigint NOT NULL,
  clv_cents    bigint NOT NULL,
  clv_guests   integer NOT NULL
);
CREATE UNIQUE INDEX rfm_squares_key ON rfm_squares (company_id, coalesce(location_id, 0), r, f);

-- When a company's scores were worked out, and over how many guests.
CREATE TABLE rfm_scorings (
  company_id   bigint PRIMARY KEY REFERENCES companies ON DELETE CASCADE,
  computed_at  timestamptz NOT NULL,
  guests       integer NOT NULL CHECK (guests >= 0)
);

ALTER TABLE guest_rfm ENABLE ROW LEVEL SECURITY;
ALTER TABLE guest_rfm FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON guest_rfm USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON guest_rfm TO regulars_app;

ALTER TABLE rfm_scorings ENABLE ROW LEVEL SECURITY;
ALTER TABLE rfm_scorings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rfm_scorings USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON rfm_scorings TO regulars_app;

ALTER TABLE rfm_squares ENABLE ROW LEVEL SECURITY;
ALTER TABLE rfm_squares FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON rfm_squares USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON rfm_squares TO regulars_app;

-- The `rfm_cell` rule reads these scores: every company with a visit is scored at once (a CLV refresh is
-- requested; the runner scores after the refit) rather than counting nobody until its nightly refresh.
SELECT set_config('app.platform', 'on', true);
INSERT INTO clv_jobs (company_id, reason, requested_at)
SELECT c.id, 'nightly', now() FROM companies c
WHERE EXISTS (SELECT 1 FROM guests g WHERE g.company_id = c.id AND g.visit_count > 0)
ON CONFLICT (company_id) DO UPDATE SET requested_at = coalesce(clv_jobs.requested_at, excluded.requested_at);
