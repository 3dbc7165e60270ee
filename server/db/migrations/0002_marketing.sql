-- Marketing, version 3: what the marketing repositories rely on beyond schema 0001.

-- "One default sender per company": the repository moves the mark in one transaction, and this index makes
-- sure no interleaving of two such transactions can ever leave two defaults.
CREATE UNIQUE INDEX email_senders_one_default ON email_senders (company_id) WHERE is_default;

-- The invoice list pages newest first per company.
CREATE INDEX invoices_company_issued ON invoices (company_id, issued_at DESC, id DESC);
