-- CSV imports of subscribers and guests: one job per uploaded file, its rows staged while the file streams
-- in, then merged batch by batch by the in-process job runner (server/jobs/). The job row is the queue.

CREATE TABLE import_jobs (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  kind           text NOT NULL CHECK (kind IN ('guest', 'subscriber')),
  status         text NOT NULL CHECK (status IN ('receiving', 'queued', 'running', 'done', 'failed')),
  file_name      text NOT NULL DEFAULT '',
  bytes          bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0),
  -- The file's header as written, so the rejected-rows download repeats the original columns.
  header         text[] NOT NULL DEFAULT '{}',
  -- Data rows staged (blank lines are not rows); fixed once the job leaves 'receiving'.
  read           integer NOT NULL DEFAULT 0 CHECK (read >= 0),
  -- Staged rows merged so far, in file order: the resume point after a restart.
  processed      integer NOT NULL DEFAULT 0 CHECK (processed >= 0 AND processed <= read),
  imported       integer NOT NULL DEFAULT 0,
  updated        integer NOT NULL DEFAULT 0,
  duplicates     integer NOT NULL DEFAULT 0,
  invalid        integer NOT NULL DEFAULT 0,
  failure        text,
  -- Who uploaded, for the audit entry written when the job finishes.
  user_id        bigint,
  actor_user_id  bigint,
  created_at     timestamptz NOT NULL DEFAULT now(),
  -- Moved by every staged or merged batch; a job whose heartbeat stops was abandoned by its process.
  heartbeat_at   timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);
CREATE INDEX import_jobs_company ON import_jobs (company_id, id DESC);
-- The runner's queue: only unfinished jobs are ever looked for.
CREATE INDEX import_jobs_pending ON import_jobs (id) WHERE status IN ('receiving', 'queued', 'running');

-- One data row of an uploaded file. `fields` holds the row's values checked and normalised in the kind's
-- column order (see server/imports/row-rules.ts); `raw` the row as written, for the rejected-rows download.
CREATE TABLE import_rows (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  job_id      bigint NOT NULL REFERENCES import_jobs ON DELETE CASCADE,
  seq         integer NOT NULL CHECK (seq > 0),  -- 1 for the first data row, in file order
  line        integer NOT NULL CHECK (line > 1), -- where the row starts in the file; the header is line 1
  -- Dedupe key: lower-cased trimmed email, or lower-cased name and card digits; NULL for an invalid row.
  key         text,
  fields      text[],
  raw         text[] NOT NULL,
  -- Rejected rows only: 'invalid' from the start, 'duplicate' once merging finds it repeats a row or a record.
  -- NULL for a row waiting (seq > the job's processed) or merged into subscribers or guests (seq <= processed).
  outcome     text CHECK (outcome IN ('duplicate', 'invalid')),
  -- Why a row was rejected: [{field, message}].
  problems    jsonb,
  PRIMARY KEY (job_id, seq)
);
-- Finds an earlier row of the same file with the same key (duplicates within the file).
CREATE INDEX import_rows_key ON import_rows (job_id, key, seq) WHERE key IS NOT NULL;
-- The rejected rows of a job, in file order, for the preview and the download.
CREATE INDEX import_rows_rejected ON import_rows (job_id, seq) WHERE outcome IN ('invalid', 'duplicate');

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['import_jobs', 'import_rows'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (company_id = app_company_id() OR app_is_platform()) '
      'WITH CHECK (company_id = app_company_id() OR app_is_platform())', tenant_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO regulars_app', tenant_table);
  END LOOP;
END
$$;

GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regulars_app;
