-- Sending extras of issue 15 (docs/sending.md): suppressions matched by a hash of the address, so an erased
-- customer's address is never mailed again without being kept in clear; captured mail keeps its headers and
-- the run message it came from, for the in-app "Sent mail" viewer (headers as a list of {name, value}: jsonb
-- objects do not keep their keys' order).

-- SHA-256 of lower(email), written with every suppression. A `deleted` suppression keeps only the hash.
ALTER TABLE mail_suppressions ADD COLUMN email_hash bytea;
UPDATE mail_suppressions SET email_hash = sha256(convert_to(lower(email), 'UTF8'));
ALTER TABLE mail_suppressions ALTER COLUMN email_hash SET NOT NULL;
ALTER TABLE mail_suppressions ALTER COLUMN email DROP NOT NULL;
DROP INDEX mail_suppressions_address;
CREATE UNIQUE INDEX mail_suppressions_address ON mail_suppressions (company_id, email_hash);

ALTER TABLE captured_emails
  ADD COLUMN headers    jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN message_id text,
  ADD COLUMN run_id     bigint REFERENCES mail_runs ON DELETE SET NULL,
  ADD COLUMN outbox_id  bigint;
