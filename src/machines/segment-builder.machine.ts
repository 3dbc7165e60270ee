import { current, isDraft, produce, type Draft } from 'immer';
import { assign, cancel, type DoneActorEvent, type ErrorActorEvent, raise, setup } from 'xstate';
import type { SegmentPreview } from '../schemas/segment-records.js';
import type { SegmentType } from '../schemas/segment-catalogue.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem, type FieldErrors } from './support/api-problem.js';
import { placeholder } from './support/placeholder.js';
import {
  apiGroupsOf,
  draftOf,
  operatorOf,
  ruleErrorsOf,
  rulesLackingValues,
  startingValue,
  takesOption,
  type ApiGroup,
  type DraftGroup,
  type DraftRule,
} from './support/segment-draft.js';

/** One thing a rule can name (a location, a menu item, a list), as the builder offers it. */
export interface BuilderChoice {
  id: number;
  name: string;
}

/** What the builder's pickers offer, loaded with the catalogue; a list the user may not read is empty. */
export interface BuilderChoices {
  locations: BuilderChoice[];
  groups: BuilderChoice[];
  items: BuilderChoice[];
  categories: BuilderChoice[];
  lists: BuilderChoice[];
}

/** `loadCatalogue`'s answer: the rule types (GET /campaigns/segment-types/) and the pickers' choices. */
export interface BuilderCatalogue {
  types: SegmentType[];
  choices: BuilderChoices;
}

/** The header's location picker, as the preview's repeated query parameters. */
export interface PickerFilter {
  location_id: number[];
  location_group_id: number[];
}

/** `previewCount`'s input: the rules as the API takes them and the picker. */
export interface PreviewRequest {
  segment_groups: ApiGroup[];
  picker: PickerFilter;
}

/** What the builder starts from: a saved segment's groups (none: a new segment) and the picker. */
export interface BuilderInput {
  groups?: readonly { id?: number | null; segment_rules: readonly object[] }[];
  picker?: PickerFilter;
}

/** What the builder knows. */
export interface BuilderContext {
  types: SegmentType[] | null;
  choices: BuilderChoices | null;
  groups: DraftGroup[];
  /** The drafts before each edit, newest last, for undo. */
  history: DraftGroup[][];
  nextKey: number;
  picker: PickerFilter;
  /** The last count answered for the rules as they were. */
  count: SegmentPreview | null;
  /** Problems by rule key and field (the preview's 400, or a save's). */
  ruleErrors: Record<string, FieldErrors>;
  /** Problems of the rule set that name no rule of the draft (a group's id, the limits), by path. */
  setErrors: FieldErrors;
  /** A failure that belongs to no rule (the catalogue, the count). */
  problem: ApiProblem | null;
}

type RuleAt = { group: string; rule: string };

/** What the builder's view sends. */
export type BuilderCommand =
  | { type: 'catalogue.retry' }
  | { type: 'group.add' }
  | { type: 'group.remove'; group: string }
  | { type: 'group.duplicate'; group: string }
  | { type: 'rule.add'; group: string }
  | ({ type: 'rule.remove' } & RuleAt)
  | ({ type: 'rule.duplicate' } & RuleAt)
  | ({ type: 'rule.type'; value: string } & RuleAt)
  | ({ type: 'rule.operator'; value: string } & RuleAt)
  | ({ type: 'rule.value'; value: unknown } & RuleAt)
  | ({ type: 'rule.window'; value: number | null } & RuleAt)
  | ({ type: 'rule.groups'; value: number[] } & RuleAt)
  | { type: 'edit.undo' }
  /** The header's picker changed: count again over the new locations. */
  | { type: 'picker.change'; picker: PickerFilter }
  /** A save was refused with problems named by path: show them on their rules. */
  | { type: 'errors.show'; fields: FieldErrors };

/** Everything the builder handles. */
export type BuilderEvent =
  | BuilderCommand
  | { type: 'count.due' }
  | DoneActorEvent<BuilderCatalogue, 'loadCatalogue'>
  | ErrorActorEvent<unknown, 'loadCatalogue'>
  | DoneActorEvent<SegmentPreview, 'previewCount'>
  | ErrorActorEvent<unknown, 'previewCount'>;

/** How long the count waits after an edit (ms): edits in a quick row are counted once. */
export const COUNT_DELAY_MS = 400;
/** How many edits undo goes back. */
export const UNDO_DEPTH = 30;

const NO_PICKER: PickerFilter = { location_id: [], location_group_id: [] };

type Edit = (draft: Draft<BuilderContext>, event: BuilderEvent) => void;

const findGroup = (draft: Draft<BuilderContext>, key: string) =>
  draft.groups.find((group) => group.key === key);
const findRule = (draft: Draft<BuilderContext>, at: RuleAt) =>
  findGroup(draft, at.group)?.rules.find((rule) => rule.key === at.rule);

/** A new rule of the first live type, with its first operator's starting value. */
function newRule(draft: Draft<BuilderContext>): DraftRule {
  const type = draft.types?.find((entry) => entry.live) ?? draft.types?.[0];
  const operator = type?.operators[0];
  return {
    key: `r${draft.nextKey++}`,
    type: type?.type ?? 'visit_count',
    operator: operator?.operator ?? 'gte',
    value: startingValue(operator?.value_kind, operator?.range ?? false),
    window_days: null,
    group_ids: [],
  };
}

/** A copy of a rule under a new key. */
function copyRule(draft: Draft<BuilderContext>, rule: DraftRule): DraftRule {
  // A plain copy of the draft's rule (values are shared frozen, so never changed in place).
  return { ...(isDraft(rule) ? current(rule) : rule), key: `r${draft.nextKey++}` };
}

/** The operator's starting value unless the kind and shape stay the same (then the value is kept). */
function settleValue(
  types: readonly SegmentType[],
  rule: Draft<DraftRule>,
  before: { type: string; operator: string },
) {
  const was = operatorOf(types, before.type, before.operator);
  const now = operatorOf(types, rule.type, rule.operator);
  if (was?.value_kind !== now?.value_kind || was?.range !== now?.range)
    rule.value = startingValue(now?.value_kind, now?.range ?? false);
}

// Each edit of the rule set, on an immer draft of the context (immer freezes what it produces, so every
// action of this machine goes through `produce`).
const EDITS: Record<string, Edit> = {
  'group.add': (draft) => {
    draft.groups.push({ key: `g${draft.nextKey++}`, id: null, rules: [newRule(draft)] });
  },
  'group.remove': (draft, event) => {
    if (event.type !== 'group.remove') return;
    draft.groups = draft.groups.filter((group) => group.key !== event.group);
  },
  'group.duplicate': (draft, event) => {
    if (event.type !== 'group.duplicate') return;
    const index = draft.groups.findIndex((group) => group.key === event.group);
    const group = draft.groups[index];
    if (!group) return;
    const rules = group.rules.map((rule) => copyRule(draft, rule));
    draft.groups.splice(index + 1, 0, { key: `g${draft.nextKey++}`, id: null, rules });
  },
  'rule.add': (draft, event) => {
    if (event.type !== 'rule.add') return;
    const group = findGroup(draft, event.group);
    group?.rules.push(newRule(draft));
  },
  'rule.remove': (draft, event) => {
    if (event.type !== 'rule.remove') return;
    const group = findGroup(draft, event.group);
    if (group) group.rules = group.rules.filter((rule) => rule.key !== event.rule);
  },
  'rule.duplicate': (draft, event) => {
    if (event.type !== 'rule.duplicate') return;
    const group = findGroup(draft, event.group);
    const index = group?.rules.findIndex((rule) => rule.key === event.rule) ?? -1;
    const rule = group?.rules[index];
    if (group && rule) group.rules.splice(index + 1, 0, copyRule(draft, rule));
  },
  'rule.type': (draft, event) => {
    if (event.type !== 'rule.type') return;
    const rule = findRule(draft, event);
    const types = draft.types ?? [];
    const type = types.find((entry) => entry.type === event.value);
    if (!rule || !type) return;
    const before = { type: rule.type, operator: rule.operator };
    rule.type = type.type;
    // The same operator when the new type has it (visits "at least" → spend "at least"), else its first.
    if (!type.operators.some((item) => item.operator === rule.operator))
      rule.operator = type.operators[0]?.operator ?? rule.operator;
    settleValue(types, rule, before);
    if (!takesOption(types, type.type, 'window_days')) rule.window_days = null;
    if (!takesOption(types, type.type, 'group_ids')) rule.group_ids = [];
  },
  'rule.operator': (draft, event) => {
    if (event.type !== 'rule.operator') return;
    const rule = findRule(draft, event);
    if (!rule || !operatorOf(draft.types ?? [], rule.type, event.value)) return;
    const before = { type: rule.type, operator: rule.operator };
    rule.operator = event.value;
    settleValue(draft.types ?? [], rule, before);
  },
  'rule.value': (draft, event) => {
    if (event.type !== 'rule.value') return;
    const rule = findRule(draft, event);
    if (rule) rule.value = event.value;
  },
  'rule.window': (draft, event) => {
    if (event.type !== 'rule.window') return;
    const rule = findRule(draft, event);
    if (rule) rule.window_days = event.value;
  },
  'rule.groups': (draft, event) => {
    if (event.type !== 'rule.groups') return;
    const rule = findRule(draft, event);
    if (rule) rule.group_ids = event.value;
  },
};

/** The rule an edit touches, whose shown problems it clears. */
const ruleOfEvent = (event: BuilderEvent): string | null =>
  'rule' in event && typeof event.rule === 'string' ? event.rule : null;

const builderSetup = setup({
  types: {
    context: {} as BuilderContext,
    events: {} as BuilderEvent,
    // The assertion names the input type for XState (every field of it is optional).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    input: {} as BuilderInput,
  },
  actors: {
    /** The rule types and the pickers' choices. */
    loadCatalogue: placeholder<BuilderCatalogue, void>(),
    /** `POST /campaigns/segments/?preview=1` with the picker. */
    previewCount: placeholder<SegmentPreview, PreviewRequest>(),
  },
  delays: { countDelay: COUNT_DELAY_MS },
  guards: {
    canUndo: ({ context }) => context.history.length > 0,
    lacksValues: ({ context }) => rulesLackingValues(context.types ?? [], context.groups).length > 0,
    namesRules: (_, problem: ApiProblem) =>
      problem.status === 400 && Object.keys(problem.fields).some((path) => path.startsWith('segment_groups')),
  },
  actions: {
    keepCatalogue: assign(({ context }, catalogue: BuilderCatalogue) =>
      produce(context, (draft) => {
        draft.types = catalogue.types;
        draft.choices = catalogue.choices;
        draft.problem = null;
        // A new segment starts with one group of one rule, ready to edit.
        if (draft.groups.length === 0)
          draft.groups.push({ key: `g${draft.nextKey++}`, id: null, rules: [newRule(draft)] });
      }),
    ),
    edit: assign(({ context, event }) =>
      produce(context, (draft) => {
        draft.history.push(context.groups);
        if (draft.history.length > UNDO_DEPTH) draft.history.shift();
        EDITS[event.type]?.(draft, event);
        const rule = ruleOfEvent(event);
        if (rule) delete draft.ruleErrors[rule];
        draft.setErrors = {};
      }),
    ),
    undo: assign(({ context }) =>
      produce(context, (draft) => {
        const previous = draft.history.pop();
        if (previous) draft.groups = previous;
        draft.ruleErrors = {};
        draft.setErrors = {};
      }),
    ),
    keepPicker: assign(({ context }, picker: PickerFilter) =>
      produce(context, (draft) => {
        draft.picker = picker;
      }),
    ),
    keepCount: assign(({ context }, count: SegmentPreview) =>
      produce(context, (draft) => {
        draft.count = count;
        draft.ruleErrors = {};
        draft.setErrors = {};
        draft.problem = null;
      }),
    ),
    showRuleErrors: assign(({ context }, fields: FieldErrors) =>
      produce(context, (draft) => {
        const { byRule, rest } = ruleErrorsOf(context.groups, fields);
        draft.ruleErrors = byRule;
        draft.setErrors = rest;
      }),
    ),
    keepProblem: assign(({ context }, problem: ApiProblem) =>
      produce(context, (draft) => {
        draft.problem = problem;
      }),
    ),
    forgetCount: assign(({ context }) =>
      produce(context, (draft) => {
        draft.count = null;
        draft.problem = null;
      }),
    ),
  },
});
const request = requestIn(builderSetup);

// Every edit restarts the wait (reentering `waiting` stops a count under way: the last edit's answer wins).
const edited = { target: '.waiting', reenter: true, actions: 'edit' } as const;

/**
 * The rule builder of the segment dialogs: the rule set as groups ("any group holds") of rules ("all rules
 * hold"), edited by events (add, remove and duplicate rules and groups; a rule's type, operator, value and
 * options; undo), and its live count. States:
 * - `loading` the catalogue (`loadCatalogue`) → `ready`, or `failed` (retried with `catalogue.retry`);
 * - in `ready`, each edit or picker change enters `waiting` (COUNT_DELAY_MS), then `counting` (the
 *   `previewCount` call; a new edit stops it, so a stale answer never arrives), and `counted`, `refused` (a
 *   400 naming rules: shown on them, the edit kept) or `unavailable` (any other failure); rules still lacking a
 *   value are `incomplete` and not sent.
 */
export const segmentBuilderMachine = builderSetup.createMachine({
  id: 'segmentBuilder',
  context: ({ input }) => {
    const { groups, nextKey } = draftOf(input.groups ?? [], 1);
    return {
      types: null,
      choices: null,
      groups,
      history: [],
      nextKey,
      picker: input.picker ?? NO_PICKER,
      count: null,
      ruleErrors: {},
      setErrors: {},
      problem: null,
    };
  },
  initial: 'loading',
  // A pick while the catalogue loads (or failed to) is kept for the first count; `ready` also counts again.
  on: { 'picker.change': { actions: { type: 'keepPicker', params: ({ event }) => event.picker } } },
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadCatalogue', {
        done: { target: 'ready', actions: { type: 'keepCatalogue', params: ({ event }) => event.output } },
        error: {
          target: 'failed',
          actions: { type: 'keepProblem', params: ({ event }) => problemOf(event.error) },
        },
      }),
    },
    failed: {
      on: { 'catalogue.retry': { target: 'loading' } },
    },
    ready: {
      initial: 'waiting',
      on: {
        'group.add': edited,
        'group.remove': edited,
        'group.duplicate': edited,
        'rule.add': edited,
        'rule.remove': edited,
        'rule.duplicate': edited,
        'rule.type': edited,
        'rule.operator': edited,
        'rule.value': edited,
        'rule.window': edited,
        'rule.groups': edited,
        'edit.undo': { guard: 'canUndo', target: '.waiting', reenter: true, actions: 'undo' },
        'picker.change': {
          target: '.waiting',
          reenter: true,
          actions: { type: 'keepPicker', params: ({ event }) => event.picker },
        },
        'errors.show': { actions: { type: 'showRuleErrors', params: ({ event }) => event.fields } },
      },
      states: {
        waiting: {
          entry: raise({ type: 'count.due' }, { delay: 'countDelay', id: 'countWait' }),
          exit: cancel('countWait'),
          on: {
            'count.due': [
              { guard: 'lacksValues', target: 'incomplete', actions: 'forgetCount' },
              { target: 'counting' },
            ],
          },
        },
        counting: {
          tags: ['busy'],
          ...request('previewCount', {
            input: ({ context }) => ({ segment_groups: apiGroupsOf(context.groups), picker: context.picker }),
            done: { target: 'counted', actions: { type: 'keepCount', params: ({ event }) => event.output } },
            error: [
              {
                guard: { type: 'namesRules', params: ({ event }) => problemOf(event.error) },
                target: 'refused',
                actions: { type: 'showRuleErrors', params: ({ event }) => problemOf(event.error).fields },
              },
              {
                target: 'unavailable',
                actions: { type: 'keepProblem', params: ({ event }) => problemOf(event.error) },
              },
            ],
          }),
        },
        counted: {},
        incomplete: {},
        refused: {},
        unavailable: {},
      },
    },
  },
});
