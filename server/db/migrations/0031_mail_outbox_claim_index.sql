-- The send runner's claim walks each sending run's due rows in order (docs/sending.md, "Speed"): one index per
-- run in claim order, so a claim reads only the rows it takes instead of sorting every row still to send (the
-- planner's estimates under row-level security made it sort the whole run on every claim). It also serves the
-- "anything left in this run?" check, so the two older partial indexes go: fewer indexes to update per message.
CREATE INDEX mail_outbox_run_due ON mail_outbox (run_id, next_attempt_at, id) WHERE status IN ('queued', 'sending');
DROP INDEX mail_outbox_due;
DROP INDEX mail_outbox_pending;
