-- Campaigns as the campaign screens save them (docs/campaigns.md; src/schemas/campaigns.ts).
--
-- 1. Who: the audience is segments ∪ subscriber lists, optionally kept to locations or location groups. Ids are
--    kept as arrays, as a segment keeps its own locations; every id is checked against the company on write and
--    again on send. The single `segment_id` of the first schema becomes `segment_ids`.
-- 2. When: `start` and `end` are days in the company's time zone (they were instants no call wrote); the old
--    instants become the company's local days. `repeat_on` is one of once, daily, weekly, monthly ('' → once).
--    `next_run_at` is the next instant the scheduler creates a run for (null: nothing due).
-- Row-level security is forced even for the owner these migrations run as, so the rewrite runs as platform.
SELECT set_config('app.platform', 'on', true);

ALTER TABLE campaigns
  ADD COLUMN segment_ids         bigint[] NOT NULL DEFAULT '{}',
  ADD COLUMN list_ids            bigint[] NOT NULL DEFAULT '{}',
  ADD COLUMN location_ids        bigint[] NOT NULL DEFAULT '{}',
  ADD COLUMN location_group_ids  bigint[] NOT NULL DEFAULT '{}',
  ADD COLUMN start_day           date,
  ADD COLUMN end_day             date,
  ADD COLUMN next_run_at         timestamptz;

UPDATE campaigns c
SET segment_ids = CASE WHEN c.segment_id IS NULL THEN '{}'::bigint[] ELSE ARRAY[c.segment_id] END,
    start_day = (c.start AT TIME ZONE co.time_zone)::date,
    end_day = (c."end" AT TIME ZONE co.time_zone)::date,
    repeat_on = CASE WHEN c.repeat_on IN ('once', 'daily', 'weekly', 'monthly') THEN c.repeat_on ELSE 'once' END
FROM companies co
WHERE co.id = c.company_id;

-- Dropping the instants drops the first schema's check on them; the days get their own.
ALTER TABLE campaigns DROP COLUMN segment_id, DROP COLUMN start, DROP COLUMN "end";
ALTER TABLE campaigns RENAME COLUMN start_day TO start;
ALTER TABLE campaigns RENAME COLUMN end_day TO "end";
ALTER TABLE campaigns ADD CONSTRAINT campaigns_period CHECK ("end" IS NULL OR start IS NULL OR "end" >= start);
ALTER TABLE campaigns ALTER COLUMN repeat_on SET DEFAULT 'once';
ALTER TABLE campaigns ADD CONSTRAINT campaigns_repeat_on CHECK (repeat_on IN ('once', 'daily', 'weekly', 'monthly'));

-- The scheduler's look-up: scheduled campaigns by the instant they are due.
CREATE INDEX campaigns_due ON campaigns (next_run_at) WHERE status = 'scheduled' AND next_run_at IS NOT NULL;
-- A campaign's runs (progress, summaries).
CREATE INDEX mail_runs_source ON mail_runs (company_id, kind, source_id, id);
-- Unsubscribes a run caused (progress).
CREATE INDEX mail_suppressions_run ON mail_suppressions (run_id) WHERE run_id IS NOT NULL;
