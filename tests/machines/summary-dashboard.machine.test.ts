import { createTestModel } from '@xstate/graph';
import { describe } from 'vitest';
import { summaryDashboardMachine } from '../../src/machines/summary-dashboard.machine.js';
import { SUMMARY_INPUT, summarySamples, walkSummaryModel } from './support/summary-fixtures.js';

describe('Summary dashboard machine (model)', () => {
  walkSummaryModel(
    summaryDashboardMachine,
    createTestModel(summaryDashboardMachine, { events: summarySamples, input: SUMMARY_INPUT }),
  );
});
