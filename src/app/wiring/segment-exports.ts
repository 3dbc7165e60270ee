import { fromPromise } from 'xstate';
import { segmentExportsMachine, type ExportDownloadRequest } from '../../machines/segment-exports.machine.js';
import {
  downloadSegmentExport,
  listSegmentExports,
  startSegmentExport,
} from '../../services/segment-exports.js';
import { apiCall } from './answer.js';

/** The background exports of /segments with their calls (src/services/segment-exports.ts). */
export const segmentExportsLogic = segmentExportsMachine.provide({
  actors: {
    loadExports: apiCall(() => listSegmentExports()),
    startExport: apiCall((segmentId: number) => startSegmentExport(segmentId)),
    downloadExport: fromPromise<unknown, ExportDownloadRequest>(({ input, signal }) =>
      downloadSegmentExport(input.id, input.fileName, signal),
    ),
  },
});
