-- Phones are stored in one form, E.164 (docs/decisions.md, "Phone numbers"): this rewrites the phones kept as
-- typed before, with the rules of the app's canonicalPhone (src/format/phone.ts) for what the spec's phone rule
-- lets in: a number written with its country code keeps '+' and its digits; ten digits are a US number; eleven
-- digits starting with 1 are a US number with its country code. Anything else stays as it was typed.
-- Every company's rows: the migration reads and writes as the platform (row-level security is forced).
SELECT set_config('app.platform', 'on', true);

WITH typed AS (
  SELECT id, phone, regexp_replace(phone, '[^0-9]', '', 'g') AS digits
  FROM subscribers
  WHERE phone <> ''
),
rewritten AS (
  SELECT id, CASE
      WHEN btrim(phone) LIKE '+%' THEN '+' || digits
      WHEN length(digits) = 10 THEN '+1' || digits
      WHEN length(digits) = 11 AND digits LIKE '1%' THEN '+' || digits
      ELSE phone
    END AS phone
  FROM typed
)
UPDATE subscribers AS s
SET phone = rewritten.phone
FROM rewritten
WHERE s.id = rewritten.id AND s.phone <> rewritten.phone;
