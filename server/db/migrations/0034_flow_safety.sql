-- Flow engine safety (docs/flows.md, "Failures" and docs/sending.md, "Speed").
-- A step or trigger event that fails is released by its own worker and retried later, further apart each time:
-- `failures` counts the failures in a row and `last_error` keeps the error's code only (an SQLSTATE or a name,
-- never a message, which may quote a person's data). An event's `retry_at` is on the engine's clock.
ALTER TABLE flow_enrolments ADD COLUMN failures integer NOT NULL DEFAULT 0, ADD COLUMN last_error text;
ALTER TABLE flow_events ADD COLUMN failures integer NOT NULL DEFAULT 0, ADD COLUMN last_error text,
  ADD COLUMN retry_at timestamptz;
-- The send claim picks its candidate rows from the sending runs first: with one run per flow email, the runs
-- still sending are a small part of every run ever made.
CREATE INDEX mail_runs_sending ON mail_runs (id) WHERE status = 'sending';
