-- Where staging of a job's stored file stopped, committed with each staged batch: the chunk (its seq), the
-- character in it that ended the last staged record, and that record's last line. Any worker's next turn reads
-- on from there instead of reading the file again from its first chunk. NULL before the first batch (and for
-- jobs staged before this migration, which skip their staged rows once).
ALTER TABLE import_jobs ADD COLUMN resume_chunk integer CHECK (resume_chunk > 0);
ALTER TABLE import_jobs ADD COLUMN resume_offset integer CHECK (resume_offset >= 0);
ALTER TABLE import_jobs ADD COLUMN resume_line integer CHECK (resume_line > 0);
