-- The flow engine (docs/flows.md, "The engine"): enrolments are durable rows (a subscriber in one published
-- version of a flow, at one step, due at one time), claimed by workers with FOR UPDATE SKIP LOCKED; each step a
-- person passes is one history row (node counts, the person's path, the frequency cap). Trigger events are
-- written to an inbox in the transaction of the change that caused them (a subscriber created, a list joined, a
-- check stored) and turned into enrolments by the same workers.

CREATE TABLE flow_events (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id         bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  kind               text NOT NULL CHECK (kind IN ('subscriber_created', 'list_joined', 'check', 'segment_entered')),
  -- Who: a subscriber, or a POS guest (a check) reached through the subscribers linked to it.
  subscriber_id      bigint,
  guest_id           bigint,
  list_id            bigint,
  segment_id         bigint,
  -- Where (the check's location; a subscriber's source location), for flows kept to locations or groups.
  location_id        bigint,
  -- A check: the guest's visit number and spend before and after it, worked out when it was stored.
  visit_number       integer,
  spend_before_cents bigint,
  spend_after_cents  bigint,
  occurred_at        timestamptz NOT NULL,
  processed_at       timestamptz,
  claimed_at         timestamptz,
  claimed_by         text
);
CREATE INDEX flow_events_pending ON flow_events (id) WHERE processed_at IS NULL;

CREATE TABLE flow_enrolments (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id       bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  flow_id          bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  flow_version_id  bigint NOT NULL REFERENCES flow_versions ON DELETE CASCADE,
  -- Null once the subscriber is erased: the engine then ends the enrolment as `deleted`.
  subscriber_id    bigint REFERENCES subscribers ON DELETE SET NULL,
  location_id      bigint REFERENCES locations ON DELETE SET NULL,
  -- The person's nth time in this flow (re-entry), so the same step of two entries is two steps.
  entry_no         integer NOT NULL CHECK (entry_no >= 1),
  status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'exited')),
  exit_reason      text CHECK (exit_reason IN ('completed', 'exit_step', 'unsubscribed', 'suppressed', 'deleted',
                                               'flow_deleted', 'out_of_scope')),
  -- The step to run (or being waited at) and when; null once the enrolment has ended.
  current_key      text,
  next_run_at      timestamptz,
  -- The history row of a step already begun (a delay being waited, an email held by quiet hours).
  open_step_id     bigint,
  -- The outbox row of the last email this enrolment sent (the opened/clicked conditions).
  last_outbox_id   bigint,
  entered_at       timestamptz NOT NULL,
  left_at          timestamptz,
  claimed_at       timestamptz,
  claimed_by       text,
  UNIQUE (flow_id, subscriber_id, entry_no),
  CHECK ((status = 'active') = (left_at IS NULL))
);
-- One active enrolment per person and flow, whatever two processes do at once.
CREATE UNIQUE INDEX flow_enrolments_active ON flow_enrolments (flow_id, subscriber_id) WHERE status = 'active';
-- The due scan: active rows by due time.
CREATE INDEX flow_enrolments_due ON flow_enrolments (next_run_at, id) WHERE status = 'active';
CREATE INDEX flow_enrolments_subscriber ON flow_enrolments (company_id, subscriber_id, id);
CREATE INDEX flow_enrolments_flow ON flow_enrolments (company_id, flow_id, status);

CREATE TABLE flow_enrolment_steps (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  enrolment_id   bigint NOT NULL REFERENCES flow_enrolments ON DELETE CASCADE,
  flow_id        bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  subscriber_id  bigint REFERENCES subscribers ON DELETE SET NULL,
  key            text NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('trigger', 'action', 'delay')),
  type           text NOT NULL,
  entered_at     timestamptz NOT NULL,
  done_at        timestamptz,
  -- sent, capped, suppressed, yes, no, waited, entered, done, failed …
  outcome        text,
  mail_run_id    bigint REFERENCES mail_runs ON DELETE SET NULL
);
CREATE INDEX flow_enrolment_steps_enrolment ON flow_enrolment_steps (enrolment_id, id);
CREATE INDEX flow_enrolment_steps_flow ON flow_enrolment_steps (company_id, flow_id, key);
-- The frequency cap: a person's flow emails of the last 7 days.
CREATE INDEX flow_enrolment_steps_sent ON flow_enrolment_steps (company_id, subscriber_id, entered_at)
  WHERE outcome = 'sent';

-- The frequency cap also counts campaign mail: a person's outbox rows.
CREATE INDEX mail_outbox_subscriber ON mail_outbox (company_id, subscriber_id);

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY['flow_events', 'flow_enrolments', 'flow_enrolment_steps'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform())) '
      'WITH CHECK (company_id = (SELECT app_company_id()) OR (SELECT app_is_platform()))', tenant_table);
  END LOOP;
END $$;
GRANT SELECT, INSERT, UPDATE, DELETE ON flow_events, flow_enrolments, flow_enrolment_steps TO regulars_app;
