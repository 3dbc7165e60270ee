import type { CompanyId, Sql } from '../db/database.js';
import {
  FLOW_SENDING_DEFAULTS,
  type FlowActionSettings,
  type FlowGraphItem,
} from '../../src/schemas/flows.js';
import { unknownMergeTags } from '../../src/schemas/email-templates.js';
import {
  closeStep,
  lockSubscribersOf,
  marketingEmailsBetween,
  moveEnrolment,
  openStep,
  outboxEngagement,
  subscriberInSegments,
  visitedBetween,
  type EnrolmentMove,
  type EnrolmentState,
} from '../repositories/flow-enrolments.repository.js';
import { addListMembers, removeListMembers } from '../repositories/subscriber-lists.repository.js';
import { updateSubscriber } from '../repositories/subscribers.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { audienceSelectionOf, fromAddress, withPreheader } from '../services/campaign-content.js';
import { freezeSubscriberRun } from '../repositories/mail-runs.repository.js';
import { getEmailSender, getEmailTemplate, listEmailSenders, runIdentity } from './step-lookups.js';
import { delayEnd, quietHoursEnd } from './timing.js';

/**
 * One enrolment's steps (docs/flows.md, "Steps"), run inside the tenant transaction that holds the enrolment's row
 * lock: the history rows, the email's mail run, list and field changes and the enrolment's new position commit
 * together or not at all, so a crash or a second process can neither skip nor repeat a step. Webhooks and staff
 * notes leave the process, so they are returned as effects and done after the commit (at most once).
 */

/** What the steps need besides the database. */
export interface StepContext {
  /** The engine clock's time when the enrolment was taken up. */
  now: Date;
  /** The installation's host, for Message-IDs. */
  domain: string;
  frequencyCap: number;
  /**
   * The transaction already holds the subscriber locks of every enrolment it runs (the runner's chunk locks
   * them first, lowest id first); unset, each email step locks its person itself (the demo seed).
   */
  subscribersLocked?: boolean;
}

/** Work outside the database that a committed step asked for. */
export type StepEffect =
  | { kind: 'webhook'; url: string; body: object; idempotencyKey: string }
  | { kind: 'notify_staff'; emails: string[]; subject: string; text: string };

/** Steps one claim may run before it lets others have a turn (a flow without delays would never stop). */
const MAX_STEPS_PER_TURN = 50;
const WEEK_MS = 7 * 86_400_000;

const typeOf = (item: FlowGraphItem) => item.settings.type;

/**
 * Runs the enrolment from its current step until it waits (a delay, quiet hours), leaves the flow, or has taken
 * its turn's steps; writes where it is now and releases the claim. Answers the effects to do after the commit.
 */
export async function runEnrolmentSteps(
  sql: Sql,
  companyId: CompanyId,
  state: EnrolmentState,
  context: StepContext,
): Promise<StepEffect[]> {
  const scope: WriteScope = { companyId, userId: null, actorUserId: null };
  const byKey = new Map(state.graph.map((item) => [item.key, item]));
  const effects: StepEffect[] = [];
  const at = state.next_run_at;
  let key: string | null = state.current_key;
  let open = state.open_step_id;
  let lastOutbox = state.last_outbox_id;
  const move = (fields: Partial<EnrolmentMove>) =>
    moveEnrolment(sql, companyId, state.id, {
      current_key: key,
      next_run_at: null,
      open_step_id: null,
      last_outbox_id: lastOutbox,
      status: 'active',
      exit_reason: null,
      left_at: null,
      ...fields,
    });
  const leave = async (status: 'completed' | 'exited', reason: string) => {
    if (open !== null) await closeStep(sql, companyId, open, at, reason);
    await move({ status, exit_reason: reason, left_at: at });
    return effects;
  };

  // People who unsubscribed, were suppressed or erased since their last step leave before anything runs.
  if (state.subscriber_id === null) return leave('exited', 'deleted');
  if (!state.subscribed) return leave('exited', 'unsubscribed');
  if (state.suppressed) return leave('exited', 'suppressed');
  const subscriberId = state.subscriber_id;

  for (let steps = 0; steps < MAX_STEPS_PER_TURN; steps += 1) {
    const item: FlowGraphItem | undefined = key === null ? undefined : byKey.get(key);
    if (item === undefined || item.kind === 'trigger') return leave('completed', 'completed');

    if (item.kind === 'delay') {
      if (open !== null) {
        await closeStep(sql, companyId, open, at, 'waited');
        open = null;
        key = item.next_key;
        continue;
      }
      const stepId = await openStep(sql, companyId, state, { ...item, type: typeOf(item) }, at);
      await move({ next_run_at: delayEnd(item.settings, at, state.time_zone), open_step_id: stepId });
      return effects;
    }

    const settings = item.settings;
    if (settings.type === 'send_email' && open === null) {
      // Quiet hours are read at the later of the due time and now: a late worker does not mail at night.
      const later = at.getTime() > context.now.getTime() ? at : context.now;
      const quietEnd = quietHoursEnd(later, state.time_zone);
      if (quietEnd !== null) {
        const stepId = await openStep(sql, companyId, state, { ...item, type: settings.type }, at);
        await move({ next_run_at: quietEnd, open_step_id: stepId });
        return effects;
      }
    }
    const stepId = open ?? (await openStep(sql, companyId, state, { ...item, type: settings.type }, at));
    open = null;
    const step = { id: stepId, key: item.key };
    let next: string | null = item.next_key;
    switch (settings.type) {
      case 'send_email': {
        const sent = await sendEmail(sql, scope, state, subscriberId, settings, step, at, context);
        await closeStep(sql, companyId, stepId, at, sent.outcome, sent.runId);
        if (sent.outboxId !== null) lastOutbox = sent.outboxId;
        break;
      }
      case 'add_to_list':
      case 'remove_from_list': {
        const change = settings.type === 'add_to_list' ? addListMembers : removeListMembers;
        const changed = await change(sql, scope, settings.list_id, [subscriberId]);
        await closeStep(sql, companyId, stepId, at, changed === null ? 'failed' : 'done');
        break;
      }
      case 'update_field': {
        // A value the column refuses (a bad zip) fails the step, not the whole turn.
        await sql.query('SAVEPOINT flow_update_field');
        let outcome = 'done';
        try {
          await updateSubscriber(sql, scope, subscriberId, { [settings.field]: settings.value });
          await sql.query('RELEASE SAVEPOINT flow_update_field');
        } catch {
          await sql.query('ROLLBACK TO SAVEPOINT flow_update_field');
          outcome = 'failed';
        }
        await closeStep(sql, companyId, stepId, at, outcome);
        break;
      }
      case 'notify_staff':
        effects.push({
          kind: 'notify_staff',
          emails: settings.emails,
          subject: settings.subject,
          text: `${settings.message}\n\nFlow ${state.flow_id}, step ${item.key}, subscriber ${subscriberId}.`,
        });
        await closeStep(sql, companyId, stepId, at, 'done');
        break;
      case 'webhook':
        effects.push({
          kind: 'webhook',
          url: settings.url,
          idempotencyKey: `flow-step-${stepId}`,
          body: {
            company_id: companyId,
            flow_id: state.flow_id,
            enrolment_id: state.id,
            step_key: item.key,
            subscriber_id: subscriberId,
            at: at.toISOString(),
          },
        });
        await closeStep(sql, companyId, stepId, at, 'done');
        break;
      case 'condition': {
        const yes = await conditionHolds(sql, companyId, state, settings, lastOutbox, at);
        await closeStep(sql, companyId, stepId, at, yes ? 'yes' : 'no');
        next = yes ? item.next_key : item.no_key;
        break;
      }
      case 'exit':
        await closeStep(sql, companyId, stepId, at, 'exit');
        return leave('exited', 'exit_step');
    }
    key = next;
  }
  // The turn's steps are used up: the rest is due at once, in another turn.
  await move({ next_run_at: at });
  return effects;
}

/** The yes or no of a condition, as of `at` (the moment the step was due). */
async function conditionHolds(
  sql: Sql,
  companyId: CompanyId,
  state: EnrolmentState,
  settings: Extract<FlowActionSettings, { type: 'condition' }>,
  lastOutbox: number | null,
  at: Date,
): Promise<boolean> {
  const rule = settings.rule;
  switch (rule.condition) {
    case 'visited_since_entering':
      return state.guest_id !== null && visitedBetween(sql, companyId, state.guest_id, state.entered_at, at);
    case 'opened_last_email':
    case 'clicked_last_email': {
      if (lastOutbox === null) return false;
      const engagement = await outboxEngagement(sql, companyId, lastOutbox);
      return rule.condition === 'opened_last_email' ? engagement.opened : engagement.clicked;
    }
    case 'in_segment': {
      const selection = await audienceSelectionOf(sql, companyId, {
        segment_ids: [rule.segment_id],
        list_ids: [],
        location_ids: [],
        location_group_ids: [],
      }).catch(() => null);
      return selection !== null && subscriberInSegments(sql, companyId, state.guest_id, selection.segments);
    }
  }
}

/**
 * An email step: skipped as `capped` over the company-wide frequency cap (counted under the person's row lock,
 * so two workers cannot both pass it), else frozen as a mail run of kind
 * `flow` keyed by enrolment and step (`e{enrolment}.s{step}`), with this one subscriber in its outbox; the send
 * runner does the rest (compliance footer, suppression just before sending, tracking). `suppressed` when the
 * freeze found the address suppressed; `failed` when the template, subject or sender cannot be used.
 */
async function sendEmail(
  sql: Sql,
  scope: WriteScope,
  state: EnrolmentState,
  subscriberId: number,
  settings: Extract<FlowActionSettings, { type: 'send_email' }>,
  step: { id: number; key: string },
  at: Date,
  context: StepContext,
): Promise<{ outcome: string; runId: number | null; outboxId: number | null }> {
  const companyId = scope.companyId;
  // Held until the commit: another transaction emailing this person waits, then counts this email too.
  if (!context.subscribersLocked) await lockSubscribersOf(sql, companyId, [state.id]);
  const recent = await marketingEmailsBetween(
    sql,
    companyId,
    subscriberId,
    new Date(at.getTime() - WEEK_MS),
    at,
  );
  if (recent >= context.frequencyCap) return { outcome: 'capped', runId: null, outboxId: null };
  const template =
    settings.template_id === null ? null : await getEmailTemplate(sql, companyId, settings.template_id);
  const sender =
    settings.sender_id !== null
      ? await getEmailSender(sql, companyId, settings.sender_id)
      : ((await listEmailSenders(sql, companyId)).find((row) => row.verified_at !== null) ?? null);
  const subject = settings.subject.trim();
  if (
    !template ||
    template.html_content.trim() === '' ||
    unknownMergeTags(template.html_content + template.text_content + subject).length > 0 ||
    subject === '' ||
    !sender?.verified_at
  ) {
    return { outcome: 'failed', runId: null, outboxId: null };
  }
  // A company without a postal address cannot send: the step fails rather than the whole turn.
  const identity = await runIdentity(sql, companyId);
  const postalAddress = identity.postalAddress?.trim() ?? '';
  if (postalAddress === '') return { outcome: 'failed', runId: null, outboxId: null };
  const frozen = await freezeSubscriberRun(
    sql,
    scope,
    {
      kind: 'flow',
      sourceId: state.flow_id,
      runKey: `e${state.id}.s${step.id}`,
      content: {
        from: fromAddress(sender),
        subject,
        html: withPreheader(template.html_content, settings.preheader),
        text: template.text_content,
        tracking: true,
      },
      postalAddress,
      language: identity.language,
    },
    subscriberId,
    context.domain,
  );
  if (frozen.outbox === null) return { outcome: 'failed', runId: frozen.runId, outboxId: null };
  return {
    outcome: frozen.outbox.status === 'suppressed' ? 'suppressed' : 'sent',
    runId: frozen.runId,
    outboxId: frozen.outbox.id,
  };
}

/** The company-wide cap the engine applies unless told otherwise. */
export const DEFAULT_FREQUENCY_CAP = FLOW_SENDING_DEFAULTS.frequencyCapPer7Days;
