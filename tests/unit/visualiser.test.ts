import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { createAppActor } from '../../src/app/actors.js';
import { liveActors } from '../../src/app/live-actors.js';
import { createEventLog } from '../../src/services/event-log.js';
import { ROUTE_RULES } from '../../src/app/routes.js';
import { accountSettingsMachine } from '../../src/machines/account-settings.machine.js';
import { authMachine } from '../../src/machines/auth.machine.js';
import { companyUsersMachine } from '../../src/machines/company-users.machine.js';
import { locationGroupCreateMachine } from '../../src/machines/location-group-create.machine.js';
import { MACHINE_LIST } from '../../src/machines/registry.js';
import { navigationMachine } from '../../src/machines/navigation.machine.js';
import {
  activeStateIds,
  edgeLabel,
  guardName,
  machineChart,
  mergedEdges,
  stateCount,
  stateValueText,
} from '../../src/visualiser/graph.js';
import { boxesFromElk, fallbackBoxes, toElkGraph } from '../../src/visualiser/layout.js';
import { reachablePaths } from '../../src/visualiser/paths.js';

/** A small machine with a parallel state, a delayed and an eventless transition and a final state. */
const sample = createMachine({
  id: 'sample',
  initial: 'idle',
  states: {
    idle: { on: { START: { target: 'running', guard: 'canStart' } } },
    running: {
      type: 'parallel',
      states: {
        upload: {
          initial: 'sending',
          states: { sending: { after: { 500: 'sent' } }, sent: { type: 'final' } },
        },
        view: { initial: 'open', states: { open: { on: { CLOSE: 'closed' } }, closed: {} } },
      },
      on: { STOP: 'done', PING: {} },
    },
    done: { always: { target: 'idle' } },
  },
}).provide({ guards: { canStart: () => true } });

describe('machine charts', () => {
  it('converts every machine of the registry without throwing', () => {
    for (const machine of MACHINE_LIST) {
      const chart = machineChart(machine);
      expect(chart.machineId).toBe(machine.id);
      expect(chart.nodes[0]?.id).toBe(machine.id);
      expect(chart.nodes.length, machine.id).toBeGreaterThan(1);
      const ids = new Set(chart.nodes.map((node) => node.id));
      // Every edge joins two drawn states, and every state but the root has a drawn parent before it.
      for (const edge of chart.edges) {
        expect(ids, `${machine.id} ${edge.id}`).toContain(edge.source);
        expect(ids, `${machine.id} ${edge.id}`).toContain(edge.target);
      }
      const seen = new Set<string>();
      for (const node of chart.nodes) {
        if (node.parentId !== null) expect(seen).toContain(node.parentId);
        seen.add(node.id);
      }
      expect(stateCount(machine)).toBe(chart.nodes.length - 1);
      // The layouts take every state.
      expect(fallbackBoxes(chart).size).toBe(chart.nodes.length);
      expect(JSON.stringify(toElkGraph(chart))).toContain(`"${machine.id}"`);
    }
  });

  it('draws auth with every state and its initial one marked', () => {
    const chart = machineChart(authMachine);
    const top = chart.nodes.filter((node) => node.parentId === 'auth').map((node) => node.key);
    expect(top.sort()).toEqual(Object.keys(authMachine.root.states).sort());
    expect(chart.nodes.filter((node) => node.initial).map((node) => node.key)).toEqual([
      authMachine.root.initial?.target[0]?.key,
    ]);
    expect(chart.edges.length).toBeGreaterThan(top.length);
  });

  it('keeps nested machines nested: compound states contain their children, one of them initial', () => {
    for (const machine of [locationGroupCreateMachine, companyUsersMachine]) {
      const chart = machineChart(machine);
      const nested = chart.nodes.filter((node) => node.depth >= 2);
      expect(nested.length, machine.id).toBeGreaterThan(0);
      for (const node of nested) expect(node.id.startsWith(`${node.parentId}.`)).toBe(true);
      const compound = chart.nodes.filter((node) => node.kind === 'compound' && node.depth >= 1);
      expect(compound.length, machine.id).toBeGreaterThan(0);
      for (const parent of compound) {
        const children = chart.nodes.filter((node) => node.parentId === parent.id);
        expect(
          children.filter((child) => child.initial),
          parent.id,
        ).toHaveLength(1);
      }
    }
    const deep = machineChart(locationGroupCreateMachine).nodes.find(
      (node) => node.id === 'locationGroupCreate.visible.saving',
    );
    expect(deep).toMatchObject({ kind: 'compound', depth: 2, parentId: 'locationGroupCreate.visible' });
  });

  it('labels navigation transitions with their events and guards', () => {
    const chart = machineChart(navigationMachine);
    const labels = chart.edges.map((edge) => edge.label);
    expect(labels).toContain('route.changed');
    expect(labels).toContain('session.changed');
    for (const guard of ['isRoot', 'isUnknown', 'isSignInWhileSignedIn', 'featureMissing', 'roleMissing'])
      expect(labels).toContain(`always [${guard}]`);
    const guarded = chart.edges.find((edge) => edge.guard === 'roleMissing');
    expect(guarded).toMatchObject({
      source: 'navigation.checking',
      target: 'navigation.redirecting',
      kind: 'always',
    });
    // Events handled without leaving a state are listed in it.
    expect(chart.nodes[0]?.internal).toEqual(
      expect.arrayContaining(['navbar.toggle', 'navbar.close', 'route.navigate']),
    );
    expect(chart.nodes.find((node) => node.id === 'navigation.checking')?.initial).toBe(true);
    expect(chart.nodes.find((node) => node.id === 'navigation.showing')?.tags).toEqual(['ready']);
  });

  it('marks parallel states, their regions, final states and delayed and eventless transitions', () => {
    const chart = machineChart(sample);
    const byId = new Map(chart.nodes.map((node) => [node.id, node]));
    expect(byId.get('sample.running')?.kind).toBe('parallel');
    expect(byId.get('sample.running.upload')).toMatchObject({ region: true, initial: true });
    expect(byId.get('sample.running.view')).toMatchObject({ region: true, initial: true });
    expect(byId.get('sample.running.upload.sent')?.kind).toBe('final');
    expect(byId.get('sample.running')?.internal).toEqual(['PING']);
    const labels = chart.edges.map((edge) => [edge.source, edge.label, edge.target]);
    expect(labels).toContainEqual(['sample.idle', 'START [canStart]', 'sample.running']);
    expect(labels).toContainEqual([
      'sample.running.upload.sending',
      'after 500 ms',
      'sample.running.upload.sent',
    ]);
    expect(labels).toContainEqual(['sample.done', 'always', 'sample.idle']);
    expect(labels).toContainEqual(['sample.running.view.open', 'CLOSE', 'sample.running.view.closed']);
  });

  it('names the active states of a value, parallel ones included, and writes the value as replay does', () => {
    expect(activeStateIds(navigationMachine, 'showing')).toEqual(['navigation', 'navigation.showing']);
    expect(activeStateIds(sample, { running: { upload: 'sending', view: 'open' } })).toEqual([
      'sample',
      'sample.running',
      'sample.running.upload',
      'sample.running.upload.sending',
      'sample.running.view',
      'sample.running.view.open',
    ]);
    expect(stateValueText('idle')).toBe('idle');
    expect(stateValueText({ signedIn: 'ready' })).toBe('signedIn.ready');
    expect(stateValueText({ a: 'x', b: 'y' })).toBe('{"a":"x","b":"y"}');
  });

  it('merges the transitions between two states into one arrow with one label', () => {
    const merged = mergedEdges(machineChart(navigationMachine));
    const label = (source: string, target: string) =>
      merged.find((edge) => edge.source === source && edge.target === target)?.label;
    expect(label('navigation.checking', 'navigation.redirecting')).toBe(
      'always [isRoot | isUnknown | isSignInWhileSignedIn | isHomeOfAnother | featureMissing | roleMissing]',
    );
    expect(label('navigation.checking', 'navigation.showing')).toBe('always');
    expect(label('navigation', 'navigation.checking')).toBe('route.changed | session.changed');
    expect(merged.find((edge) => edge.target === 'navigation.showing')?.kind).toBe('always');
  });

  it('names guards, combined ones included', () => {
    expect(guardName(undefined)).toBeNull();
    expect(guardName('isRoot')).toBe('isRoot');
    expect(guardName({ type: 'hasRole', params: { role: 'owner' } })).toBe('hasRole');
    expect(edgeLabel('event', 'GO', 'ok')).toBe('GO [ok]');
    expect(edgeLabel('after', '1000', null)).toBe('after 1000 ms');
  });

  it('reads positions back from an ELK layout', () => {
    const boxes = boxesFromElk({
      id: '__canvas',
      children: [{ id: 'a', x: 1, y: 2, width: 30, height: 40, children: [{ id: 'a.b', x: 5, y: 6 }] }],
    });
    expect(boxes.get('a')).toEqual({ x: 1, y: 2, width: 30, height: 40 });
    expect(boxes.get('a.b')).toEqual({ x: 5, y: 6, width: 150, height: 48 });
  });
});

describe('reachable paths', () => {
  it('walks each machine of the registry or says why not, within bounds', () => {
    for (const machine of MACHINE_LIST) {
      const result = reachablePaths(machine);
      if (result.computed) {
        expect(result.paths.length, machine.id).toBeGreaterThan(0);
        expect(result.paths[0]?.events, machine.id).toEqual([]);
      } else {
        expect(result.reason.length, machine.id).toBeGreaterThan(0);
      }
    }
  });

  it('reports a machine that cannot start without its input as not computed, and walks it with one', () => {
    const without = reachablePaths(navigationMachine);
    expect(without.computed).toBe(false);
    const withInput = reachablePaths(navigationMachine, {
      input: { routes: ROUTE_RULES, path: '/dashboard' },
    });
    expect(withInput.computed).toBe(true);
    expect(withInput.paths.map((path) => path.state)).toContain('showing');
  });

  it('lists the shortest events to each state of a parallel machine', () => {
    const result = reachablePaths(sample);
    expect(result.computed).toBe(true);
    const paths = result.computed ? result.paths : [];
    expect(paths[0]).toEqual({ events: [], state: 'idle' });
    expect(paths).toContainEqual({
      events: ['START'],
      state: 'running.{"upload":"sending","view":"open"}',
    });
    expect(paths).toContainEqual({
      events: ['START', 'CLOSE'],
      state: 'running.{"upload":"sending","view":"closed"}',
    });
  });

  it('lists a path to each of the five states of the account settings form, past guards and actions a sample cannot satisfy', () => {
    // Written from the machine's definition: the load answers or fails; a valid draft saves; a save that
    // changed the language applies it (a settings form: its calls are `load`, `save` and `apply`).
    expect(reachablePaths(accountSettingsMachine)).toEqual({
      computed: true,
      paths: [
        { events: [], state: 'loading' },
        { events: ['xstate.done.actor.load'], state: 'editing' },
        { events: ['xstate.error.actor.load'], state: 'failed' },
        { events: ['xstate.done.actor.load', 'settings.save [savable]'], state: 'saving' },
        {
          events: [
            'xstate.done.actor.load',
            'settings.save [savable]',
            'xstate.done.actor.save [appliesAfterSave]',
          ],
          state: 'applying',
        },
      ],
    });
  });

  it('walks auth past its start', () => {
    const result = reachablePaths(authMachine, { input: { language: 'en' } });
    expect(result.computed).toBe(true);
    expect(result.computed && result.paths.length).toBeGreaterThan(1);
  });
});

describe('live actors', () => {
  it('lists a root actor the app created from its start until it stops, named as the event log names it', () => {
    const log = createEventLog({ clock: () => 0 });
    const seen: string[][] = [];
    const subscription = liveActors.changes().subscribe((actors) => seen.push(actors.map((live) => live.id)));
    const actor = createAppActor(sample, { log });
    expect(liveActors.list().some((live) => live.actor === actor)).toBe(false);
    actor.start();
    const entry = liveActors.list().find((live) => live.actor === actor);
    expect(entry).toMatchObject({ machineId: 'sample' });
    expect(entry?.id).toMatch(/^sample#\d+$/);
    actor.send({ type: 'START' });
    expect(log.snapshot().at(-1)?.actor).toBe(entry?.id);
    actor.stop();
    expect(liveActors.list().some((live) => live.actor === actor)).toBe(false);
    subscription.unsubscribe();
    expect(seen.map((ids) => ids.includes(entry?.id ?? ''))).toEqual([false, true, false]);
  });
});
