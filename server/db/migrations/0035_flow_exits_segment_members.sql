-- Flow exits and the entered-segment trigger (docs/flows.md, "Exits", "Deleting a flow", "Entered a segment").
--
-- Deleting a flow keeps its people's history: enrolments and step rows lose the link to the flow (and its versions)
-- instead of going with it, so the emails a deleted flow sent still count against the company's frequency cap.
ALTER TABLE flow_enrolments ALTER COLUMN flow_id DROP NOT NULL, ALTER COLUMN flow_version_id DROP NOT NULL;
ALTER TABLE flow_enrolments DROP CONSTRAINT flow_enrolments_flow_id_fkey,
  ADD CONSTRAINT flow_enrolments_flow_id_fkey FOREIGN KEY (flow_id) REFERENCES flows ON DELETE SET NULL;
ALTER TABLE flow_enrolments DROP CONSTRAINT flow_enrolments_flow_version_id_fkey,
  ADD CONSTRAINT flow_enrolments_flow_version_id_fkey FOREIGN KEY (flow_version_id) REFERENCES flow_versions
    ON DELETE SET NULL;
ALTER TABLE flow_enrolment_steps ALTER COLUMN flow_id DROP NOT NULL;
ALTER TABLE flow_enrolment_steps DROP CONSTRAINT flow_enrolment_steps_flow_id_fkey,
  ADD CONSTRAINT flow_enrolment_steps_flow_id_fkey FOREIGN KEY (flow_id) REFERENCES flows ON DELETE SET NULL;

-- The members (POS guests) a segment had at its last refresh, kept only while a live flow starts on entering it;
-- a refresh compares the new members with these and raises a segment_entered event for each new one.
CREATE TABLE segment_member_snapshots (
  segment_id  bigint PRIMARY KEY REFERENCES segments ON DELETE CASCADE,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  taken_at    timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE segment_members (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  segment_id  bigint NOT NULL REFERENCES segment_member_snapshots ON DELETE CASCADE,
  guest_id    bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  PRIMARY KEY (segment_id, guest_id)
);
CREATE INDEX segment_members_guest ON segment_members (guest_id);

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['segment_member_snapshots', 'segment_members'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform())) '
      'WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))', tenant_table);
  END LOOP;
END $$;
GRANT SELECT, INSERT, UPDATE, DELETE ON segment_member_snapshots, segment_members TO regulars_app;
