-- The demo data set loads in two steps: the accounts, guests and subscribers before the server listens, then
-- the POS history in batches while it already answers. Each demo company's progress is kept here, in the
-- same transaction as each batch, so a start after an interrupted load resumes it instead of leaving it half.
CREATE TABLE demo_loads (
  company_id      bigint PRIMARY KEY REFERENCES companies ON DELETE CASCADE,
  scale           text NOT NULL,
  seed            bigint NOT NULL,
  until_date      date NOT NULL,
  checks_total    integer NOT NULL CHECK (checks_total >= 0),
  checks_loaded   integer NOT NULL DEFAULT 0 CHECK (checks_loaded >= 0),
  finished_at     timestamptz,
  -- Why the last attempt stopped, until the next start tries again.
  failure         text
);

ALTER TABLE demo_loads ENABLE ROW LEVEL SECURITY;
ALTER TABLE demo_loads FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON demo_loads USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON demo_loads TO regulars_app;
