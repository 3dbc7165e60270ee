import { type EventObject, fromCallback } from 'xstate';
import {
  segmentDashboardMachine,
  type SegmentExportReport,
  type SegmentExportRequest,
} from '../../machines/segment-dashboard.machine.js';
import { SegmentDashboardV2Schema } from '../../schemas/segment-dashboard.js';
import { apiRequest } from '../../services/api-client.js';
import { exportSegmentCsv } from '../../services/segment-export.js';
import { apiCall } from './answer.js';

/** The segment dashboard panel's machine with its call and the streamed CSV export. */
export const segmentDashboardLogic = segmentDashboardMachine.provide({
  actors: {
    loadDashboard: apiCall(
      (input: { segmentId: number; filter: { location_id: number[]; location_group_id: number[] } }) =>
        apiRequest({
          method: 'GET',
          path: `/benchmark/segment-dashboardv2/${input.segmentId}/`,
          query: { location_id: input.filter.location_id, location_group_id: input.filter.location_group_id },
          schema: SegmentDashboardV2Schema,
        }),
    ),
    exportCsv: fromCallback<EventObject, SegmentExportRequest>(({ input, sendBack }) => {
      const report = (event: SegmentExportReport) => sendBack(event);
      const subscription = exportSegmentCsv(input.segmentId, input.fileName).subscribe({
        next: (progress) =>
          report(
            progress.type === 'progress'
              ? { type: 'export.progress', rows: progress.rows }
              : { type: 'export.saved', rows: progress.rows },
          ),
        error: (error: unknown) => report({ type: 'export.failed', error }),
      });
      // Stopping the actor (cancel, or the panel closing) aborts the download.
      return () => subscription.unsubscribe();
    }),
  },
});
