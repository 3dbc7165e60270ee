-- Flows as the builder edits them and the engine runs them (docs/flows.md; src/schemas/flows.ts).
--
-- The first schema kept a flow as a numbered list of items pointing at trigger, action and delay rows; nothing
-- was ever written to them. A flow is a graph: one trigger, then actions and delays joined by `next_key` (and a
-- condition's `no_key`). Each node is one `flow_items` row (kind, type and settings together); the calls
-- triggers/, actions/ and delays/ name the item by its id and check its kind. Publishing copies the graph into
-- `flow_versions`; people in a flow finish on the version they entered, so a version never changes.
-- Row-level security is forced even for the owner these migrations run as, so the rewrite runs as platform.
SELECT set_config('app.platform', 'on', true);

DROP TABLE flow_items, flow_triggers, flow_actions, flow_delays;

ALTER TABLE flows DROP CONSTRAINT flows_status_check;
UPDATE flows SET status = 'live' WHERE status = 'active';
ALTER TABLE flows
  ADD CONSTRAINT flows_status_check CHECK (status IN ('draft', 'live', 'paused')),
  ADD COLUMN location_ids        bigint[] NOT NULL DEFAULT '{}',
  ADD COLUMN location_group_ids  bigint[] NOT NULL DEFAULT '{}',
  ADD COLUMN reentry             text NOT NULL DEFAULT 'once' CHECK (reentry IN ('once', 'after_days')),
  ADD COLUMN reentry_days        integer CHECK (reentry_days IS NULL OR reentry_days BETWEEN 1 AND 730),
  -- Bumped by every change to the draft graph: a save naming an older revision is a conflict.
  ADD COLUMN revision            integer NOT NULL DEFAULT 0,
  -- The live version (null before the first publish) and the draft revision it was published from.
  ADD COLUMN published_version   integer,
  ADD COLUMN published_revision  integer,
  ADD CONSTRAINT flows_reentry_days CHECK (reentry = 'once' OR reentry_days IS NOT NULL);

CREATE TABLE flow_items (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  flow_id     bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  -- Chosen by the builder, unique in the flow, kept in every version (enrolments point at keys).
  key         text NOT NULL CHECK (key ~ '^[A-Za-z0-9_-]{1,40}$'),
  kind        text NOT NULL CHECK (kind IN ('trigger', 'action', 'delay')),
  -- The settings' `type` (first_visit, send_email, wait …) with the rest of them, as src/schemas/flows.ts.
  settings    jsonb NOT NULL CHECK (settings ? 'type'),
  position_x  double precision NOT NULL DEFAULT 0,
  position_y  double precision NOT NULL DEFAULT 0,
  next_key    text,
  no_key      text,
  UNIQUE (flow_id, key)
);
CREATE INDEX flow_items_flow ON flow_items (company_id, flow_id, id);

CREATE TABLE flow_versions (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  flow_id       bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  version       integer NOT NULL CHECK (version >= 1),
  -- The graph as published: an array of src/schemas/flows.ts FlowGraphItem.
  graph         jsonb NOT NULL CHECK (jsonb_typeof(graph) = 'array'),
  published_at  timestamptz NOT NULL DEFAULT now(),
  published_by  bigint REFERENCES users ON DELETE SET NULL,
  UNIQUE (flow_id, version)
);
CREATE INDEX flow_versions_company ON flow_versions (company_id, flow_id, version);

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['flow_items', 'flow_versions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform())) '
      'WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))', tenant_table);
  END LOOP;
END $$;
GRANT SELECT, INSERT, UPDATE, DELETE ON flow_items, flow_versions TO regulars_app;
