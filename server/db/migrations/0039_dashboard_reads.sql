-- The home dashboard's emails sent (docs/dashboards.md, "Recommendations"): a range of the company's local days is
-- compared as two instants with `sent_at`, so the sent messages of a company are read by this index, not by
-- converting every message's time to a local day.
CREATE INDEX mail_outbox_company_sent ON mail_outbox (company_id, sent_at) WHERE status = 'sent';
