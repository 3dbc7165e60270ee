-- Segment counts at a million guests (docs/segments.md, "Speed").
--
-- 1. The tenant policies read the tenant once per statement. Written as `company_id = app_company_id() OR
--    app_is_platform()`, PostgreSQL inlines the functions and reads two settings for every row it scans, which
--    made a scan of a million guests two and a half times slower than the same scan unguarded. Each call is now
--    a scalar subquery, worked out once per statement (an InitPlan), so a row costs one comparison. The rule for
--    new policies is in ARCHITECTURE.md ("Tenancy") and tests/db/tenancy.test.ts holds every policy to it.
DO $$
DECLARE
  policy record;
  wrapped_using text;
  wrapped_check text;
BEGIN
  FOR policy IN
    SELECT tablename, policyname, qual, with_check FROM pg_policies
    WHERE schemaname = 'public'
      AND (qual ~ 'app_(company_id|is_platform)\(\)' OR with_check ~ 'app_(company_id|is_platform)\(\)')
  LOOP
    wrapped_using := regexp_replace(policy.qual, 'app_(company_id|is_platform)\(\)', '(SELECT app_\1())', 'g');
    wrapped_check := regexp_replace(policy.with_check, 'app_(company_id|is_platform)\(\)', '(SELECT app_\1())', 'g');
    IF wrapped_using IS NOT NULL AND wrapped_check IS NOT NULL THEN
      EXECUTE format('ALTER POLICY %I ON %I USING (%s) WITH CHECK (%s)',
                     policy.policyname, policy.tablename, wrapped_using, wrapped_check);
    ELSIF wrapped_using IS NOT NULL THEN
      EXECUTE format('ALTER POLICY %I ON %I USING (%s)', policy.policyname, policy.tablename, wrapped_using);
    ELSE
      EXECUTE format('ALTER POLICY %I ON %I WITH CHECK (%s)', policy.policyname, policy.tablename, wrapped_check);
    END IF;
  END LOOP;
END $$;

-- 2. A window's check figures (visits or spend in the last N days at every location) read a range of this
--    index alone, instead of every check of the company through pos_checks_guest.
CREATE INDEX pos_checks_window ON pos_checks (company_id, closed_at) INCLUDE (guest_id, total_cents)
  WHERE guest_id IS NOT NULL;

-- 3. The marketable guests (linked to a subscribed subscriber), in guest order, from the index alone: the
--    marketable audience of every count, and the `marketable` rule.
CREATE INDEX subscribers_marketable ON subscribers (company_id, guest_id) WHERE guest_id IS NOT NULL AND subscribed;

-- 4. Guests by first visit ("new guests", the `first_visit` rule), a range instead of a scan.
CREATE INDEX guests_first_visit ON guests (company_id, first_visit_at);
