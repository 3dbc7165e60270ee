-- Predictive CLV per company (docs/clv.md): the company's horizon and discount rate, its latest fit, and each
-- guest's predicted figures from it. A fit replaces the company's predictions in one transaction.

ALTER TABLE companies ADD COLUMN clv_horizon_years numeric(4, 2) NOT NULL DEFAULT 3
  CHECK (clv_horizon_years > 0 AND clv_horizon_years <= 10);
ALTER TABLE companies ADD COLUMN clv_discount_rate numeric(5, 4) NOT NULL DEFAULT 0.10
  CHECK (clv_discount_rate >= 0 AND clv_discount_rate < 1);

-- 'model': BG/NBD and Gamma-Gamma fitted to the company's checks; 'historical': too few repeat guests for a
-- trustworthy fit, so each guest's last twelve months stand in for the next (the parameters are then NULL).
CREATE TABLE clv_fits (
  company_id        bigint PRIMARY KEY REFERENCES companies ON DELETE CASCADE,
  method            text NOT NULL CHECK (method IN ('model', 'historical')),
  calibration_end   date NOT NULL,
  guests            integer NOT NULL CHECK (guests >= 0),
  repeat_guests     integer NOT NULL CHECK (repeat_guests >= 0),
  r                 double precision,
  alpha             double precision,
  a                 double precision,
  b                 double precision,
  log_likelihood    double precision,
  p                 double precision,
  q                 double precision,
  gamma             double precision,
  horizon_years     numeric(4, 2) NOT NULL,
  discount_rate     numeric(5, 4) NOT NULL,
  fitted_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (method = 'historical' OR (r > 0 AND alpha > 0 AND a > 0 AND b > 0 AND p > 0 AND q > 0 AND gamma > 0))
);

CREATE TABLE guest_predictions (
  company_id                      bigint NOT NULL REFERENCES companies ON DELETE CASCADE,
  guest_id                        bigint NOT NULL REFERENCES guests ON DELETE CASCADE,
  -- NULL under the historical method, which cannot tell.
  probability_alive               real CHECK (probability_alive BETWEEN 0 AND 1),
  expected_visits_next_year       real NOT NULL CHECK (expected_visits_next_year >= 0),
  expected_spend_per_visit_cents  integer NOT NULL CHECK (expected_spend_per_visit_cents >= 0),
  annual_clv_cents                bigint NOT NULL CHECK (annual_clv_cents >= 0),
  clv_cents                       bigint NOT NULL CHECK (clv_cents >= 0),
  PRIMARY KEY (company_id, guest_id)
);
-- Deleting a guest cascades here by guest_id alone.
CREATE INDEX guest_predictions_guest ON guest_predictions (guest_id);

ALTER TABLE clv_fits ENABLE ROW LEVEL SECURITY;
ALTER TABLE clv_fits FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON clv_fits USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON clv_fits TO regulars_app;

ALTER TABLE guest_predictions ENABLE ROW LEVEL SECURITY;
ALTER TABLE guest_predictions FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON guest_predictions USING (company_id = app_company_id() OR app_is_platform())
  WITH CHECK (company_id = app_company_id() OR app_is_platform());
GRANT SELECT, INSERT, UPDATE, DELETE ON guest_predictions TO regulars_app;
