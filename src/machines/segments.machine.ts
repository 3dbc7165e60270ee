import { LIMITS } from '../schemas/constants.js';
import { SegmentWriteSchema, type Segment, type SegmentWrite } from '../schemas/segment-records.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';
import type { ApiGroup } from './support/segment-draft.js';

/** The add and update dialog as typed; `segment_groups` is the rule builder's draft as the API takes it. */
export interface SegmentForm {
  name: string;
  description: string;
  location_ids: number[];
  group_ids: number[];
  segment_groups: ApiGroup[];
}

/** The add dialog's starting values: no rules yet (the builder starts one). */
export const NEW_SEGMENT_FORM: SegmentForm = {
  name: '',
  description: '',
  location_ids: [],
  group_ids: [],
  segment_groups: [],
};

/** A saved segment as the update dialog starts: its rules with their group ids, so groups keep them. */
export function segmentFormOf(segment: Segment): SegmentForm {
  return {
    name: segment.name,
    description: segment.description,
    location_ids: segment.location_ids,
    group_ids: segment.group_ids,
    segment_groups: segment.segment_groups.map((group) => ({
      id: group.id,
      segment_rules: group.segment_rules as unknown as ApiGroup['segment_rules'],
    })),
  };
}

/**
 * /segments (Guest - Segments): the company's segments (`/api/campaigns/segments/`) with their cached
 * figures, 25 to a page, searched by name, on the list kit: add and update dialogs checked with
 * SegmentWriteSchema (the rules themselves are checked by the server, which names each problem at its path),
 * a confirmed delete, and `item.open`, which announces the segment the screen selects (its dashboard). The list
 * reloads 3 s after a save, when the figures a save worked out have surely landed.
 */
export const segmentsMachine = createListMachine<Segment, SegmentForm, NoFilters, SegmentWrite, SegmentWrite>(
  {
    id: 'segments',
    pageSize: LIMITS.defaultPageSize,
    searchable: true,
    filters: {},
    form: {
      empty: NEW_SEGMENT_FORM,
      of: segmentFormOf,
      create: SegmentWriteSchema,
      update: SegmentWriteSchema,
    },
    openable: true,
  },
);
