-- Starter segments and the top-N-% spend rule (issue 14; docs/segments.md "Starter segments", "Top N % by spend").

-- When the company was given its seven starter segments. The companies that exist now are left NULL: owed them,
-- given once by the start-up step (server/services/starter-segments.service.ts), which needs the owner's
-- language from the locale files and so cannot be SQL. A company created from now on is marked at once: sign-up
-- and the demo create its starters in the same transaction, and other paths (tests, the support company) want none.
ALTER TABLE companies ADD COLUMN starter_segments_at timestamptz;
ALTER TABLE companies ALTER COLUMN starter_segments_at SET DEFAULT now();

-- The threshold of "top N % by spend" is the k-th row of this index among the guests with a check: a read of
-- k entries instead of a sort of the company's guests.
CREATE INDEX guests_spend_rank ON guests (company_id, total_spend_cents DESC) WHERE visit_count > 0;

-- The support staff's own company is no restaurant: it is never given starter segments.
SELECT set_config('app.platform', 'on', true);
UPDATE companies SET starter_segments_at = now() WHERE slug = 'regulars-support' AND starter_segments_at IS NULL;
