import { createTestModel } from '@xstate/graph';
import { describe } from 'vitest';
import { overviewDashboardMachine } from '../../src/machines/overview-dashboard.machine.js';
import { SUMMARY_INPUT, summarySamples, walkSummaryModel } from './support/summary-fixtures.js';

describe('Overview dashboard machine (model)', () => {
  walkSummaryModel(
    overviewDashboardMachine,
    createTestModel(overviewDashboardMachine, { events: summarySamples, input: SUMMARY_INPUT }),
  );
});
