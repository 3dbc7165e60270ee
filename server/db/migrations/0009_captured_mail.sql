-- The first mail path. With no SMTP_URL set, every outgoing message is kept here instead of sent, and the
-- app shows it to the company that sent it (so a sender can be verified on a machine with no mail server).
CREATE TABLE captured_emails (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  from_address text NOT NULL,
  to_address   text NOT NULL,
  subject      text NOT NULL,
  text_body    text NOT NULL,
  html_body    text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX captured_emails_company_created ON captured_emails (company_id, created_at DESC, id DESC);

-- A link sent to a sender's address proves the company reads that mailbox. Only the token's SHA-256 is kept;
-- the address it was sent to is kept too, so a link sent before the sender's address changed verifies nothing.
CREATE TABLE email_sender_verifications (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  sender_id    bigint NOT NULL REFERENCES email_senders ON DELETE CASCADE,
  email        text NOT NULL,
  token_hash   text NOT NULL UNIQUE,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_sender_verifications_sender ON email_sender_verifications (company_id, sender_id);

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['captured_emails', 'email_sender_verifications'] LOOP
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
