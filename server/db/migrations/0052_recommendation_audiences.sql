-- The home dashboard's recommendation audiences, counted once a day and kept (issue 17; docs/dashboards.md
-- "Recommendations"). Each audience is the size of a segment (its own locations and rules), counted by the segment
-- engine over every guest of the company: 0.4–0.9 s a call at 1M guests, and the call makes one such count each time
-- the dashboard opens. Kept per company, local day and segment, as the segment list keeps its figures: counted at the
-- first call of the day that needs it, read from here by the calls after it, and forgotten when a CSV import ends
-- and when the company's refresh runs (after many new checks, nightly: server/jobs/clv-runner.ts), so they are then
-- counted again. A day's rows are all the company's rows: a count of another day is deleted when one is stored.

SELECT set_config('app.platform', 'on', true);

CREATE TABLE recommendation_audiences (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  -- The company's local day the segment's rules were counted on (their days count back from it).
  counted_on  date NOT NULL,
  -- The segment counted: the SHA-256 (hex) of its own locations and rule groups as JSON (home-recommendations.ts,
  -- segmentKey), so a pick of many locations still makes a short key.
  segment_key text NOT NULL CHECK (length(segment_key) = 64),
  audience    integer NOT NULL CHECK (audience >= 0),
  counted_at  timestamptz NOT NULL,
  PRIMARY KEY (company_id, counted_on, segment_key)
);

ALTER TABLE recommendation_audiences ENABLE ROW LEVEL SECURITY;
ALTER TABLE recommendation_audiences FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON recommendation_audiences
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, UPDATE, DELETE ON recommendation_audiences TO regulars_app;
