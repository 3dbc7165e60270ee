-- Regulars schema, version 1: every entity of the product specification.
-- Conventions: ids are bigint identities; money is integer cents; times are timestamptz (UTC);
-- every tenant table carries company_id and is guarded by row-level security (see the end of the file).

-- The application role: neither owner nor superuser, so row-level security always applies to it.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'regulars_app') THEN
    CREATE ROLE regulars_app NOLOGIN;
  END IF;
END
$$;

-- The tenant of the current transaction, or NULL when none is set (then tenant tables show no rows).
CREATE FUNCTION app_company_id() RETURNS bigint LANGUAGE sql STABLE AS
$$ SELECT nullif(current_setting('app.company_id', true), '')::bigint $$;

-- True inside a platform transaction (sign-in lookups, seeding, staff tools).
CREATE FUNCTION app_is_platform() RETURNS boolean LANGUAGE sql STABLE AS
$$ SELECT coalesce(current_setting('app.platform', true), '') = 'on' $$;

-- ───────────────────────────── companies, users, access ─────────────────────────────

CREATE TABLE companies (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name        text NOT NULL CHECK (btrim(name) <> ''),
  slug        text NOT NULL UNIQUE,
  time_zone   text NOT NULL DEFAULT 'America/New_York',
  currency    text NOT NULL DEFAULT 'USD',
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- Features a company has bought; every page and API route belongs to one (spec section 6).
CREATE TABLE company_features (
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  feature     text NOT NULL,
  enabled_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, feature)
);

CREATE TABLE users (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  email          text NOT NULL CHECK (position('@' in email) > 1),
  username       text NOT NULL,
  first_name     text NOT NULL DEFAULT '',
  last_name      text NOT NULL DEFAULT '',
  password_hash  text,
  role           text NOT NULL CHECK (role IN ('owner', 'admin', 'marketer', 'analyst')),
  is_staff       boolean NOT NULL DEFAULT false,
  is_active      boolean NOT NULL DEFAULT true,
  verified_at    timestamptz,
  last_login_at  timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
-- One account per address across the installation: sign-in finds the company from the email.
CREATE UNIQUE INDEX users_email_unique ON users (lower(email));
CREATE INDEX users_company ON users (company_id, id);

-- Per-user preferences (spec: account info).
CREATE TABLE account_settings (
  user_id        bigint PRIMARY KEY REFERENCES users ON DELETE CASCADE,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  language       text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ch', 'es', 'jp', 'de', 'fr')),
  time_zone      text NOT NULL DEFAULT 'America/New_York',
  communication  jsonb NOT NULL DEFAULT '{"email": true, "sms": false, "phone": false}',
  verification   jsonb NOT NULL DEFAULT '{}',
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- API keys for machine access; only a hash is kept, the key is shown once.
CREATE TABLE company_tokens (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name          text NOT NULL CHECK (btrim(name) <> ''),
  key_prefix    text NOT NULL,
  key_hash      text NOT NULL UNIQUE,
  created_by    bigint REFERENCES users ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
CREATE INDEX company_tokens_company ON company_tokens (company_id, id);

-- ───────────────────────────── locations ─────────────────────────────

CREATE TABLE locations (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name        text NOT NULL CHECK (btrim(name) <> ''),
  street      text NOT NULL DEFAULT '',
  city        text NOT NULL DEFAULT '',
  state       text NOT NULL DEFAULT '',
  zip         text NOT NULL DEFAULT '' CHECK (zip = '' OR zip ~ '^[0-9]{5}$'),
  latitude    double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude   double precision CHECK (longitude BETWEEN -180 AND 180),
  time_zone   text NOT NULL DEFAULT 'America/New_York',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX locations_company_name ON locations (company_id, lower(name), id);

CREATE TABLE location_groups (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name         text NOT NULL CHECK (btrim(name) <> ''),
  description  text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX location_groups_company ON location_groups (company_id, lower(name), id);

CREATE TABLE location_group_members (
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  group_id     bigint NOT NULL REFERENCES location_groups ON DELETE CASCADE,
  location_id  bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  PRIMARY KEY (group_id, location_id)
);
CREATE INDEX location_group_members_location ON location_group_members (company_id, location_id);

-- ───────────────────────────── menu and POS ─────────────────────────────

CREATE TABLE menu_categories (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name        text NOT NULL CHECK (btrim(name) <> ''),
  UNIQUE (company_id, name)
);

CREATE TABLE menu_items (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  category_id  bigint NOT NULL REFERENCES menu_categories ON DELETE RESTRICT,
  location_id  bigint REFERENCES locations ON DELETE CASCADE, -- NULL: sold at every location
  name         text NOT NULL CHECK (btrim(name) <> ''),
  price_cents  integer NOT NULL CHECK (price_cents >= 0),
  is_active    boolean NOT NULL DEFAULT true
);
CREATE INDEX menu_items_company ON menu_items (company_id, location_id, category_id);

CREATE TABLE revenue_centers (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  location_id  bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  name         text NOT NULL CHECK (btrim(name) <> ''),
  UNIQUE (location_id, name)
);
CREATE INDEX revenue_centers_company ON revenue_centers (company_id, location_id);

-- A guest as the POS sees them: a name and the last four digits of a card.
CREATE TABLE guests (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  pos_id            text NOT NULL CHECK (btrim(pos_id) <> ''),
  hashid            text NOT NULL,
  customer_name     text NOT NULL DEFAULT '',
  last_four_digits  text NOT NULL DEFAULT '' CHECK (last_four_digits = '' OR last_four_digits ~ '^[0-9]{4}$'),
  first_location_id bigint REFERENCES locations ON DELETE SET NULL,
  -- Running totals kept with the checks so lists and segments stay fast at a million guests.
  visit_count       integer NOT NULL DEFAULT 0,
  total_spend_cents bigint NOT NULL DEFAULT 0,
  first_visit_at    timestamptz,
  last_visit_at     timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, hashid)
);
CREATE INDEX guests_identity ON guests (company_id, pos_id, hashid);
CREATE INDEX guests_dedupe ON guests (company_id, lower(customer_name), last_four_digits);
CREATE INDEX guests_page ON guests (company_id, id);
CREATE INDEX guests_last_visit ON guests (company_id, last_visit_at DESC);

CREATE TABLE pos_checks (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id         bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  location_id        bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  revenue_center_id  bigint REFERENCES revenue_centers ON DELETE SET NULL,
  guest_id           bigint REFERENCES guests ON DELETE SET NULL, -- unlinked when a guest is deleted
  check_number       text NOT NULL,
  opened_at          timestamptz NOT NULL,
  closed_at          timestamptz NOT NULL,
  guest_count        integer NOT NULL DEFAULT 1 CHECK (guest_count > 0),
  subtotal_cents     integer NOT NULL CHECK (subtotal_cents >= 0),
  discount_cents     integer NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
  tax_cents          integer NOT NULL DEFAULT 0 CHECK (tax_cents >= 0),
  tip_cents          integer NOT NULL DEFAULT 0 CHECK (tip_cents >= 0),
  total_cents        integer NOT NULL CHECK (total_cents >= 0),
  CHECK (closed_at >= opened_at)
);
CREATE INDEX pos_checks_location_time ON pos_checks (company_id, location_id, closed_at);
CREATE INDEX pos_checks_guest ON pos_checks (company_id, guest_id, closed_at) WHERE guest_id IS NOT NULL;

CREATE TABLE pos_check_lines (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  check_id          bigint NOT NULL REFERENCES pos_checks ON DELETE CASCADE,
  menu_item_id      bigint NOT NULL REFERENCES menu_items ON DELETE RESTRICT,
  quantity          integer NOT NULL CHECK (quantity > 0),
  unit_price_cents  integer NOT NULL CHECK (unit_price_cents >= 0),
  amount_cents      integer NOT NULL CHECK (amount_cents >= 0)
);
CREATE INDEX pos_check_lines_check ON pos_check_lines (company_id, check_id);
CREATE INDEX pos_check_lines_item ON pos_check_lines (company_id, menu_item_id);

-- ───────────────────────────── subscribers ─────────────────────────────

CREATE TABLE subscribers (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id          bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  email               text NOT NULL CHECK (email = btrim(email) AND position('@' in email) > 1),
  first_name          text NOT NULL DEFAULT '',
  last_name           text NOT NULL DEFAULT '',
  phone               text NOT NULL DEFAULT '',
  zip                 text NOT NULL DEFAULT '' CHECK (zip = '' OR zip ~ '^[0-9]{5}$'),
  birthday            date,
  subscribed          boolean NOT NULL DEFAULT true,
  pos_id              text,
  hashid              text NOT NULL,
  guest_id            bigint REFERENCES guests ON DELETE SET NULL, -- the matching POS guest, when known
  source_location_id  bigint REFERENCES locations ON DELETE SET NULL,
  consent_at          timestamptz,
  unsubscribed_at     timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, hashid)
);
-- One subscriber per address per company, whatever the case.
CREATE UNIQUE INDEX subscribers_email_unique ON subscribers (company_id, lower(email));
CREATE INDEX subscribers_page ON subscribers (company_id, id);
CREATE INDEX subscribers_location ON subscribers (company_id, source_location_id, id);
CREATE INDEX subscribers_identity ON subscribers (company_id, pos_id, hashid);
CREATE INDEX subscribers_guest ON subscribers (company_id, guest_id) WHERE guest_id IS NOT NULL;

CREATE TABLE subscriber_lists (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name        text NOT NULL CHECK (btrim(name) <> ''),
  created     timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriber_lists_company ON subscriber_lists (company_id, id);

CREATE TABLE subscriber_list_members (
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  list_id        bigint NOT NULL REFERENCES subscriber_lists ON DELETE CASCADE,
  subscriber_id  bigint NOT NULL REFERENCES subscribers ON DELETE CASCADE,
  added_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (list_id, subscriber_id)
);
CREATE INDEX subscriber_list_members_subscriber ON subscriber_list_members (company_id, subscriber_id);

-- A payment card linked to a profile, so POS checks paid with it are matched to the person.
CREATE TABLE profile_cards (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  subscriber_id     bigint REFERENCES subscribers ON DELETE CASCADE,
  guest_id          bigint REFERENCES guests ON DELETE CASCADE,
  card_brand        text NOT NULL DEFAULT '',
  name_on_card      text NOT NULL DEFAULT '',
  last_four_digits  text NOT NULL CHECK (last_four_digits ~ '^[0-9]{4}$'),
  created_by        bigint REFERENCES users ON DELETE SET NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(subscriber_id, guest_id) = 1)
);
CREATE INDEX profile_cards_subscriber ON profile_cards (company_id, subscriber_id);
CREATE INDEX profile_cards_guest ON profile_cards (company_id, guest_id);

CREATE TABLE notes (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  subscriber_id  bigint REFERENCES subscribers ON DELETE CASCADE,
  guest_id       bigint REFERENCES guests ON DELETE CASCADE,
  body           text NOT NULL CHECK (btrim(body) <> ''),
  author_id      bigint REFERENCES users ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(subscriber_id, guest_id) = 1)
);
CREATE INDEX notes_subscriber ON notes (company_id, subscriber_id, created_at DESC);
CREATE INDEX notes_guest ON notes (company_id, guest_id, created_at DESC);

-- What is left of a deleted guest or subscriber: no personal data, only that it happened.
CREATE TABLE deleted_customers (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  customer_type  text NOT NULL CHECK (customer_type IN ('guest', 'subscriber')),
  pos_id         text,
  original_id    bigint NOT NULL,
  deleted_by     bigint REFERENCES users ON DELETE SET NULL,
  deleted_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deleted_customers_lookup ON deleted_customers (company_id, customer_type, pos_id);

-- ───────────────────────────── segments ─────────────────────────────

CREATE TABLE segments (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name          text NOT NULL CHECK (btrim(name) <> ''),
  description   text NOT NULL DEFAULT '',
  segment_type  text NOT NULL DEFAULT 'custom',
  location_ids  bigint[] NOT NULL DEFAULT '{}',
  group_ids     bigint[] NOT NULL DEFAULT '{}',
  created_by    bigint REFERENCES users ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX segments_company ON segments (company_id, lower(name), id);

-- Rules inside a group are ANDed; groups of one segment are ORed.
CREATE TABLE segment_groups (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  segment_id     bigint NOT NULL REFERENCES segments ON DELETE CASCADE,
  position       integer NOT NULL DEFAULT 0,
  segment_rules  jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(segment_rules) = 'array')
);
CREATE INDEX segment_groups_segment ON segment_groups (company_id, segment_id, position);

-- Figures of a segment, recomputed by a job (spec: segmentcache).
CREATE TABLE segment_cache (
  id                         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id                 bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  segment_id                 bigint NOT NULL UNIQUE REFERENCES segments ON DELETE CASCADE,
  all_customers              integer NOT NULL DEFAULT 0,
  all_customers_pct          numeric(7, 4) NOT NULL DEFAULT 0,
  marketable_customers       integer NOT NULL DEFAULT 0,
  marketable_pct             numeric(7, 4) NOT NULL DEFAULT 0,
  trackable_customers        integer NOT NULL DEFAULT 0,
  trackable_pct              numeric(7, 4) NOT NULL DEFAULT 0,
  all_clv_cents              bigint NOT NULL DEFAULT 0,
  all_annual_clv_cents       bigint NOT NULL DEFAULT 0,
  all_clf                    numeric(12, 4) NOT NULL DEFAULT 0,
  all_recency                numeric(12, 4) NOT NULL DEFAULT 0,
  marketable_clv_cents       bigint NOT NULL DEFAULT 0,
  marketable_annual_clv_cents bigint NOT NULL DEFAULT 0,
  marketable_clf             numeric(12, 4) NOT NULL DEFAULT 0,
  marketable_recency         numeric(12, 4) NOT NULL DEFAULT 0,
  trackable_clv_cents        bigint NOT NULL DEFAULT 0,
  trackable_annual_clv_cents bigint NOT NULL DEFAULT 0,
  trackable_clf              numeric(12, 4) NOT NULL DEFAULT 0,
  trackable_recency          numeric(12, 4) NOT NULL DEFAULT 0,
  computed_at                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX segment_cache_company ON segment_cache (company_id, segment_id);

-- ───────────────────────────── email ─────────────────────────────

CREATE TABLE email_senders (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name         text NOT NULL CHECK (btrim(name) <> ''),
  email        text NOT NULL CHECK (position('@' in email) > 1),
  reply_to     text NOT NULL DEFAULT '',
  is_default   boolean NOT NULL DEFAULT false,
  verified_at  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX email_senders_email ON email_senders (company_id, lower(email));

-- An outside sending service; an entry counts only when api_key is non-empty (spec section 3).
CREATE TABLE email_providers (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  provider    text NOT NULL CHECK (btrim(provider) <> ''),
  api_key     text NOT NULL DEFAULT '',
  settings    jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, provider)
);

CREATE TABLE email_templates (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name          text NOT NULL CHECK (btrim(name) <> ''),
  export_html   jsonb NOT NULL DEFAULT '{}', -- the editor's design
  html_content  text NOT NULL DEFAULT '',
  text_content  text NOT NULL DEFAULT '',
  created_by    bigint REFERENCES users ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_templates_company ON email_templates (company_id, lower(name), id);

-- ───────────────────────────── campaigns ─────────────────────────────

CREATE TABLE campaigns (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name           text NOT NULL CHECK (btrim(name) <> ''),
  kind           text NOT NULL DEFAULT 'email' CHECK (kind IN ('email', 'other')),
  status         text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'scheduled', 'sending', 'sent', 'paused', 'cancelled')),
  segment_id     bigint REFERENCES segments ON DELETE SET NULL,
  start          timestamptz,
  "end"          timestamptz,
  repeat_on      text NOT NULL DEFAULT '',
  categories     jsonb NOT NULL DEFAULT '[]',
  selected_days  jsonb NOT NULL DEFAULT '[]',
  schedules      jsonb NOT NULL DEFAULT '[]',
  sent_at        timestamptz,
  created_by     bigint REFERENCES users ON DELETE SET NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  CHECK ("end" IS NULL OR start IS NULL OR "end" >= start)
);
CREATE INDEX campaigns_company ON campaigns (company_id, created_at DESC, id);

CREATE TABLE email_campaigns (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  campaign_id   bigint NOT NULL UNIQUE REFERENCES campaigns ON DELETE CASCADE,
  template_id   bigint REFERENCES email_templates ON DELETE SET NULL,
  sender_id     bigint REFERENCES email_senders ON DELETE SET NULL,
  subject       text NOT NULL DEFAULT '',
  preheader     text NOT NULL DEFAULT '',
  html_content  text NOT NULL DEFAULT '',
  text_content  text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_campaigns_company ON email_campaigns (company_id, campaign_id);

-- Every message handed to SMTP (or captured when no SMTP is set), one row per recipient.
CREATE TABLE email_messages (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id     bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  campaign_id    bigint REFERENCES campaigns ON DELETE SET NULL,
  flow_id        bigint,
  subscriber_id  bigint REFERENCES subscribers ON DELETE SET NULL,
  to_address     text NOT NULL,
  subject        text NOT NULL DEFAULT '',
  status         text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'captured', 'failed', 'cancelled')),
  error          text,
  queued_at      timestamptz NOT NULL DEFAULT now(),
  sent_at        timestamptz,
  opened_at      timestamptz,
  clicked_at     timestamptz
);
CREATE INDEX email_messages_campaign ON email_messages (company_id, campaign_id, status);
CREATE INDEX email_messages_subscriber ON email_messages (company_id, subscriber_id);

-- Campaigns run outside email (in-store offers), measured against control stores.
CREATE TABLE other_campaign_configurations (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id       bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  campaign_id      bigint REFERENCES campaigns ON DELETE CASCADE,
  name             text NOT NULL DEFAULT '',
  locations        bigint[] NOT NULL DEFAULT '{}',
  location_groups  bigint[] NOT NULL DEFAULT '{}',
  settings         jsonb NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX other_campaign_configurations_company ON other_campaign_configurations (company_id, id);

CREATE TABLE other_campaign_control_stores (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  configuration_id  bigint NOT NULL REFERENCES other_campaign_configurations ON DELETE CASCADE,
  location_id       bigint NOT NULL REFERENCES locations ON DELETE CASCADE,
  is_control        boolean NOT NULL DEFAULT true,
  UNIQUE (configuration_id, location_id)
);
CREATE INDEX other_campaign_control_stores_company ON other_campaign_control_stores (company_id, configuration_id);

-- ───────────────────────────── flows ─────────────────────────────

CREATE TABLE flows (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  name        text NOT NULL CHECK (btrim(name) <> ''),
  status      text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'paused')),
  created_by  bigint REFERENCES users ON DELETE SET NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX flows_company ON flows (company_id, id);

CREATE TABLE flow_triggers (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  flow_id     bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  kind        text NOT NULL CHECK (btrim(kind) <> ''),
  config      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX flow_triggers_flow ON flow_triggers (company_id, flow_id);

CREATE TABLE flow_actions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  flow_id     bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  kind        text NOT NULL CHECK (btrim(kind) <> ''),
  config      jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX flow_actions_flow ON flow_actions (company_id, flow_id);

CREATE TABLE flow_delays (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id        bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  flow_id           bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  duration_seconds  integer NOT NULL CHECK (duration_seconds >= 0)
);
CREATE INDEX flow_delays_flow ON flow_delays (company_id, flow_id);

-- The steps of a flow in order; each points at one trigger, action or delay.
CREATE TABLE flow_items (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  flow_id     bigint NOT NULL REFERENCES flows ON DELETE CASCADE,
  position    integer NOT NULL CHECK (position >= 0),
  trigger_id  bigint REFERENCES flow_triggers ON DELETE CASCADE,
  action_id   bigint REFERENCES flow_actions ON DELETE CASCADE,
  delay_id    bigint REFERENCES flow_delays ON DELETE CASCADE,
  CHECK (num_nonnulls(trigger_id, action_id, delay_id) = 1),
  UNIQUE (flow_id, position) DEFERRABLE INITIALLY IMMEDIATE
);
CREATE INDEX flow_items_company ON flow_items (company_id, flow_id, position);

-- ───────────────────────────── billing, market ─────────────────────────────

CREATE TABLE invoices (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id    bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  number        text NOT NULL,
  period_start  date NOT NULL,
  period_end    date NOT NULL,
  amount_cents  bigint NOT NULL CHECK (amount_cents >= 0),
  currency      text NOT NULL DEFAULT 'USD',
  status        text NOT NULL DEFAULT 'open' CHECK (status IN ('draft', 'open', 'paid', 'void')),
  lines         jsonb NOT NULL DEFAULT '[]',
  issued_at     timestamptz NOT NULL DEFAULT now(),
  paid_at       timestamptz,
  UNIQUE (company_id, number),
  CHECK (period_end >= period_start)
);

-- Nearby businesses drawn on the competitor-set map.
CREATE TABLE competitors (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id   bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  location_id  bigint REFERENCES locations ON DELETE CASCADE, -- the location whose set it belongs to
  name         text NOT NULL CHECK (btrim(name) <> ''),
  category     text NOT NULL DEFAULT '',
  latitude     double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude    double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  price_level  smallint CHECK (price_level BETWEEN 1 AND 4),
  rating       numeric(2, 1) CHECK (rating BETWEEN 0 AND 5)
);
CREATE INDEX competitors_location ON competitors (company_id, location_id);

-- ───────────────────────────── audit ─────────────────────────────

-- Append-only record of every change; personal values are hashed before they are written.
CREATE TABLE audit_log (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id      bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  user_id         bigint,  -- who is shown as acting
  actor_user_id   bigint,  -- who really acted (differs during impersonation)
  action          text NOT NULL CHECK (action IN ('create', 'update', 'delete')),
  entity          text NOT NULL,
  entity_id       text,
  before          jsonb,
  after           jsonb,
  at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_company ON audit_log (company_id, at DESC);
CREATE INDEX audit_log_entity ON audit_log (company_id, entity, entity_id);

CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();

-- ───────────────────────────── row-level security ─────────────────────────────

GRANT USAGE ON SCHEMA public TO regulars_app;
GRANT EXECUTE ON FUNCTION app_company_id(), app_is_platform() TO regulars_app;

DO $$
DECLARE
  tenant_table text;
BEGIN
  FOREACH tenant_table IN ARRAY ARRAY[
    'company_features', 'users', 'account_settings', 'company_tokens',
    'locations', 'location_groups', 'location_group_members',
    'menu_categories', 'menu_items', 'revenue_centers', 'guests', 'pos_checks', 'pos_check_lines',
    'subscribers', 'subscriber_lists', 'subscriber_list_members', 'profile_cards', 'notes',
    'deleted_customers', 'segments', 'segment_groups', 'segment_cache',
    'email_senders', 'email_providers', 'email_templates', 'campaigns', 'email_campaigns', 'email_messages',
    'other_campaign_configurations', 'other_campaign_control_stores',
    'flows', 'flow_triggers', 'flow_actions', 'flow_delays', 'flow_items',
    'invoices', 'competitors', 'audit_log'
  ] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', tenant_table);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (company_id = app_company_id() OR app_is_platform()) '
      'WITH CHECK (company_id = app_company_id() OR app_is_platform())', tenant_table);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO regulars_app', tenant_table);
  END LOOP;
END
$$;

-- A company sees its own row; the platform sees all.
ALTER TABLE companies ENABLE ROW LEVEL SECURITY;
ALTER TABLE companies FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON companies
  USING (id = app_company_id() OR app_is_platform())
  WITH CHECK (app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON companies TO regulars_app;

-- The audit log only grows.
REVOKE UPDATE, DELETE ON audit_log FROM regulars_app;

GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regulars_app;
