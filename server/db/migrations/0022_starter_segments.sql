-- Starter segments and the top-N-% spend rule (issue 14; docs/segments.md "Top N % by spend").

-- The threshold of "top N % by spend" is the k-th row of this index among the guests with a check: a read of
-- k entries instead of a sort of the company's guests.
CREATE INDEX guests_spend_rank ON guests (company_id, total_spend_cents DESC) WHERE visit_count > 0;
