import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  customerJourneyDashboardMachine,
  customerJourneyIsEmpty,
} from '../../src/machines/customer-journey-dashboard.machine.js';
import type { CustomerJourney } from '../../src/schemas/customer-journey.js';
import {
  GUEST_DASHBOARD_INPUT,
  guestDashboardEvents,
  walkGuestDashboard,
} from './support/guest-dashboard-model.js';

const NONE = {
  guests: 0,
  multi_location_guests: 0,
  multi_location_share: 0,
  new_guests: 0,
  returned_guests: 0,
  return_rate: 0,
};
const QUIET: CustomerJourney = {
  range: { from: '2025-03-01', to: '2025-03-31' },
  previous: null,
  company_locations: 2,
  locations: [],
  moves: [],
  gaps: [],
  totals: NONE,
  previous_totals: null,
};
// One returning guest, no new one: no journey to draw, but visits and their gaps to show.
const FULL: CustomerJourney = {
  ...QUIET,
  gaps: [
    {
      visit_number: 2,
      visits: 1,
      returned: 0,
      median_days: null,
      p25_days: null,
      p75_days: null,
      within_30: 0,
      within_60: 0,
      within_90: 0,
      buckets: [0, 0, 0, 0, 0, 0, 0],
      not_returned: 1,
    },
  ],
  totals: { ...NONE, guests: 1 },
};

describe('customer journey dashboard machine (model)', () => {
  const model = createTestModel(customerJourneyDashboardMachine, {
    events: guestDashboardEvents(FULL, QUIET),
    input: GUEST_DASHBOARD_INPUT,
  });
  walkGuestDashboard({ machine: customerJourneyDashboardMachine, full: FULL, quiet: QUIET }, model);

  it('is empty only when no guest came to the locations in the range', () => {
    expect(customerJourneyIsEmpty(FULL)).toBe(false);
    expect(customerJourneyIsEmpty(QUIET)).toBe(true);
  });
});
