-- CSV uploads are stored as they arrive and parsed by the job workers, so the upload answers at once whatever
-- the file's size, and any process on the database (an API replica or `npm run worker`) can read the file.

-- The uploaded file in order, a chunk per row, as the UTF-8 text it was checked to be (text passes through both
-- drivers far faster than bytea); removed once every row is staged.
CREATE TABLE import_file_chunks (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  job_id      bigint NOT NULL REFERENCES import_jobs ON DELETE CASCADE,
  seq         integer NOT NULL CHECK (seq > 0),
  content     text NOT NULL,
  PRIMARY KEY (job_id, seq)
);

-- Data rows checked and staged into import_rows so far (parsing resumes after them); `read` is counted at upload.
ALTER TABLE import_jobs ADD COLUMN staged integer NOT NULL DEFAULT 0 CHECK (staged >= 0);
-- When the job last had a turn: workers take the job waiting longest, so companies' files take turns.
ALTER TABLE import_jobs ADD COLUMN turn_at timestamptz;
-- A worker holds the job for one turn (a batch staged or merged); between turns a running job is free to take.
ALTER TABLE import_jobs ADD COLUMN claimed boolean NOT NULL DEFAULT false;
UPDATE import_jobs SET claimed = true WHERE status = 'running';
-- Jobs queued before this migration were staged whole at upload.
UPDATE import_jobs SET staged = read WHERE status IN ('queued', 'running');

ALTER TABLE import_file_chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE import_file_chunks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON import_file_chunks USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON import_file_chunks TO regulars_app;
