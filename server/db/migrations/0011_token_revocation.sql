-- Grants whose access tokens are refused before they expire. A replayed authorization code revokes the grant
-- it was issued under (RFC 6749 §4.1.2); the provider's JWT access tokens are not stored, so the API checks
-- the token's grant id here on every Bearer request. A row is kept until no token of the grant can be alive.
CREATE TABLE revoked_grants (
  grant_id    text PRIMARY KEY,
  revoked_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX revoked_grants_expiry ON revoked_grants (expires_at);

ALTER TABLE revoked_grants ENABLE ROW LEVEL SECURITY;
ALTER TABLE revoked_grants FORCE ROW LEVEL SECURITY;
CREATE POLICY platform_only ON revoked_grants USING (app_is_platform()) WITH CHECK (app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON revoked_grants TO regulars_app;
