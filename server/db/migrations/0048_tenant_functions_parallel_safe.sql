-- Row-level security's tenant functions may run in parallel workers (issue 17's 1M-guest bench). Every tenant
-- policy calls app_company_id() and app_is_platform(), and both were PARALLEL UNSAFE by default, so no statement
-- of the application role could use a parallel plan: a heavy read (one item's guests over a year at 10M checks)
-- ran in one process where the owner's same statement used three. They only read settings, and PostgreSQL hands
-- a parallel worker the leader's settings (the `SET LOCAL` tenant included) and role, so the policies hold in the
-- workers as in the leader. PGlite has no parallel workers; nothing changes there.

ALTER FUNCTION app_company_id() PARALLEL SAFE;
ALTER FUNCTION app_is_platform() PARALLEL SAFE;
