-- The CLV refresh queue (docs/clv.md): one row per company, so a company has at most one pending refresh.
-- Pending: requested_at is set. Running: lease_until is set (a worker holds the claim numbered `claim` and
-- renews the lease while it fits); a claim whose lease passed belongs to a process that died and is taken
-- again. A request made while a refresh runs waits, pending, for it to end.

CREATE TABLE clv_jobs (
  company_id      bigint PRIMARY KEY REFERENCES companies ON DELETE CASCADE,
  reason          text CHECK (reason IN ('nightly', 'first-fit', 'new-checks', 'import', 'settings')),
  requested_at    timestamptz,
  claim           bigint NOT NULL DEFAULT 0,
  claimed_at      timestamptz,
  lease_until     timestamptz,
  -- Checks stored when the running (or last) refresh was claimed, and the newest check id then: a later
  -- import or batch compares what arrived since with them.
  fitted_checks   bigint NOT NULL DEFAULT 0,
  last_check_id   bigint NOT NULL DEFAULT 0,
  -- Checks sent through the API since the last claim.
  new_checks      bigint NOT NULL DEFAULT 0,
  finished_at     timestamptz,
  failed_at       timestamptz,
  -- A database error code or 'fit'; never data.
  error_code      text
);
-- The claim looks for pending or lapsed rows only.
CREATE INDEX clv_jobs_waiting ON clv_jobs (requested_at) WHERE requested_at IS NOT NULL OR lease_until IS NOT NULL;

ALTER TABLE clv_jobs ENABLE ROW LEVEL SECURITY;
ALTER TABLE clv_jobs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON clv_jobs USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON clv_jobs TO regulars_app;
