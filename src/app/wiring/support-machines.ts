import ELK from 'elkjs/lib/elk.bundled.js';
import { fromPromise } from 'xstate';
import { MACHINES } from '../../machines/registry.js';
import {
  type ChartBoxes,
  type LayoutInput,
  supportMachinesMachine,
} from '../../machines/support-machines.machine.js';
import { machineChart } from '../../visualiser/graph.js';
import { boxesFromElk, type ElkNodeLike, toElkGraph } from '../../visualiser/layout.js';

// One ELK instance for the page: creating it sets up its worker-less engine, which is not free.
let elk: InstanceType<typeof ELK> | null = null;

/** The registered machine's chart laid out by ELK, as boxes by state id. */
function layOut(input: LayoutInput): Promise<ChartBoxes> {
  const machine = MACHINES[input.machineId];
  if (!machine) return Promise.reject(new Error(`No machine is registered as ${input.machineId}`));
  elk ??= new ELK();
  return elk
    .layout(toElkGraph(machineChart(machine)) as Parameters<InstanceType<typeof ELK>['layout']>[0])
    .then((graph) => Object.fromEntries(boxesFromElk(graph as ElkNodeLike)));
}

/** The /support/machines screen's machine with the ELK layout of the registered machines' charts. */
export const supportMachinesLogic = supportMachinesMachine.provide({
  actors: {
    layOutChart: fromPromise<ChartBoxes, LayoutInput>(({ input }) => layOut(input)),
  },
});
