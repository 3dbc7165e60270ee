-- Background segment exports (docs/segments.md, "Background exports"): `GET …/segments/{id}/export/?trigger=1`
-- queues a row here; the job workers (server/jobs/segment-export-runner.ts) write the segment's CSV a turn at a
-- time into segment_export_chunks, as imports keep uploaded files in import_file_chunks, so any process on the
-- database can write or serve it. The file holds guests' personal data: tenant policy, removed with its row
-- once `expires_at` passes (the runner's sweep).

CREATE TABLE segment_exports (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  -- No foreign key: a finished file outlives its segment until it expires; a segment deleted before the
  -- export ends fails it.
  segment_id     bigint NOT NULL,
  segment_name   text NOT NULL,
  status         text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  rows_written   integer NOT NULL DEFAULT 0 CHECK (rows_written >= 0),
  -- The segment's cached member count when the export was asked for; NULL while its figures were computing.
  total          integer CHECK (total >= 0),
  -- The resume point: members are written in guest id order, each turn after the last id it committed.
  last_guest_id  bigint NOT NULL DEFAULT 0,
  chunks         integer NOT NULL DEFAULT 0 CHECK (chunks >= 0),
  -- A code, never data: 'rules_refused', 'segment_deleted', 'export_failed'.
  failure        text,
  requested_by   bigint REFERENCES users ON DELETE SET NULL,
  -- The user of the company to mail when done (only the company's users: the file holds personal data).
  email_user_id  bigint REFERENCES users ON DELETE SET NULL,
  emailed_at     timestamptz,
  -- A worker holds the export for one turn under a numbered claim; a turn whose lease passed was abandoned.
  claim          bigint NOT NULL DEFAULT 0,
  lease_until    timestamptz,
  turn_at        timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz,
  expires_at     timestamptz NOT NULL
);
CREATE INDEX segment_exports_company ON segment_exports (company_id, id DESC);
-- The runner's queue: only unfinished exports are looked for.
CREATE INDEX segment_exports_pending ON segment_exports (turn_at NULLS FIRST, id) WHERE status IN ('queued', 'running');
CREATE INDEX segment_exports_expiry ON segment_exports (expires_at);

-- The CSV in order, a chunk per turn (the first starts with the header line).
CREATE TABLE segment_export_chunks (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  export_id   bigint NOT NULL REFERENCES segment_exports ON DELETE CASCADE,
  seq         integer NOT NULL CHECK (seq > 0),
  content     text NOT NULL,
  PRIMARY KEY (export_id, seq)
);

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['segment_exports', 'segment_export_chunks'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform())) '
      'WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))', tenant_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO regulars_app', tenant_table);
  END LOOP;
END
$$;

GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regulars_app;
