import { assign, type DoneActorEvent, type ErrorActorEvent, setup } from 'xstate';
import type { Box } from '../visualiser/layout.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

/** Where each state of a chart is drawn, by state id (relative to its parent state). */
export type ChartBoxes = Readonly<Record<string, Box>>;

/** What the layout actor is given: the machine whose chart it lays out. */
export interface LayoutInput {
  machineId: string;
}

/** What the screen starts with: the machine shown first. */
export interface SupportMachinesInput {
  machineId: string;
}

/** What the /support/machines view sends. */
export type SupportMachinesCommand =
  /** Show another machine's chart and paths. */
  | { type: 'machine.select'; machineId: string }
  /** Highlight the states of this live actor (its event-log id, e.g. `navigation#2`). */
  | { type: 'actor.follow'; actorId: string };

/** Everything the machine handles: the view's commands and the layout's result. */
export type SupportMachinesEvent =
  | SupportMachinesCommand
  | DoneActorEvent<ChartBoxes, 'layOutChart'>
  | ErrorActorEvent<unknown, 'layOutChart'>;

/** What the screen shows: the machine, the live actor followed, and the chart's layout once known. */
export interface SupportMachinesContext {
  /** The id of the machine whose chart is shown. */
  machineId: string;
  /** The live actor chosen to follow; null (or one that stopped) follows the machine's newest actor. */
  followedId: string | null;
  /** The chart's boxes from ELK, or null until it answers. */
  boxes: ChartBoxes | null;
  /** Why ELK failed (the view then draws a plain layout), or null. */
  layoutError: string | null;
}

/** The message of whatever a failed layout threw. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The /support/machines screen's types, actors, actions and guards.
const supportMachinesSetup = setup({
  types: {
    context: {} as SupportMachinesContext,
    events: {} as SupportMachinesEvent,
    input: {} as SupportMachinesInput,
  },
  actors: {
    /** Lays the machine's chart out with ELK (provided by src/app; slow for big machines). */
    layOutChart: placeholder<ChartBoxes, LayoutInput>(),
  },
  actions: {
    showMachine: assign((_, params: { machineId: string }) => ({
      machineId: params.machineId,
      followedId: null,
      boxes: null,
      layoutError: null,
    })),
    follow: assign((_, params: { actorId: string }) => ({ followedId: params.actorId })),
    keepBoxes: assign((_, params: { boxes: ChartBoxes }) => ({ boxes: params.boxes, layoutError: null })),
    keepLayoutError: assign((_, params: { error: unknown }) => ({ layoutError: messageOf(params.error) })),
  },
  guards: {
    otherMachine: ({ context }, params: { machineId: string }) => params.machineId !== context.machineId,
  },
});
const request = requestIn(supportMachinesSetup);

/**
 * The /support/machines screen: which machine is shown and which live actor is followed, and the chart's
 * ELK layout, computed off the render by the `layOutChart` actor: `layingOut` (tag `busy`) until it answers,
 * then `laidOut` with its boxes or `layoutFailed` with the reason. Choosing another machine lays it out anew.
 */
export const supportMachinesMachine = supportMachinesSetup.createMachine({
  id: 'supportMachines',
  context: ({ input }) => ({ machineId: input.machineId, followedId: null, boxes: null, layoutError: null }),
  initial: 'layingOut',
  on: {
    'machine.select': {
      guard: { type: 'otherMachine', params: ({ event }) => ({ machineId: event.machineId }) },
      target: '.layingOut',
      reenter: true,
      actions: { type: 'showMachine', params: ({ event }) => ({ machineId: event.machineId }) },
    },
    'actor.follow': { actions: { type: 'follow', params: ({ event }) => ({ actorId: event.actorId }) } },
  },
  states: {
    layingOut: {
      tags: ['busy'],
      ...request('layOutChart', {
        input: ({ context }) => ({ machineId: context.machineId }),
        done: {
          target: 'laidOut',
          actions: { type: 'keepBoxes', params: ({ event }) => ({ boxes: event.output }) },
        },
        error: {
          target: 'layoutFailed',
          actions: { type: 'keepLayoutError', params: ({ event }) => ({ error: event.error }) },
        },
      }),
    },
    laidOut: {},
    layoutFailed: {},
  },
});
