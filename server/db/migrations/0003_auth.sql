-- Sign-in: the embedded OpenID provider's storage, its signing keys, sign-in throttling,
-- token revocation on logout, and support impersonation sessions.

-- Keys that sign access tokens and ID tokens. Made on first start; the newest active key signs,
-- retired keys stay published in the JWKS until tokens they signed have expired.
CREATE TABLE signing_keys (
  kid          text PRIMARY KEY,
  private_jwk  jsonb NOT NULL,
  public_jwk   jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  retired_at   timestamptz
);

-- Secrets the provider signs its cookies with; made on first start like the keys.
CREATE TABLE oidc_cookie_keys (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Everything oidc-provider persists (sessions, interactions, grants, authorization codes, ...),
-- one row per model instance, as its adapter contract describes.
CREATE TABLE oidc_payloads (
  model        text NOT NULL,
  id           text NOT NULL,
  payload      jsonb NOT NULL,
  grant_id     text,
  user_code    text,
  uid          text,
  account_id   text,
  expires_at   timestamptz,
  consumed_at  timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oidc_payloads_grant ON oidc_payloads (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_payloads_uid ON oidc_payloads (uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_payloads_account ON oidc_payloads (account_id) WHERE account_id IS NOT NULL;
CREATE INDEX oidc_payloads_expiry ON oidc_payloads (expires_at);

-- Failed sign-in attempts, counted per account and per address to slow down guessing.
-- The key is a hash ("account:<sha>" or "address:<sha>"), never the email or address in clear.
CREATE TABLE sign_in_failures (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key        text NOT NULL,
  failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_failures_key ON sign_in_failures (key, failed_at DESC);

-- Logging out rejects every access token issued to the user before this moment.
ALTER TABLE users ADD COLUMN tokens_valid_after timestamptz;

-- Support staff acting as a company user. Every change made meanwhile is audited with both ids.
CREATE TABLE impersonations (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  staff_user_id  bigint NOT NULL REFERENCES users ON DELETE CASCADE,
  user_id        bigint NOT NULL REFERENCES users ON DELETE CASCADE,
  started_at     timestamptz NOT NULL DEFAULT now(),
  ended_at       timestamptz
);
CREATE INDEX impersonations_company ON impersonations (company_id, started_at DESC);
ALTER TABLE impersonations ENABLE ROW LEVEL SECURITY;
ALTER TABLE impersonations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON impersonations
  USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());

-- Platform tables hold no company data; only platform transactions should touch them, and
-- row-level security makes that so.
DO $$
DECLARE platform_table text;
BEGIN
  FOREACH platform_table IN ARRAY ARRAY['signing_keys', 'oidc_cookie_keys', 'oidc_payloads', 'sign_in_failures'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', platform_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', platform_table);
    EXECUTE format('CREATE POLICY platform_only ON %I USING (app_is_platform()) WITH CHECK (app_is_platform())',
      platform_table);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON signing_keys, oidc_cookie_keys, oidc_payloads, sign_in_failures,
  impersonations TO regulars_app;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regulars_app;
