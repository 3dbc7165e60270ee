import { map } from 'rxjs';
import type { LocationFilter } from '../../machines/file-paging.machine.js';
import {
  rfmDashboardMachine,
  type RfmGuestsRequest,
  type RfmSegmentRequest,
} from '../../machines/rfm-dashboard.machine.js';
import { RfmDashboardSchema, RfmGuestsPageSchema } from '../../schemas/rfm.js';
import { SegmentSchema } from '../../schemas/segment-records.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** The RFM dashboard's calls: the grid and cells, a cell's guests, and saving a cell as a segment. */
export const rfmDashboardLogic = rfmDashboardMachine.provide({
  actors: {
    loadDashboard: apiCall((filter: LocationFilter) =>
      apiRequest({
        method: 'GET',
        path: '/benchmark/rfm-dashboard/',
        query: { location_id: filter.location_id, location_group_id: filter.location_group_id },
        schema: RfmDashboardSchema,
      }),
    ),
    loadGuests: apiCall(({ cell, filter, after }: RfmGuestsRequest) =>
      apiRequest({
        method: 'GET',
        path: '/benchmark/rfm-dashboard/guests/',
        query: {
          cell,
          after,
          location_id: filter.location_id,
          location_group_id: filter.location_group_id,
        },
        schema: RfmGuestsPageSchema,
      }),
    ),
    // The picked locations become the segment's own, so it keeps the guests the dashboard counted.
    saveSegment: apiCall(({ name, cell, filter }: RfmSegmentRequest) =>
      apiRequest({
        method: 'POST',
        path: '/campaigns/segments/',
        body: {
          name,
          location_ids: filter.location_id,
          group_ids: filter.location_group_id,
          segment_groups: [{ segment_rules: [{ type: 'rfm_cell', operator: 'in', value: [cell] }] }],
        },
        schema: SegmentSchema,
      }).pipe(map((segment) => ({ id: segment.id }))),
    ),
  },
});
