import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  demographicsDashboardMachine,
  demographicsIsEmpty,
} from '../../src/machines/demographics-dashboard.machine.js';
import { AGE_BANDS, type Demographics } from '../../src/schemas/demographics-dashboard.js';
import {
  GUEST_DASHBOARD_INPUT,
  guestDashboardEvents,
  walkGuestDashboard,
} from './support/guest-dashboard-model.js';

const NOBODY = { people: 0, guests_subscribed: 0, guests_only: 0, subscribers_only: 0 };
const QUIET: Demographics = {
  range: { from: '2025-03-01', to: '2025-03-31' },
  previous: null,
  share: NOBODY,
  previous_share: null,
  age_bands: AGE_BANDS.map((band) => ({ band, people: 0 })),
  no_birthday: 0,
  zips: [],
  other_zips: 0,
  no_zip: 0,
  distance: { same_zip: 0, elsewhere: 0, unknown: 0 },
};
// Only subscribers who joined, none with a birthday or zip: still people to show.
const FULL: Demographics = {
  ...QUIET,
  share: { ...NOBODY, people: 2, subscribers_only: 2 },
  no_birthday: 2,
  no_zip: 2,
  distance: { same_zip: 0, elsewhere: 0, unknown: 2 },
};

describe('demographics dashboard machine (model)', () => {
  const model = createTestModel(demographicsDashboardMachine, {
    events: guestDashboardEvents(FULL, QUIET),
    input: GUEST_DASHBOARD_INPUT,
  });
  walkGuestDashboard({ machine: demographicsDashboardMachine, full: FULL, quiet: QUIET }, model);

  it('is empty only when nobody came or joined', () => {
    expect(demographicsIsEmpty(FULL)).toBe(false);
    expect(demographicsIsEmpty(QUIET)).toBe(true);
  });
});
