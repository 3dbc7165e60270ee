import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  guestAnalyticsDashboardMachine,
  guestAnalyticsIsEmpty,
} from '../../src/machines/guest-analytics-dashboard.machine.js';
import type { GuestAnalytics } from '../../src/schemas/guest-analytics-dashboard.js';
import {
  GUEST_DASHBOARD_INPUT,
  guestDashboardEvents,
  walkGuestDashboard,
} from './support/guest-dashboard-model.js';

const COHORT = {
  cohort: '2025-03',
  size: 2,
  months: [{ offset: 0, month: '2025-03', active: 2, retention: 1, revenue: 50, checks: 3 }],
};
const FULL: GuestAnalytics = {
  range: { from: '2025-03-01', to: '2025-03-31' },
  previous: null,
  totals: { guests: 3, new_guests: 2, returning_guests: 1, visits: 4 },
  previous_totals: null,
  period: 'day',
  new_vs_returning: [{ period: '2025-03-01', new_guests: 2, returning_guests: 1 }],
  visit_frequency: [{ visits: 1, guests: 3 }],
  cohorts: [COHORT],
};
const NO_GUESTS = { guests: 0, new_guests: 0, returning_guests: 0, visits: 0 };
const QUIET: GuestAnalytics = {
  ...FULL,
  totals: NO_GUESTS,
  new_vs_returning: [],
  visit_frequency: [],
  cohorts: [],
};

describe('guest analytics dashboard machine (model)', () => {
  const model = createTestModel(guestAnalyticsDashboardMachine, {
    events: guestDashboardEvents(FULL, QUIET),
    input: GUEST_DASHBOARD_INPUT,
  });
  walkGuestDashboard({ machine: guestAnalyticsDashboardMachine, full: FULL, quiet: QUIET }, model);

  it('has something to show while a cohort of the range has returns, even with no guest in it', () => {
    expect(guestAnalyticsIsEmpty({ ...QUIET, cohorts: [COHORT] })).toBe(false);
    expect(guestAnalyticsIsEmpty(QUIET)).toBe(true);
  });
});
