import { z } from 'zod';
import { emailField } from './accounts.js';
import { ApiErrorSchema, pageOf, PagingQuerySchema, requiredName } from './common.js';
import { TimeOfDaySchema, WEEKDAYS } from './campaigns.js';

/**
 * Automated flows (spec §2 /flows and /flows/builder/{id}, §3 "Flow: triggers, actions, delays, items, sequence",
 * §7 Flows calls; docs/flows.md). A flow is a graph of items: exactly one trigger, then actions and delays joined
 * by `next_key` (and a condition's `no_key`). The builder edits the draft graph; publishing snapshots it into a
 * numbered version the engine runs. This file is the contract shared by the routes, the engine and the screens.
 */

/** Where a flow is in its life: `live` flows enrol people; `paused` ones hold everyone where they are. */
export const FLOW_STATUSES = ['draft', 'live', 'paused'] as const;
/** One of FLOW_STATUSES. */
export type FlowStatus = (typeof FLOW_STATUSES)[number];

/** Which of trigger, action or delay an item is (the path of its call: triggers/, actions/, delays/). */
export const FLOW_ITEM_KINDS = ['trigger', 'action', 'delay'] as const;
/** One of FLOW_ITEM_KINDS. */
export type FlowItemKind = (typeof FLOW_ITEM_KINDS)[number];

/** Limits of a flow. */
export const FLOW_LIMITS = {
  /** Items in one flow's graph. */
  maxItems: 100,
  subjectMaxLength: 200,
  preheaderMaxLength: 200,
  /** Staff addresses one notify action mails. */
  maxStaffEmails: 5,
  staffMessageMaxLength: 2_000,
  /** Locations or groups a flow is kept to (each). */
  maxScopeEntries: 50,
  /** The longest wait of one delay, in days. */
  maxDelayDays: 365,
  /** The longest "no visit for N days" and "once per N days". */
  maxDays: 730,
  /** Coordinates of a node on the canvas, either way. */
  maxCoordinate: 100_000,
} as const;

/** An item's key: chosen by the builder when it adds a node, unique in its flow, kept across versions. */
export const ItemKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be 1–40 letters, digits, _ or -');

const positiveId = (field: string) => z.number().int().positive(`${field} must be an id`);

// ───────────────────────────── triggers ─────────────────────────────

/** What enrols a person, with its settings. Date-based ones (birthday, anniversary, no visit) fire from a daily pass. */
export const FlowTriggerSettingsSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('new_subscriber') }),
  z.object({ type: z.literal('joined_list'), list_id: positiveId('list_id') }),
  z.object({ type: z.literal('first_visit') }),
  z.object({
    type: z.literal('nth_visit'),
    visit_number: z.number().int().min(2, 'visit_number must be 2 or more').max(1000),
  }),
  z.object({ type: z.literal('visit_at_location'), location_id: positiveId('location_id') }),
  z.object({
    type: z.literal('no_visit_for'),
    days: z.number().int().min(1, 'days must be 1 or more').max(FLOW_LIMITS.maxDays),
  }),
  z.object({
    type: z.literal('birthday'),
    days_before: z.number().int().min(0, 'days_before must be 0 or more').max(60),
  }),
  z.object({ type: z.literal('first_visit_anniversary') }),
  z.object({
    type: z.literal('spend_passes'),
    amount_cents: z.number().int().positive('amount_cents must be more than 0'),
  }),
  z.object({ type: z.literal('entered_segment'), segment_id: positiveId('segment_id') }),
]);
/** A trigger's type and settings. */
export type FlowTriggerSettings = z.infer<typeof FlowTriggerSettingsSchema>;
/** Every trigger type, in the palette's order. */
export const FLOW_TRIGGER_TYPES = FlowTriggerSettingsSchema.options.map((option) => option.shape.type.value);
/** One trigger type. */
export type FlowTriggerType = FlowTriggerSettings['type'];

// ───────────────────────────── actions ─────────────────────────────

/** The subscriber fields an `update_field` action may set. */
export const UPDATABLE_SUBSCRIBER_FIELDS = ['first_name', 'last_name', 'phone', 'zip'] as const;

/** The questions a condition asks; the yes path is `next_key`, the no path `no_key`. */
export const FlowConditionSchema = z.discriminatedUnion('condition', [
  z.object({ condition: z.literal('in_segment'), segment_id: positiveId('segment_id') }),
  z.object({ condition: z.literal('visited_since_entering') }),
  z.object({ condition: z.literal('opened_last_email') }),
  z.object({ condition: z.literal('clicked_last_email') }),
]);

/**
 * What a step does. `send_email` goes through the sending pipeline (compliance, suppression, frequency cap);
 * `notify_staff` is a transactional note to the company's own people; `webhook` POSTs to an allow-listed URL;
 * `condition` branches; `exit` ends the person's way through the flow.
 */
export const FlowActionSettingsSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('send_email'),
    /** Null only in a draft: publishing needs a template (validateFlowGraph: `missing_template`). */
    template_id: positiveId('template_id').nullable(),
    sender_id: positiveId('sender_id').nullable().default(null),
    subject: z.string().trim().max(FLOW_LIMITS.subjectMaxLength, 'subject is too long'),
    preheader: z.string().trim().max(FLOW_LIMITS.preheaderMaxLength, 'preheader is too long').default(''),
  }),
  z.object({ type: z.literal('add_to_list'), list_id: positiveId('list_id') }),
  z.object({ type: z.literal('remove_from_list'), list_id: positiveId('list_id') }),
  z.object({
    type: z.literal('update_field'),
    field: z.enum(UPDATABLE_SUBSCRIBER_FIELDS, {
      error: `field must be one of ${UPDATABLE_SUBSCRIBER_FIELDS.join(', ')}`,
    }),
    value: z.string().trim().max(200, 'value is too long'),
  }),
  z.object({
    type: z.literal('notify_staff'),
    emails: z.array(emailField('emails')).min(1, 'emails needs an address').max(FLOW_LIMITS.maxStaffEmails),
    subject: z.string().trim().min(1, 'subject is required').max(FLOW_LIMITS.subjectMaxLength),
    message: z.string().trim().max(FLOW_LIMITS.staffMessageMaxLength, 'message is too long').default(''),
  }),
  z.object({
    type: z.literal('webhook'),
    url: z
      .string()
      .trim()
      .url('url must be an http(s) URL')
      .refine((url) => /^https?:\/\//i.test(url), 'url must be an http(s) URL'),
  }),
  z.object({ type: z.literal('condition'), rule: FlowConditionSchema }),
  z.object({ type: z.literal('exit') }),
]);
/** An action's type and settings. */
export type FlowActionSettings = z.infer<typeof FlowActionSettingsSchema>;
/** Every action type, in the palette's order. */
export const FLOW_ACTION_TYPES = FlowActionSettingsSchema.options.map((option) => option.shape.type.value);
/** One action type. */
export type FlowActionType = FlowActionSettings['type'];

// ───────────────────────────── delays ─────────────────────────────

/** Units of a `wait` delay. */
export const DELAY_UNITS = ['minutes', 'hours', 'days'] as const;
/** Seconds in one of each DELAY_UNITS. */
const DELAY_UNIT_SECONDS = { minutes: 60, hours: 3600, days: 86_400 } as const;

/** A wait: N minutes, hours or days; or until a weekday and time in the location's time zone. */
export const FlowDelaySettingsSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('wait'),
      amount: z.number().int().min(1, 'amount must be 1 or more'),
      unit: z.enum(DELAY_UNITS, { error: `unit must be one of ${DELAY_UNITS.join(', ')}` }),
    })
    // A longer wait would date the next step past what the engine can hold (and no marketer means it).
    .refine((delay) => delay.amount * DELAY_UNIT_SECONDS[delay.unit] <= FLOW_LIMITS.maxDelayDays * 86_400, {
      message: `amount may wait at most ${FLOW_LIMITS.maxDelayDays} days`,
      path: ['amount'],
    }),
  z.object({
    type: z.literal('wait_until'),
    weekday: z.enum(WEEKDAYS, { error: 'weekday must be a weekday code mon…sun' }),
    time: TimeOfDaySchema,
  }),
]);
/** A delay's type and settings. */
export type FlowDelaySettings = z.infer<typeof FlowDelaySettingsSchema>;

/** A `wait` delay's length in seconds (the engine's and the validator's measure). */
export function waitSeconds(delay: Extract<FlowDelaySettings, { type: 'wait' }>): number {
  return delay.amount * DELAY_UNIT_SECONDS[delay.unit];
}

// ───────────────────────────── items and the graph ─────────────────────────────

/** Where a node sits on the canvas. */
export const FlowPositionSchema = z.object({
  x: z.number().finite().min(-FLOW_LIMITS.maxCoordinate).max(FLOW_LIMITS.maxCoordinate),
  y: z.number().finite().min(-FLOW_LIMITS.maxCoordinate).max(FLOW_LIMITS.maxCoordinate),
});

const itemLinks = {
  position: FlowPositionSchema,
  /** The next item (a condition's yes path); null: the flow ends here. */
  next_key: ItemKeySchema.nullable(),
  /** A condition's no path; null for every other item. */
  no_key: ItemKeySchema.nullable(),
};

/** One node of a flow's graph, as the builder saves it and a version keeps it. */
export const FlowGraphItemSchema = z.discriminatedUnion('kind', [
  z.object({
    key: ItemKeySchema,
    kind: z.literal('trigger'),
    settings: FlowTriggerSettingsSchema,
    ...itemLinks,
  }),
  z.object({
    key: ItemKeySchema,
    kind: z.literal('action'),
    settings: FlowActionSettingsSchema,
    ...itemLinks,
  }),
  z.object({ key: ItemKeySchema, kind: z.literal('delay'), settings: FlowDelaySettingsSchema, ...itemLinks }),
]);
/** One node of a flow's graph. */
export type FlowGraphItem = z.infer<typeof FlowGraphItemSchema>;

/** A whole graph (the draft the builder saves, or a published version's snapshot). */
export const FlowGraphSchema = z
  .array(FlowGraphItemSchema)
  .max(FLOW_LIMITS.maxItems, `a flow holds at most ${FLOW_LIMITS.maxItems} items`);

/** A stored item: its node plus the id the item calls (`PUT items/{id}`, `PUT actions/{id}` …) name it by. */
export type FlowItem = FlowGraphItem & { id: number; flow_id: number };
/** A stored item (runtime check of the API's answers). */
export const FlowItemSchema = z.intersection(
  FlowGraphItemSchema,
  z.object({ id: z.number().int(), flow_id: z.number().int() }),
);

/** `GET /campaigns/flows/sequence/{id}/`: a flow's draft graph with the revision it was read at. */
export const FlowSequenceSchema = z.object({
  flow_id: z.number().int(),
  /** Bumped by every change to the draft; the builder sends it back to detect someone else's save. */
  revision: z.number().int(),
  items: z.array(FlowItemSchema),
});
/** A flow's draft graph. */
export type FlowSequence = z.infer<typeof FlowSequenceSchema>;

// ───────────────────────────── flows ─────────────────────────────

/** How often one person may enter a flow: once ever, or again once `reentry_days` have passed since they left. */
export const FLOW_REENTRY = ['once', 'after_days'] as const;

/** The writable settings of a flow (besides its graph), none defaulted: what an update may name. */
const FlowSettingsSchema = z.object({
  name: requiredName('name'),
  /** Kept to guests of these locations or groups (a guest enrols at the location of the visit that triggered it); both empty: every location. */
  location_ids: z.array(positiveId('location_ids')).max(FLOW_LIMITS.maxScopeEntries),
  location_group_ids: z.array(positiveId('location_group_ids')).max(FLOW_LIMITS.maxScopeEntries),
  reentry: z.enum(FLOW_REENTRY, { error: `reentry must be one of ${FLOW_REENTRY.join(', ')}` }),
  /** With `after_days`: days after leaving before the same person may enter again. */
  reentry_days: z.number().int().min(1, 'reentry_days must be 1 or more').max(FLOW_LIMITS.maxDays).nullable(),
});

/** The writable settings of a flow (besides its graph), with the defaults of a new flow. */
export const FlowFieldsSchema = FlowSettingsSchema.extend({
  location_ids: FlowSettingsSchema.shape.location_ids.default([]),
  location_group_ids: FlowSettingsSchema.shape.location_group_ids.default([]),
  reentry: FlowSettingsSchema.shape.reentry.default('once'),
  reentry_days: FlowSettingsSchema.shape.reentry_days.default(null),
});

/** What the flow list shows of each flow. */
export const FlowSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(FLOW_STATUSES),
  location_ids: z.array(z.number().int()),
  location_group_ids: z.array(z.number().int()),
  reentry: z.enum(FLOW_REENTRY),
  reentry_days: z.number().int().nullable(),
  /** The trigger's type, or null while the draft has none. */
  trigger_type: z.string().nullable(),
  /** The live version's number, or null before the first publish. */
  version: z.number().int().nullable(),
  /** The draft differs from the published version (publish again to apply it). */
  has_unpublished_changes: z.boolean(),
  revision: z.number().int(),
  /** People in the flow now (waiting or being moved on), over every version. */
  in_flow: z.number().int(),
  /** Marketing emails the flow has sent. */
  emails_sent: z.number().int(),
  /** Attributed revenue in cents; null until attribution (campaign analytics) lands. */
  revenue_cents: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** One row of the flow list. */
export type FlowSummary = z.infer<typeof FlowSummarySchema>;

/** `GET /campaigns/flows/{id}/`: a flow with its draft graph. */
export const FlowSchema = FlowSummarySchema.extend({ items: z.array(FlowItemSchema) });
/** A flow with its draft graph. */
export type Flow = z.infer<typeof FlowSchema>;

/** `GET /campaigns/flows/`: one page of flows, newest first. */
export const FlowListQuerySchema = PagingQuerySchema.extend({
  q: z.string().trim().max(200).optional(),
  status: z.enum(FLOW_STATUSES, { error: `status must be one of ${FLOW_STATUSES.join(', ')}` }).optional(),
});
/** One page of flows. */
export const FlowPageSchema = pageOf(FlowSummarySchema);

/** `POST /campaigns/flows/`: a draft flow, optionally with a graph (a duplicate, a starter). */
export const FlowCreateSchema = FlowFieldsSchema.extend({ items: FlowGraphSchema.default([]) });
/** The body of a flow's creation. */
export type FlowCreate = z.input<typeof FlowCreateSchema>;

/**
 * `PUT /campaigns/flows/{id}/`: settings, the whole draft graph (with the `revision` it was edited from: 409
 * `flow_conflict` when someone saved since), and the status. `status: 'live'` publishes: the graph must pass
 * validateFlowGraph (400 `flow_invalid` with the problems) and, when it changed, becomes the next version;
 * `paused` holds everyone; `live` from `paused` without `items` resumes on the published version (an edited draft
 * stays a draft), with `items` (the builder's Publish) publishes them. A field left out keeps its stored value (no defaults
 * here: a status-only update must not reset the flow's scope).
 */
export const FlowUpdateSchema = FlowSettingsSchema.partial()
  .extend({
    status: z.enum(FLOW_STATUSES, { error: `status must be one of ${FLOW_STATUSES.join(', ')}` }).optional(),
    items: FlowGraphSchema.optional(),
    revision: z.number().int().min(0).optional(),
  })
  .refine((body) => body.items === undefined || body.revision !== undefined, {
    message: 'revision is required with items',
    path: ['revision'],
  });
/** The body of a flow's update. */
export type FlowUpdate = z.input<typeof FlowUpdateSchema>;

/** `POST /campaigns/flows/{triggers|actions|delays}/`: one new item in a flow's draft. */
const newItem = <Settings extends z.ZodTypeAny>(settings: Settings) =>
  z.object({
    flow_id: positiveId('flow_id'),
    /** Chosen by the caller, or made by the server. */
    key: ItemKeySchema.optional(),
    settings,
    position: FlowPositionSchema.default({ x: 0, y: 0 }),
    next_key: ItemKeySchema.nullable().default(null),
    no_key: ItemKeySchema.nullable().default(null),
  });
/** `POST /campaigns/flows/triggers/`. */
export const FlowTriggerCreateSchema = newItem(FlowTriggerSettingsSchema);
/** `POST /campaigns/flows/actions/`. */
export const FlowActionCreateSchema = newItem(FlowActionSettingsSchema);
/** `POST /campaigns/flows/delays/`. */
export const FlowDelayCreateSchema = newItem(FlowDelaySettingsSchema);
/** `PUT /campaigns/flows/triggers/{id}/` (the item's id): new settings. */
export const FlowTriggerUpdateSchema = z.object({ settings: FlowTriggerSettingsSchema });
/** `PUT /campaigns/flows/actions/{id}/`. */
export const FlowActionUpdateSchema = z.object({ settings: FlowActionSettingsSchema });
/** `PUT /campaigns/flows/delays/{id}/`. */
export const FlowDelayUpdateSchema = z.object({ settings: FlowDelaySettingsSchema });
/** `PUT /campaigns/flows/items/{id}/`: where the node sits and what follows it. */
export const FlowItemPlacementSchema = z
  .object({
    position: FlowPositionSchema,
    next_key: ItemKeySchema.nullable(),
    no_key: ItemKeySchema.nullable(),
  })
  .partial();

/** The answer of every item call: the item and the draft's new revision. */
export const FlowItemResultSchema = z.object({ item: FlowItemSchema, revision: z.number().int() });

// ───────────────────────────── validation ─────────────────────────────

/** Why a graph cannot be published; shown on the node it names (null: the flow as a whole). */
export const FLOW_PROBLEM_CODES = [
  'no_trigger',
  'many_triggers',
  'trigger_not_first',
  'dangling_branch',
  'missing_template',
  'missing_subject',
  'loop_without_delay',
  'unknown_target',
  'unreachable',
  'no_path_on_plain_item',
] as const;
/** One of FLOW_PROBLEM_CODES. */
export type FlowProblemCode = (typeof FLOW_PROBLEM_CODES)[number];

/** One reason a graph cannot be published. */
export const FlowProblemSchema = z.object({
  key: ItemKeySchema.nullable(),
  code: z.enum(FLOW_PROBLEM_CODES),
});
/** One reason a graph cannot be published. */
export type FlowProblem = z.infer<typeof FlowProblemSchema>;

/**
 * The error body of the flow calls: the common one, plus the stored `revision` with 409 `flow_conflict` (so the
 * builder can reload or overwrite) and the `problems` with 400 `flow_invalid` (drawn on the nodes).
 */
export const FlowApiErrorSchema = z.object({
  error: ApiErrorSchema.shape.error.extend({
    revision: z.number().int().optional(),
    problems: z.array(FlowProblemSchema).optional(),
  }),
});
/** The error body of the flow calls. */
export type FlowApiError = z.infer<typeof FlowApiErrorSchema>;

// ───────────────────────────── engine figures ─────────────────────────────

/** People at one node of the live versions: entered it, waiting at it, went past it, left the flow at it. */
export const FlowNodeCountsSchema = z.object({
  entered: z.number().int(),
  waiting: z.number().int(),
  completed: z.number().int(),
  exited: z.number().int(),
});

/** `GET /campaigns/flows/{id}/node-counts/`: counts per item key, over every version. */
export const FlowNodeCountsResultSchema = z.object({
  flow_id: z.number().int(),
  counts: z.record(ItemKeySchema, FlowNodeCountsSchema),
});
/** Counts per item key. */
export type FlowNodeCountsResult = z.infer<typeof FlowNodeCountsResultSchema>;

/** Why a person left a flow. */
export const FLOW_EXIT_REASONS = [
  'completed',
  'exit_step',
  'unsubscribed',
  'suppressed',
  'deleted',
  'flow_deleted',
  'out_of_scope',
] as const;

/** One step of a person's way through a flow (their profile's flow history). */
export const FlowPathStepSchema = z.object({
  key: ItemKeySchema,
  /** The item's kind and type when it ran (e.g. `action`/`send_email`). */
  kind: z.enum(FLOW_ITEM_KINDS),
  type: z.string(),
  entered_at: z.string(),
  /** When the step finished; null while the person waits at it. */
  done_at: z.string().nullable(),
  /** What happened: `sent`, `capped`, `suppressed`, `yes`, `no`, `waited`, `failed` … */
  outcome: z.string().nullable(),
});

/** `GET /customers/subscribers/{id}/flows/`: every flow enrolment of one subscriber, newest first. */
export const SubscriberFlowPathsSchema = z.object({
  results: z.array(
    z.object({
      flow_id: z.number().int(),
      flow_name: z.string(),
      version: z.number().int(),
      status: z.enum(['active', 'completed', 'exited']),
      exit_reason: z.enum(FLOW_EXIT_REASONS).nullable(),
      entered_at: z.string(),
      left_at: z.string().nullable(),
      steps: z.array(FlowPathStepSchema),
    }),
  ),
});
/** A subscriber's flow enrolments. */
export type SubscriberFlowPaths = z.infer<typeof SubscriberFlowPathsSchema>;

/** Company-wide sending limits across flows and campaigns (docs/flows.md, "Frequency cap and quiet hours"). */
export const FLOW_SENDING_DEFAULTS = {
  /** Marketing emails one person may get in any 7 days from flows; campaigns count towards it. */
  frequencyCapPer7Days: 5,
  /** Flow emails due in these local hours wait until the end of them (location's time zone). */
  quietHoursStart: '21:00',
  quietHoursEnd: '08:00',
} as const;
