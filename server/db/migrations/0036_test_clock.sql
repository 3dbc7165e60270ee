-- The flow engine's test clock (docs/flows.md, "The test clock"): how far a test installation's time is ahead of
-- real time, in one row every process reads on each runner turn, so a POST /api/test/clock/ served by the API
-- process also moves the jobs of `npm run worker` processes. Installation-wide, not a company's: platform only.
CREATE TABLE test_clock (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  offset_ms bigint NOT NULL DEFAULT 0 CHECK (offset_ms >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE test_clock ENABLE ROW LEVEL SECURITY;
ALTER TABLE test_clock FORCE ROW LEVEL SECURITY;
CREATE POLICY platform_only ON test_clock USING ((SELECT app_is_platform())) WITH CHECK ((SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE ON test_clock TO regulars_app;
