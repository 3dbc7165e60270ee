-- Email templates (issue 15; docs/templates.md).
--
-- 1. `export_html` is the editor's design as MJML source text (it was an empty JSON placeholder: no call wrote
--    it before this migration, so a JSON string keeps its text and anything else becomes empty).
ALTER TABLE email_templates ALTER COLUMN export_html DROP DEFAULT;
ALTER TABLE email_templates ALTER COLUMN export_html TYPE text
  USING (CASE WHEN jsonb_typeof(export_html) = 'string' THEN export_html #>> '{}' ELSE '' END);
ALTER TABLE email_templates ALTER COLUMN export_html SET DEFAULT '';

-- 2. A name is unique in its company, whatever its case: "Welcome" and "welcome" side by side in the campaign
--    editor's picker could not be told apart. Older duplicates get their id appended first, across companies
--    (row-level security is forced, even for the owner these migrations run as).
SELECT set_config('app.platform', 'on', true);
UPDATE email_templates t SET name = t.name || ' (' || t.id || ')'
WHERE EXISTS (SELECT 1 FROM email_templates o
              WHERE o.company_id = t.company_id AND lower(o.name) = lower(t.name) AND o.id < t.id);
DROP INDEX email_templates_company;
CREATE UNIQUE INDEX email_templates_name ON email_templates (company_id, lower(name));

-- 3. Images uploaded for emails: kept per company and served without sign-in at an unguessable public id
--    (an email client fetches them), until the company deletes them or is deleted.
CREATE TABLE email_images (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  public_id     text NOT NULL UNIQUE CHECK (public_id ~ '^[A-Za-z0-9_-]{22}$'),
  content_type  text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')),
  byte_size     integer NOT NULL CHECK (byte_size > 0),
  bytes         bytea NOT NULL,
  created_by    bigint REFERENCES users ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_images_company ON email_images (company_id, id);
ALTER TABLE email_images ENABLE ROW LEVEL SECURITY;
ALTER TABLE email_images FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON email_images
  USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))
  WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()));
GRANT SELECT, INSERT, DELETE ON email_images TO regulars_app;
