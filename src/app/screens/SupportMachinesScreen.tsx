import { useSelector } from '@xstate/react';
import { useMemo, useSyncExternalStore } from 'react';
import { type AnyEventObject, createEmptyActor } from 'xstate';
import { NO_LOCATION_FILTER } from '../../machines/file-paging.machine.js';
import { MACHINE_LIST, MACHINES } from '../../machines/registry.js';
import { MachinesView } from '../../views/support/MachinesView.js';
import { machineChart, stateCount } from '../../visualiser/graph.js';
import { reachablePaths } from '../../visualiser/paths.js';
import { useAppActor } from '../actors.js';
import { liveActors } from '../live-actors.js';
import { ROUTE_RULES } from '../routes.js';
import { supportMachinesLogic } from '../wiring/support-machines.js';

/** Inputs for machines that cannot start without one, so their paths can be walked. */
const SAMPLE_INPUTS: Readonly<Record<string, unknown>> = {
  auth: { language: 'en' },
  csvUpload: { kind: 'subscriber' },
  customerProfile: { kind: 'subscriber', id: 1, hashid: 'sample', pos_id: '' },
  filePaging: { kind: 'subscriber', filter: NO_LOCATION_FILTER },
  navigation: { routes: ROUTE_RULES, path: '/dashboard' },
  rfmDashboard: { filter: NO_LOCATION_FILTER },
  supportMachines: { machineId: 'navigation' },
  verifySender: { token: 'sample' },
  // The sample config is never used: the walk starts no request.
  tokenExpiry: {
    config: {
      issuer: '',
      authorization_endpoint: '',
      token_endpoint: '',
      end_session_endpoint: null,
      client_id: '',
      redirect_uri: '',
      scope: '',
      resource: '',
    },
    listener: createEmptyActor(),
    expiresAt: 600_000,
    now: 0,
  },
};

/** Sample events for machines whose events carry what their guards read (by machine, then event type). */
const SAMPLE_EVENTS: Readonly<Record<string, Readonly<Record<string, readonly AnyEventObject[]>>>> = {
  navigation: {
    'route.changed': ['/', '/nowhere', '/dashboard'].map((path) => ({ type: 'route.changed', path })),
    'route.navigate': [{ type: 'route.navigate', path: '/dashboard' }],
    'session.changed': [{ type: 'session.changed', access: null }],
  },
};

const subscribeLive = (listener: () => void) => liveActors.subscribe(listener);
const readLive = () => liveActors.list();

/**
 * /support/machines (platform staff): every machine of src/machines with its statechart, the live root
 * actors of this tab (highlighted as they move) and the reachable paths.
 */
export default function SupportMachinesScreen() {
  const live = useSyncExternalStore(subscribeLive, readLive);
  const actor = useAppActor(supportMachinesLogic, { input: { machineId: MACHINE_LIST[0]?.id ?? '' } });
  const selected = useSelector(actor, (state) => state.context.machineId);
  const machine = MACHINES[selected] ?? MACHINE_LIST[0]!;
  const chart = useMemo(() => machineChart(machine), [machine]);
  const paths = useMemo(
    () => reachablePaths(machine, { input: SAMPLE_INPUTS[machine.id], samples: SAMPLE_EVENTS[machine.id] }),
    [machine],
  );
  const summaries = useMemo(
    () =>
      MACHINE_LIST.map((candidate) => ({
        id: candidate.id,
        states: stateCount(candidate),
        live: live.filter((entry) => entry.machineId === candidate.id).length,
      })),
    [live],
  );
  const ofMachine = useMemo(() => live.filter((entry) => entry.machineId === machine.id), [live, machine]);
  return (
    <MachinesView
      actor={actor}
      machines={summaries}
      machine={machine}
      chart={chart}
      paths={paths}
      liveActors={ofMachine}
    />
  );
}
