import { produce } from 'immer';
import { assign, type DoneActorEvent, emit, type ErrorActorEvent, setup, spawnChild } from 'xstate';
import { validateFlowGraph } from '../schemas/flow-graph.js';
import type {
  Flow,
  FlowGraphItem,
  FlowNodeCountsResult,
  FlowProblem,
  FlowStatus,
  FlowSummary,
  FlowUpdate,
} from '../schemas/flows.js';
import type { EditorChoices } from './campaign-update-mode.machine.js';
import { requestIn } from './kit/request.js';
import { problemOf, type ApiProblem } from './support/api-problem.js';
import {
  addNode,
  defaultSettings,
  link,
  placeNodes,
  removeNode,
  setSettings,
  unsettledKeys,
  type FlowHandle,
  type FlowNodeType,
  type FlowPoint,
} from './support/flow-edits.js';
import { placeholder } from './support/placeholder.js';

/** A flow's settings besides its graph, as the flow settings dialog edits them. */
export interface FlowFields {
  name: string;
  location_ids: number[];
  location_group_ids: number[];
  reentry: 'once' | 'after_days';
  reentry_days: number | null;
}

/** What undo and redo step between: the graph and the flow's settings. */
export interface BuilderSnapshot {
  items: FlowGraphItem[];
  fields: FlowFields;
}

/** The builder opens a saved flow by id, or makes a new draft (null) named `newName`. */
export interface FlowBuilderInput {
  flowId: number | null;
  /** The new draft's name, in the user's language. */
  newName: string;
  /** A new "notify staff" step mails the signed-in user until the marketer changes it. */
  staffEmail: string;
}

/** `loadFlow`'s answer: the flow with its draft graph, the pickers, and the per-node counts (null: not served). */
export interface FlowBuilderLoad {
  flow: Flow;
  choices: EditorChoices;
  counts: FlowNodeCountsResult['counts'] | null;
}

/** `saveFlow`'s input: the body of `PUT /campaigns/flows/{id}/`; `overwrite` reads the stored revision first. */
export interface SaveFlowRequest {
  id: number;
  body: FlowUpdate;
  overwrite: boolean;
}

/** Undo keeps this many steps. */
export const UNDO_DEPTH = 100;

/** The edits of the graph and the flow's settings; each can be undone. */
export type FlowEditCommand =
  /** From the palette: dropped at `position`, or (null) put below the selected node and linked from it. */
  | { type: 'node.add'; node: FlowNodeType; position: FlowPoint | null }
  | { type: 'node.move'; key: string; position: FlowPoint }
  | { type: 'edge.connect'; source: string; handle: FlowHandle; target: string }
  | { type: 'edge.disconnect'; source: string; handle: FlowHandle }
  | { type: 'node.delete'; key: string }
  | { type: 'node.settings'; key: string; settings: FlowGraphItem['settings'] }
  | { type: 'flow.fields'; fields: Partial<FlowFields> }
  | { type: 'undo' }
  | { type: 'redo' }
  /** The auto-layout's answer: every node's new position. */
  | DoneActorEvent<Record<string, FlowPoint>, 'layOutGraph'>;

/** What the builder's view sends. */
export type FlowBuilderCommand =
  | FlowEditCommand
  | { type: 'node.select'; key: string | null }
  | { type: 'layout.request' }
  | { type: 'save' }
  | { type: 'publish' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'conflict.reload' }
  | { type: 'conflict.overwrite' }
  | { type: 'retry' }
  | { type: 'problem.dismiss' };

/** Everything the builder handles. */
export type FlowBuilderEvent =
  | FlowBuilderCommand
  | DoneActorEvent<FlowBuilderLoad, 'loadFlow'>
  | ErrorActorEvent<unknown, 'loadFlow'>
  | DoneActorEvent<Flow, 'saveFlow'>
  | ErrorActorEvent<unknown, 'saveFlow'>
  | ErrorActorEvent<unknown, 'layOutGraph'>;

/** What the builder knows. */
export interface FlowBuilderContext {
  flowId: number | null;
  newName: string;
  staffEmail: string;
  /** The server's last word on the flow (status, version, figures), without its graph. */
  flow: FlowSummary | null;
  fields: FlowFields;
  items: FlowGraphItem[];
  /** The revision the draft was read or last saved at; sent back to detect someone else's save. */
  revision: number;
  past: BuilderSnapshot[];
  future: BuilderSnapshot[];
  selected: string | null;
  /** validateFlowGraph's answer for the graph shown, kept up to date on every edit. */
  problems: FlowProblem[];
  /** Nodes whose settings are half-typed (the schema refuses them): saving waits for them. */
  unsettled: string[];
  choices: EditorChoices;
  counts: FlowNodeCountsResult['counts'] | null;
  problem: ApiProblem | null;
  /** True once publishing was refused for the problems on the nodes (shown until the next edit). */
  publishRefused: boolean;
  /** Edits made since the builder opened, and how many of them the server has. */
  edits: number;
  savedEdits: number;
  /** Edits counted when the save under way started. */
  savingEdits: number;
  /** The status the status change under way asks for. */
  requestedStatus: FlowStatus | null;
}

const NO_CHOICES: EditorChoices = {
  segments: [],
  lists: [],
  locations: [],
  groups: [],
  templates: [],
  senders: [],
};

const fieldsOf = (flow: FlowSummary): FlowFields => ({
  name: flow.name,
  location_ids: flow.location_ids,
  location_group_ids: flow.location_group_ids,
  reentry: flow.reentry,
  reentry_days: flow.reentry_days,
});

const summaryOf = (flow: Flow): FlowSummary => {
  const { items: _items, ...summary } = flow;
  return summary;
};

/** The graph as saved: the draft's nodes without the server's ids. */
const graphOf = (flow: Flow): FlowGraphItem[] =>
  flow.items.map(({ id: _id, flow_id: _flowId, ...item }) => item);

/** The whole draft as `PUT /campaigns/flows/{id}/` takes it. */
function draftBody(context: FlowBuilderContext, status?: FlowStatus): FlowUpdate {
  return {
    ...context.fields,
    items: context.items,
    revision: context.revision,
    ...(status ? { status } : {}),
  };
}

/**
 * The context after one edit, or the same context when the edit changes nothing (undo with nothing to undo,
 * a link the graph refuses). Nested updates through immer; its results are frozen, so every change of
 * these parts goes through here.
 */
export function applyEdit(context: FlowBuilderContext, event: FlowEditCommand): FlowBuilderContext {
  if (event.type === 'undo' || event.type === 'redo') {
    const from = event.type === 'undo' ? context.past : context.future;
    const snapshot = from.at(-1);
    if (!snapshot) return context;
    return produce(context, (draft) => {
      const current = { items: draft.items, fields: draft.fields };
      if (event.type === 'undo') {
        draft.past.pop();
        draft.future.push(current);
      } else {
        draft.future.pop();
        draft.past.push(current);
      }
      draft.items = snapshot.items;
      draft.fields = snapshot.fields;
      // Undo is an edit too: the graph differs from what the server has until the next save.
      draft.edits += 1;
      if (draft.selected !== null && !snapshot.items.some((item) => item.key === draft.selected))
        draft.selected = null;
      settle(draft);
    });
  }
  let added: string | null = null;
  const items = produce(context.items, (draft) => {
    switch (event.type) {
      case 'node.add': {
        const settings = defaultSettings(event.node, context.choices, context.staffEmail);
        if (settings === null) return;
        added = addNode(draft, { kind: event.node.kind, settings }, event.position, context.selected);
        return;
      }
      case 'node.move':
        placeNodes(draft, { [event.key]: event.position });
        return;
      case 'edge.connect':
        link(draft, event.source, event.handle, event.target);
        return;
      case 'edge.disconnect':
        link(draft, event.source, event.handle, null);
        return;
      case 'node.delete':
        removeNode(draft, event.key);
        return;
      case 'node.settings':
        setSettings(draft, event.key, event.settings);
        return;
      case 'xstate.done.actor.layOutGraph':
        placeNodes(draft, event.output);
        return;
    }
  });
  const fields =
    event.type === 'flow.fields'
      ? produce(context.fields, (draft) => Object.assign(draft, event.fields))
      : context.fields;
  if (items === context.items && fields === context.fields) return context;
  return produce(context, (draft) => {
    draft.past.push({ items: context.items, fields: context.fields });
    if (draft.past.length > UNDO_DEPTH) draft.past.shift();
    draft.future = [];
    draft.items = items;
    draft.fields = fields;
    if (added !== null) draft.selected = added;
    if (draft.selected !== null && !items.some((item) => item.key === draft.selected)) draft.selected = null;
    draft.edits += 1;
    draft.publishRefused = false;
    settle(draft);
  });
}

/** Keeps the shown problems true to the graph. */
function settle(draft: FlowBuilderContext): void {
  draft.problems = validateFlowGraph(draft.items);
  draft.unsettled = unsettledKeys(draft.items);
}

const isEdit = (event: FlowBuilderEvent): event is FlowEditCommand =>
  [
    'node.add',
    'node.move',
    'edge.connect',
    'edge.disconnect',
    'node.delete',
    'node.settings',
    'flow.fields',
    'undo',
    'redo',
    'xstate.done.actor.layOutGraph',
  ].includes(event.type);

const isConflict = (error: unknown) => problemOf(error).code === 'flow_conflict';

const builderSetup = setup({
  types: {
    context: {} as FlowBuilderContext,
    events: {} as FlowBuilderEvent,
    input: {} as FlowBuilderInput,
    emitted: {} as
      { type: 'flow.created'; id: number } | { type: 'flow.laidOut'; positions: Record<string, FlowPoint> },
  },
  actors: {
    /** `GET /campaigns/flows/{id}/` (after `POST /campaigns/flows/` for a new draft), the pickers and the node counts. */
    loadFlow: placeholder<FlowBuilderLoad, { flowId: number | null; newName: string }>(),
    /** `PUT /campaigns/flows/{id}/`. */
    saveFlow: placeholder<Flow, SaveFlowRequest>(),
    /** The nodes laid out top to bottom by ELK. */
    layOutGraph: placeholder<Record<string, FlowPoint>, { items: FlowGraphItem[] }>(),
  },
  guards: {
    changes: ({ context, event }) => isEdit(event) && applyEdit(context, event) !== context,
    settled: ({ context }) => context.unsettled.length === 0,
    publishable: ({ context }) => context.unsettled.length === 0 && context.problems.length === 0,
    live: ({ context }) => context.flow?.status === 'live',
    paused: ({ context }) => context.flow?.status === 'paused',
    editedSinceSaving: ({ context }) => context.edits !== context.savingEdits,
    unsaved: ({ context }) => context.edits !== context.savedEdits,
    conflict: ({ event }) => 'error' in event && isConflict(event.error),
  },
  actions: {
    edit: assign(({ context, event }) => (isEdit(event) ? applyEdit(context, event) : context)),
    loaded: assign(({ context }, load: FlowBuilderLoad) => {
      const items = graphOf(load.flow);
      return {
        flowId: load.flow.id,
        flow: summaryOf(load.flow),
        fields: fieldsOf(load.flow),
        items,
        revision: load.flow.revision,
        past: [],
        future: [],
        selected: items.some((item) => item.key === context.selected) ? context.selected : null,
        problems: validateFlowGraph(items),
        unsettled: unsettledKeys(items),
        choices: load.choices,
        counts: load.counts,
        problem: null,
        publishRefused: false,
        edits: 0,
        savedEdits: 0,
        savingEdits: 0,
      };
    }),
    announceNew: emit((_, id: number) => ({ type: 'flow.created' as const, id })),
    // The canvas fits its view to the nodes' new places.
    announceLayout: emit(({ event }) => ({
      type: 'flow.laidOut' as const,
      positions: event.type === 'xstate.done.actor.layOutGraph' ? event.output : {},
    })),
    startSaving: assign(({ context }) => ({ savingEdits: context.edits, problem: null })),
    saved: assign((_, flow: Flow) => ({ flow: summaryOf(flow), revision: flow.revision })),
    savedAll: assign(({ context }) => ({ savedEdits: context.savingEdits })),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    refusePublish: assign({ publishRefused: true }),
    // A graph the server refused to publish shows its problems on the nodes; anything else above them.
    failed: assign((_, error: unknown) =>
      problemOf(error).code === 'flow_invalid'
        ? { publishRefused: true, problem: null }
        : { problem: problemOf(error) },
    ),
    ask: assign((_, status: FlowStatus) => ({ requestedStatus: status })),
    select: assign((_, key: string | null) => ({ selected: key })),
    dismiss: assign({ problem: null, publishRefused: false }),
    layOut: spawnChild('layOutGraph', {
      id: 'layOutGraph',
      input: ({ context }) => ({ items: context.items }),
    }),
  },
});
const request = requestIn(builderSetup);

/** A request state that also does `action` on entry (the request owns the state's `entry`). */
function withEntry<Parts extends { entry: unknown }>(action: 'startSaving', parts: Parts) {
  return { ...parts, entry: [action, parts.entry] as unknown as Parts['entry'] };
}

/** The edit transitions of a state where the marketer may edit: each applies, then goes to `target`. */
const EDITS = (target: string | undefined) =>
  Object.fromEntries(
    [
      'node.add',
      'node.move',
      'edge.connect',
      'edge.disconnect',
      'node.delete',
      'node.settings',
      'flow.fields',
      'undo',
      'redo',
      'xstate.done.actor.layOutGraph',
    ].map((type) => [
      type,
      {
        guard: 'changes',
        target,
        actions: type === 'xstate.done.actor.layOutGraph' ? ['edit', 'announceLayout'] : 'edit',
      },
    ]),
  ) as Record<
    FlowEditCommand['type'],
    { guard: 'changes'; target: string | undefined; actions: 'edit' | ('edit' | 'announceLayout')[] }
  >;

/** A save's outcome: saved (or dirty, edited meanwhile); a 409 is the conflict; anything else keeps the edits. */
const saveOutcome = {
  done: [
    {
      guard: 'editedSinceSaving' as const,
      target: 'dirty',
      actions: [
        { type: 'saved' as const, params: ({ event }: { event: { output: Flow } }) => event.output },
        'savedAll' as const,
      ],
    },
    {
      target: 'saved',
      actions: [
        { type: 'saved' as const, params: ({ event }: { event: { output: Flow } }) => event.output },
        'savedAll' as const,
      ],
    },
  ],
  error: [
    { guard: 'conflict' as const, target: 'conflict' },
    {
      guard: 'unsaved' as const,
      target: 'dirty',
      actions: { type: 'failed' as const, params: ({ event }: { event: { error: unknown } }) => event.error },
    },
    {
      target: 'clean',
      actions: { type: 'failed' as const, params: ({ event }: { event: { error: unknown } }) => event.error },
    },
  ],
};

/** What an idle state does besides editing: save, publish, pause and resume. */
const IDLE_COMMANDS = {
  publish: [
    {
      guard: 'publishable' as const,
      target: 'publishing',
      actions: { type: 'ask' as const, params: 'live' as const },
    },
    { actions: 'refusePublish' as const },
  ],
  pause: {
    guard: 'live' as const,
    target: 'changingStatus',
    actions: { type: 'ask' as const, params: 'paused' as const },
  },
  resume: {
    guard: 'paused' as const,
    target: 'changingStatus',
    actions: { type: 'ask' as const, params: 'live' as const },
  },
};

/**
 * The flow builder's edits (design card "flow builder edits"): the draft graph and the flow's settings,
 * edited by add, move, connect, disconnect, delete, settings, auto-layout, undo and redo (immer), checked
 * with validateFlowGraph after every edit; saved whole with the revision it was read at (`clean` → `dirty`
 * → `saving` → `saved`, or `conflict` when someone else saved first: reload, or overwrite); published,
 * paused and resumed; a flow the server answers 404 for is `notFound`. The leave warning reads `unsaved` edits. It never touches the network: loading,
 * saving and the layout are actors the wiring provides.
 */
export const flowBuilderMachine = builderSetup.createMachine({
  id: 'flowBuilder',
  context: ({ input }) => ({
    flowId: input.flowId,
    newName: input.newName,
    staffEmail: input.staffEmail,
    flow: null,
    fields: {
      name: input.newName,
      location_ids: [],
      location_group_ids: [],
      reentry: 'once',
      reentry_days: null,
    },
    items: [],
    revision: 0,
    past: [],
    future: [],
    selected: null,
    problems: [],
    unsettled: [],
    choices: NO_CHOICES,
    counts: null,
    problem: null,
    publishRefused: false,
    edits: 0,
    savedEdits: 0,
    savingEdits: 0,
    requestedStatus: null,
  }),
  initial: 'loading',
  on: {
    'node.select': { actions: { type: 'select', params: ({ event }) => event.key } },
    'problem.dismiss': { actions: 'dismiss' },
    // A layout that moved nothing (or came back outside an editing state) still fits the view.
    'xstate.done.actor.layOutGraph': { actions: 'announceLayout' },
  },
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadFlow', {
        input: ({ context }) => ({ flowId: context.flowId, newName: context.newName }),
        done: [
          {
            guard: ({ context }) => context.flowId === null,
            target: 'clean',
            actions: [
              { type: 'loaded', params: ({ event }) => event.output },
              { type: 'announceNew', params: ({ event }) => event.output.flow.id },
            ],
          },
          { target: 'clean', actions: { type: 'loaded', params: ({ event }) => event.output } },
        ],
        error: [
          // A flow the server does not know (deleted, another company's, never made) is not found, not a failure.
          { guard: ({ event }) => problemOf(event.error).status === 404, target: 'notFound' },
          {
            target: 'loadFailed',
            actions: {
              type: 'keepProblem',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
          },
        ],
      }),
    },
    loadFailed: { on: { retry: 'loading' } },
    notFound: {},
    clean: {
      tags: ['editable'],
      on: { ...EDITS('dirty'), ...IDLE_COMMANDS, 'layout.request': { actions: 'layOut' } },
    },
    dirty: {
      tags: ['editable', 'unsaved'],
      on: {
        ...EDITS(undefined),
        ...IDLE_COMMANDS,
        save: { guard: 'settled', target: 'saving' },
        'layout.request': { actions: 'layOut' },
      },
    },
    saved: {
      tags: ['editable'],
      on: { ...EDITS('dirty'), ...IDLE_COMMANDS, 'layout.request': { actions: 'layOut' } },
    },
    saving: {
      tags: ['editable', 'busy', 'unsaved'],
      ...withEntry(
        'startSaving',
        request('saveFlow', {
          input: ({ context }) => ({ id: context.flowId!, body: draftBody(context), overwrite: false }),
          on: { ...EDITS(undefined) },
          ...saveOutcome,
        }),
      ),
    },
    overwriting: {
      tags: ['editable', 'busy', 'unsaved'],
      ...withEntry(
        'startSaving',
        request('saveFlow', {
          input: ({ context }) => ({ id: context.flowId!, body: draftBody(context), overwrite: true }),
          on: { ...EDITS(undefined) },
          ...saveOutcome,
        }),
      ),
    },
    publishing: {
      tags: ['editable', 'busy'],
      ...withEntry(
        'startSaving',
        request('saveFlow', {
          input: ({ context }) => ({
            id: context.flowId!,
            body: draftBody(context, 'live'),
            overwrite: false,
          }),
          on: { ...EDITS(undefined) },
          ...saveOutcome,
        }),
      ),
    },
    changingStatus: {
      tags: ['editable', 'busy'],
      ...request('saveFlow', {
        input: ({ context }) => ({
          id: context.flowId!,
          body: { status: context.requestedStatus! },
          overwrite: false,
        }),
        on: { ...EDITS(undefined) },
        done: [
          {
            guard: 'unsaved',
            target: 'dirty',
            actions: { type: 'saved', params: ({ event }) => event.output },
          },
          { target: 'clean', actions: { type: 'saved', params: ({ event }) => event.output } },
        ],
        error: [
          {
            guard: 'unsaved',
            target: 'dirty',
            actions: {
              type: 'keepProblem',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
          },
          {
            target: 'clean',
            actions: {
              type: 'keepProblem',
              params: ({ event }: { event: { error: unknown } }) => event.error,
            },
          },
        ],
      }),
    },
    conflict: {
      tags: ['unsaved'],
      on: {
        'conflict.reload': 'loading',
        'conflict.overwrite': 'overwriting',
      },
    },
  },
});
