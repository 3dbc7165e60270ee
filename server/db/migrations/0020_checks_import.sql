-- POS checks arrive through the CSV import pipeline too (one row per check line): a third import kind, and the
-- job's counts of whole checks (created, already stored, rejected) beside its counts of rows.
ALTER TABLE import_jobs DROP CONSTRAINT import_jobs_kind_check;
ALTER TABLE import_jobs ADD CONSTRAINT import_jobs_kind_check CHECK (kind IN ('guest', 'subscriber', 'checks'));
ALTER TABLE import_jobs ADD COLUMN checks_created integer NOT NULL DEFAULT 0;
ALTER TABLE import_jobs ADD COLUMN checks_unchanged integer NOT NULL DEFAULT 0;
ALTER TABLE import_jobs ADD COLUMN checks_rejected integer NOT NULL DEFAULT 0;
