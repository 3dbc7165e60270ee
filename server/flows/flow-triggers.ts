import type { CompanyId, Sql } from '../db/database.js';
import type { FlowTriggerSettings } from '../../src/schemas/flows.js';
import type { FlowEventRow } from '../repositories/flow-events.repository.js';
import {
  dateTriggerCandidates,
  enrol,
  isSubscribed,
  subscribersOfGuest,
  type LiveFlow,
} from '../repositories/flow-enrolments.repository.js';

/**
 * From trigger events to enrolments (docs/flows.md, "Triggers"): which live flows an event starts, for whom, at
 * which location, and when the person enters. Only `live` flows enrol, on their current published version.
 */

/** A check older than this (by the engine's clock) when the engine reads it is history: it enrols nobody. */
export const STALE_CHECK_MS = 48 * 3_600_000;

/** Whether an event fires a trigger (the date-based triggers fire from the daily pass, never from events). */
export function triggerMatches(trigger: FlowTriggerSettings, event: FlowEventRow): boolean {
  switch (trigger.type) {
    case 'new_subscriber':
      return event.kind === 'subscriber_created';
    case 'joined_list':
      return event.kind === 'list_joined' && event.list_id === trigger.list_id;
    case 'entered_segment':
      return event.kind === 'segment_entered' && event.segment_id === trigger.segment_id;
    case 'first_visit':
      return event.kind === 'check' && event.visit_number === 1;
    case 'nth_visit':
      return event.kind === 'check' && event.visit_number === trigger.visit_number;
    case 'visit_at_location':
      return event.kind === 'check' && event.location_id === trigger.location_id;
    case 'spend_passes':
      return (
        event.kind === 'check' &&
        event.spend_before_cents !== null &&
        event.spend_after_cents !== null &&
        event.spend_before_cents < trigger.amount_cents &&
        event.spend_after_cents >= trigger.amount_cents
      );
    case 'no_visit_for':
    case 'birthday':
    case 'first_visit_anniversary':
      return false;
  }
}

/** Whether a flow kept to locations takes a person at `locationId` (null: a flow for every location takes anyone). */
export function inScope(flow: Pick<LiveFlow, 'location_ids'>, locationId: number | null): boolean {
  return flow.location_ids === null || (locationId !== null && flow.location_ids.includes(locationId));
}

/**
 * Enrols the people an event concerns into every live flow whose trigger it fires and whose locations take it;
 * in the caller's transaction. A check enrols at its time (a stale one enrols nobody); other events at the earlier
 * of their time and the clock's. Returns the enrolments made.
 */
export async function enrolFromEvent(
  sql: Sql,
  companyId: CompanyId,
  event: FlowEventRow,
  flows: readonly LiveFlow[],
  now: Date,
): Promise<number> {
  if (event.kind === 'check' && now.getTime() - event.occurred_at.getTime() > STALE_CHECK_MS) return 0;
  const enteredAt = event.occurred_at.getTime() < now.getTime() ? event.occurred_at : now;
  const firing = flows.filter((flow) => {
    const trigger = flow.graph.find((item) => item.kind === 'trigger');
    return (
      trigger?.kind === 'trigger' &&
      triggerMatches(trigger.settings, event) &&
      inScope(flow, event.location_id)
    );
  });
  if (firing.length === 0) return 0;
  const people =
    event.subscriber_id !== null
      ? (await isSubscribed(sql, companyId, event.subscriber_id))
        ? [event.subscriber_id]
        : []
      : event.guest_id !== null
        ? await subscribersOfGuest(sql, companyId, event.guest_id)
        : [];
  let made = 0;
  for (const flow of firing) {
    const trigger = flow.graph.find((item) => item.kind === 'trigger')!;
    for (const subscriberId of people) {
      const id = await enrol(sql, companyId, {
        flowId: flow.flow_id,
        versionId: flow.version_id,
        subscriberId,
        locationId: event.location_id,
        enteredAt,
        trigger: { key: trigger.key, type: trigger.settings.type },
        firstKey: trigger.next_key,
        reentry: flow.reentry,
        reentryDays: flow.reentry_days,
      });
      if (id !== null) made += 1;
    }
  }
  return made;
}

/**
 * The daily pass for date-based triggers (birthday, first-visit anniversary, no visit for N days): enrols today's
 * people into the company's live flows with such a trigger, each at their location if the flow takes it. Safe to
 * run many times a day: the re-entry rule and the one-active-enrolment index refuse a second enrolment.
 */
export async function enrolDateTriggers(
  sql: Sql,
  companyId: CompanyId,
  flows: readonly LiveFlow[],
  now: Date,
): Promise<number> {
  let made = 0;
  for (const flow of flows) {
    const trigger = flow.graph.find((item) => item.kind === 'trigger');
    if (trigger?.kind !== 'trigger') continue;
    const settings = trigger.settings;
    if (
      settings.type !== 'birthday' &&
      settings.type !== 'first_visit_anniversary' &&
      settings.type !== 'no_visit_for'
    ) {
      continue;
    }
    for (const person of await dateTriggerCandidates(sql, companyId, settings, now)) {
      if (!inScope(flow, person.location_id)) continue;
      const id = await enrol(sql, companyId, {
        flowId: flow.flow_id,
        versionId: flow.version_id,
        subscriberId: person.subscriber_id,
        locationId: person.location_id,
        enteredAt: now,
        trigger: { key: trigger.key, type: settings.type },
        firstKey: trigger.next_key,
        reentry: flow.reentry,
        reentryDays: flow.reentry_days,
      });
      if (id !== null) made += 1;
    }
  }
  return made;
}
