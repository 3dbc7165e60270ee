-- Engagement on each message (docs/sending.md, "Tracking"): written by the open pixel and the click redirects,
-- read by campaign progress and summaries. An open that looks like a mail privacy proxy or a prefetch is kept
-- apart, so open rates count people. A campaign's content says whether its messages are tracked.

ALTER TABLE mail_outbox
  ADD COLUMN opened_at          timestamptz,
  ADD COLUMN machine_opened_at  timestamptz,
  ADD COLUMN open_count         integer NOT NULL DEFAULT 0,
  ADD COLUMN clicked_at         timestamptz,
  ADD COLUMN click_count        integer NOT NULL DEFAULT 0;

ALTER TABLE email_campaigns ADD COLUMN tracking boolean NOT NULL DEFAULT true;
