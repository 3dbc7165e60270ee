-- Event logs captured by "Send to support": the app's redacted event log as JSON Lines, per company.
CREATE TABLE support_event_logs (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  user_id        bigint REFERENCES users ON DELETE SET NULL,
  actor_user_id  bigint REFERENCES users ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  entry_count    integer NOT NULL CHECK (entry_count BETWEEN 1 AND 5000),
  byte_size      integer NOT NULL CHECK (byte_size BETWEEN 1 AND 5242880),
  content        text NOT NULL
);
CREATE INDEX support_event_logs_company ON support_event_logs (company_id, id DESC);
CREATE INDEX support_event_logs_created ON support_event_logs (id DESC);

ALTER TABLE support_event_logs ENABLE ROW LEVEL SECURITY;
ALTER TABLE support_event_logs FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON support_event_logs
  USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON support_event_logs TO regulars_app;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regulars_app;
