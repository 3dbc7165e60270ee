-- A location group's distinct-guest rows are filled in the background after its members change (issue 17): the
-- fill reads every guest-day of the group's locations, seconds to minutes at a million guests, too long for the
-- request that saves the group. Until the worker has filled them, the dashboards count the group's guests from the
-- guest-day rows (exact, slower). The rows of every existing group were filled by migration 0042.

SELECT set_config('app.platform', 'on', true);

ALTER TABLE location_groups ADD COLUMN presence_ready boolean NOT NULL DEFAULT true;

-- The worker's queue: the few groups waiting for their rows.
CREATE INDEX location_groups_presence_waiting ON location_groups (id) WHERE NOT presence_ready;
