-- The mail-run engine (docs/sending.md): a run is one send of frozen content to a frozen audience; its outbox
-- holds one row per recipient, claimed in batches by workers (FOR UPDATE SKIP LOCKED); suppressions are the
-- addresses a company must never mail again. The company's postal address goes in every footer.

ALTER TABLE companies ADD COLUMN postal_address text NOT NULL DEFAULT '';

-- The secret unsubscribe tokens are signed with: made once here, read by every process on the database.
CREATE TABLE mail_token_keys (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO mail_token_keys (secret)
  VALUES (replace(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
ALTER TABLE mail_token_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE mail_token_keys FORCE ROW LEVEL SECURITY;
CREATE POLICY platform_only ON mail_token_keys USING ((SELECT app_is_platform())) WITH CHECK ((SELECT app_is_platform()));
GRANT SELECT ON mail_token_keys TO regulars_app;

CREATE TABLE mail_runs (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id      bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  kind            text NOT NULL CHECK (kind IN ('campaign', 'flow', 'test')),
  -- The campaign or flow step the run belongs to (tables of later slices).
  source_id       bigint,
  -- Which run of the source this is (a scheduled instant, a flow step's day): created once, even by two processes.
  run_key         text NOT NULL CHECK (btrim(run_key) <> ''),
  from_address    text NOT NULL,
  subject         text NOT NULL,
  html_template   text NOT NULL,
  text_template   text NOT NULL,
  -- Frozen with the content, so what was sent stays knowable.
  postal_address  text NOT NULL,
  language        text NOT NULL,
  tracking        boolean NOT NULL DEFAULT true,
  status          text NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'paused', 'cancelled', 'sent')),
  recipients      integer NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  UNIQUE NULLS NOT DISTINCT (company_id, kind, source_id, run_key)
);
CREATE INDEX mail_runs_company ON mail_runs (company_id, id);

CREATE TABLE mail_outbox (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id           bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  run_id               bigint NOT NULL REFERENCES mail_runs ON DELETE CASCADE,
  subscriber_id        bigint NOT NULL,
  email                text NOT NULL,
  merge                jsonb NOT NULL DEFAULT '{}',
  status               text NOT NULL DEFAULT 'queued'
                         CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'suppressed', 'cancelled')),
  attempts             integer NOT NULL DEFAULT 0,
  next_attempt_at      timestamptz NOT NULL DEFAULT now(),
  claimed_at           timestamptz,
  claimed_by           text,
  message_id           text NOT NULL,
  provider_message_id  text,
  -- What kind of failure (an SMTP reply code or a connection code), never the server's text or the address.
  error_class          text,
  sent_at              timestamptz,
  UNIQUE (run_id, subscriber_id)
);
-- Workers look only at rows still to send.
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, id) WHERE status IN ('queued', 'sending');
CREATE INDEX mail_outbox_pending ON mail_outbox (run_id) WHERE status IN ('queued', 'sending');

CREATE TABLE mail_suppressions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  email       text NOT NULL,
  reason      text NOT NULL CHECK (reason IN ('unsubscribed', 'bounced', 'complained', 'deleted')),
  run_id      bigint REFERENCES mail_runs ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX mail_suppressions_address ON mail_suppressions (company_id, lower(email));

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['mail_runs', 'mail_outbox', 'mail_suppressions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform())) '
      'WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))', tenant_table);
  END LOOP;
END $$;
GRANT SELECT, INSERT, UPDATE, DELETE ON mail_runs, mail_outbox, mail_suppressions TO regulars_app;
