import type { RawBuilder } from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { segmentMembersFragment } from '../repositories/segment-rules.repository.js';
import {
  advanceMemberSnapshot,
  dropMemberSnapshot,
  enteredSegmentOfFlow,
  hasMemberSnapshot,
  segmentWatched,
  takeMemberSnapshot,
} from '../repositories/segment-members.repository.js';
import { getSegment, type SegmentRow } from '../repositories/segments.repository.js';
import { ruleSetOf, segmentLocations } from './segment-input.js';

/**
 * Who enters a segment (docs/flows.md, "Entered a segment"): a member snapshot per segment a live flow starts on,
 * compared at every refresh of the segment's figures. The first snapshot (when a flow goes live, or the first
 * refresh after) raises nothing: only people who come to match later enter.
 */

/** The segment's member guests as a fragment over its own locations and groups; null when nobody can be in it. */
export async function membersOf(
  sql: Sql,
  companyId: CompanyId,
  row: SegmentRow,
): Promise<RawBuilder<{ id: number }> | null> {
  const locationIds = await segmentLocations(sql, companyId, row);
  if (locationIds !== null && locationIds.length === 0) return null;
  const ruleSet = ruleSetOf(row.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
  return segmentMembersFragment(sql, companyId, ruleSet, { locationIds });
}

/**
 * With a segment's refresh, in its transaction: raises a `segment_entered` event per new member when a live flow
 * watches the segment (the first snapshot raises none), forgets the snapshot when none does. Answers the entries.
 */
export async function refreshSegmentMembers(
  sql: Sql,
  companyId: CompanyId,
  row: SegmentRow,
): Promise<number> {
  if (!(await segmentWatched(sql, companyId, row.id))) {
    await dropMemberSnapshot(sql, companyId, row.id);
    return 0;
  }
  const members = await membersOf(sql, companyId, row);
  if (!(await hasMemberSnapshot(sql, companyId, row.id))) {
    await takeMemberSnapshot(sql, companyId, row.id, members);
    return 0;
  }
  return advanceMemberSnapshot(sql, companyId, row.id, members);
}

/**
 * When a flow goes live on "entered a segment": the segment's first snapshot, unless another live flow already
 * keeps one, so everyone in the segment at that moment counts as already in it.
 */
export async function startSegmentWatch(sql: Sql, companyId: CompanyId, flowId: number): Promise<void> {
  const segmentId = await enteredSegmentOfFlow(sql, companyId, flowId);
  if (segmentId === null || (await hasMemberSnapshot(sql, companyId, segmentId))) return;
  const row = await getSegment(sql, companyId, segmentId);
  if (row) await takeMemberSnapshot(sql, companyId, segmentId, await membersOf(sql, companyId, row));
}
