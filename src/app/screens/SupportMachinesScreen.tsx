import ELK from 'elkjs/lib/elk.bundled.js';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { AnyEventObject } from 'xstate';
import { MACHINE_LIST, MACHINES } from '../../machines/registry.js';
import { type ChartLayout, MachinesView } from '../../views/support/MachinesView.js';
import { machineChart, type MachineChart, stateCount } from '../../visualiser/graph.js';
import { boxesFromElk, type ElkNodeLike, fallbackBoxes, toElkGraph } from '../../visualiser/layout.js';
import { reachablePaths } from '../../visualiser/paths.js';
import { liveActors } from '../live-actors.js';
import { ROUTE_RULES } from '../routes.js';

/** Inputs for machines that cannot start without one, so their paths can be walked. */
const SAMPLE_INPUTS: Readonly<Record<string, unknown>> = {
  navigation: { routes: ROUTE_RULES, path: '/dashboard' },
};

/** Sample events for machines whose events carry what their guards read (by machine, then event type). */
const SAMPLE_EVENTS: Readonly<Record<string, Readonly<Record<string, readonly AnyEventObject[]>>>> = {
  navigation: {
    'route.changed': ['/', '/nowhere', '/dashboard'].map((path) => ({ type: 'route.changed', path })),
    'route.navigate': [{ type: 'route.navigate', path: '/dashboard' }],
    'session.changed': [{ type: 'session.changed', access: null }],
  },
};

let elk: InstanceType<typeof ELK> | null = null;

/** Lays the chart out with ELK off the render (asynchronously); a plain column layout if ELK fails. */
function useChartLayout(chart: MachineChart): ChartLayout {
  const [done, setDone] = useState<{ chart: MachineChart; layout: ChartLayout } | null>(null);
  useEffect(() => {
    let current = true;
    elk ??= new ELK();
    void elk
      .layout(toElkGraph(chart) as Parameters<InstanceType<typeof ELK>['layout']>[0])
      .then(
        (graph): ChartLayout => ({ status: 'ready', boxes: boxesFromElk(graph as ElkNodeLike), error: null }),
        (error: unknown): ChartLayout => ({
          status: 'ready',
          boxes: fallbackBoxes(chart),
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .then((layout) => {
        if (current) setDone({ chart, layout });
      });
    return () => {
      current = false;
    };
  }, [chart]);
  return done?.chart === chart ? done.layout : { status: 'loading' };
}

const subscribeLive = (listener: () => void) => liveActors.subscribe(listener);
const readLive = () => liveActors.list();

/**
 * /support/machines (platform staff): every machine of src/machines with its statechart, the live root
 * actors of this tab (highlighted as they move) and the reachable paths.
 */
export default function SupportMachinesScreen() {
  const live = useSyncExternalStore(subscribeLive, readLive);
  const [selected, setSelected] = useState(MACHINE_LIST[0]?.id ?? '');
  const [followedId, setFollowedId] = useState<string | null>(null);
  const machine = MACHINES[selected] ?? MACHINE_LIST[0]!;
  const chart = useMemo(() => machineChart(machine), [machine]);
  const paths = useMemo(
    () => reachablePaths(machine, { input: SAMPLE_INPUTS[machine.id], samples: SAMPLE_EVENTS[machine.id] }),
    [machine],
  );
  const layout = useChartLayout(chart);
  const summaries = useMemo(
    () =>
      MACHINE_LIST.map((candidate) => ({
        id: candidate.id,
        states: stateCount(candidate),
        live: live.filter((actor) => actor.machineId === candidate.id).length,
      })),
    [live],
  );
  const ofMachine = live.filter((actor) => actor.machineId === machine.id);
  // The chosen actor while it lives, else the newest one of the machine.
  const followed = ofMachine.find((actor) => actor.id === followedId) ?? ofMachine.at(-1) ?? null;
  return (
    <MachinesView
      machines={summaries}
      selected={machine.id}
      onSelect={setSelected}
      machine={machine}
      chart={chart}
      layout={layout}
      paths={paths}
      liveActors={ofMachine}
      followed={followed}
      onFollow={setFollowedId}
    />
  );
}
