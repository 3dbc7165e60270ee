import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { ROUTE_RULES } from '../../src/app/routes.js';
import {
  type Access,
  findRoute,
  matchPattern,
  type NavigationEvent,
  navigationMachine,
  normalizePath,
  pathBeforeNavigation,
  roleAllowed,
} from '../../src/machines/navigation.machine.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const OWNER: Access = { features: ['Recommendations'], role: 'owner', isStaff: false };
const ANALYST_WITHOUT_DASHBOARD: Access = { features: [], role: 'analyst', isStaff: false };
const STAFF: Access = { features: ['Recommendations'], role: 'admin', isStaff: true };

const PATHS = [
  '/',
  '/login',
  '/authenticate',
  '/dashboard',
  '/dashboard/',
  '/account',
  '/hijack',
  '/no-access',
  '/access-denied',
  '/404',
  '/nowhere',
];

/** Every event the walk tries: history changes to each path, link clicks, and each kind of user. */
const EVENTS: NavigationEvent[] = [
  ...PATHS.map((path): NavigationEvent => ({ type: 'route.changed', path })),
  { type: 'route.navigate', path: '/login' },
  { type: 'route.navigate', path: '/account' },
  { type: 'session.changed', access: null },
  { type: 'session.changed', access: OWNER },
  { type: 'session.changed', access: ANALYST_WITHOUT_DASHBOARD },
  { type: 'session.changed', access: STAFF },
];

/** The rules written out independently of the machine: where a path must be sent, or null to show it. */
function expectedRedirect(path: string, access: Access | null): string | null {
  if (path === '/') return '/login';
  const route = ROUTE_RULES.find((rule) => normalizePath(rule.pattern) === path);
  if (!route) return '/404';
  if (access === null) return null;
  if (path === '/login' || path === '/authenticate') return '/dashboard';
  if (route.feature !== null && !access.features.includes(route.feature)) return '/no-access';
  if (
    route.roles !== null &&
    !route.roles.includes(access.role) &&
    !(access.isStaff && route.roles.includes('staff'))
  )
    return '/access-denied';
  return null;
}

type NavigationSnapshot = SnapshotFrom<typeof navigationMachine>;
const INPUT = { routes: ROUTE_RULES, path: '/' };

function startSut() {
  const effects: { type: 'pushPath' | 'replacePath'; path: string }[] = [];
  const actor = createActor(
    navigationMachine.provide({
      actions: {
        pushPath: (_, { path }) => void effects.push({ type: 'pushPath', path }),
        replacePath: (_, { path }) => void effects.push({ type: 'replacePath', path }),
      },
    }),
    { input: INPUT },
  );
  actor.start();
  return { actor, effects };
}

type Sut = ReturnType<typeof startSut>;

function assertMeaning(state: NavigationSnapshot, sut: Sut): void {
  const live = sut.actor.getSnapshot();
  expect(live.value).toEqual(state.value);
  expect(live.context).toEqual(state.context);
  const { path, access, redirectTo } = state.context;
  expect(path).toBe(normalizePath(path));
  const expected = expectedRedirect(path, access);
  if (state.matches('showing')) {
    expect(state.hasTag('ready')).toBe(true);
    expect(expected).toBeNull();
    expect(redirectTo).toBeNull();
  } else if (state.matches('redirecting')) {
    expect(state.hasTag('loading')).toBe(true);
    expect(redirectTo).toBe(expected);
    // The browser is sent there, replacing the refused entry (so Back does not return to it).
    expect(sut.effects.filter((effect) => effect.type === 'replacePath').at(-1)).toEqual({
      type: 'replacePath',
      path: expected,
    });
  } else {
    throw new Error(`No meaning written for state ${JSON.stringify(state.value)}`);
  }
}

describe('navigation machine (model-based)', () => {
  const model = createTestModel(navigationMachine, { events: EVENTS, input: INPUT });
  const { reached, transitions } = everyTransition(navigationMachine, model);

  it('reaches every resting state', () => {
    const values = new Set(reached.map((path) => valueKey(path.state)));
    // checking only decides; no snapshot rests in it.
    expect([...values].sort()).toEqual(['redirecting', 'showing']);
  });

  it('shows every route to someone and never shows an unknown path', () => {
    const shown = new Set(
      reached.filter((path) => path.state.matches('showing')).map((path) => path.state.context.path),
    );
    for (const rule of ROUTE_RULES) expect(shown).toContain(rule.pattern);
    expect(shown).not.toContain('/nowhere');
    expect(shown).not.toContain('/');
  });

  const bySource = groupBy(transitions, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, paths] of bySource) {
    it(`takes each of the ${paths.length} transitions out of ${source}`, async () => {
      for (const path of paths) {
        let sut: Sut | null = null;
        let previous: NavigationSnapshot | null = null;
        const execute = ({ event, state }: { event: NavigationEvent; state: NavigationSnapshot }) => {
          if ((event.type as string) === 'xstate.init') {
            sut = startSut();
          } else {
            const running = sut;
            if (!running || !previous) throw new Error('The walk sent an event before starting');
            const before = running.effects.length;
            running.actor.send(event);
            if (event.type === 'route.navigate') {
              // Before each navigation: the sign-in page is not re-entered while signed in.
              expect(running.effects.slice(before)).toEqual([
                { type: 'pushPath', path: pathBeforeNavigation(event.path, previous.context.access) },
              ]);
              if (previous.context.access && event.path === '/login')
                expect(running.effects.at(-1)?.path).toBe('/dashboard');
              expect(state.value).toEqual(previous.value);
            }
          }
          previous = state;
        };
        const events = Object.fromEntries(
          ['xstate.init', ...new Set(EVENTS.map((event) => event.type))].map((type) => [type, execute]),
        );
        await model.testPath(path, {
          events,
          states: { '*': (state) => assertMeaning(state, sut as unknown as Sut) },
        });
        (sut as Sut | null)?.actor.stop();
      }
    });
  }
});

describe('route matching', () => {
  it('matches parameters and trailing slashes', () => {
    expect(matchPattern('/flows/builder/:id', '/flows/builder/42')).toEqual({ id: '42' });
    expect(matchPattern('/flows/builder/:id', '/flows/builder/')).toBeNull();
    expect(matchPattern('/dashboard', '/dashboard/')).toEqual({});
    expect(findRoute(ROUTE_RULES, '/account?tab=tokens')?.pattern).toBe('/account');
  });

  it('lets staff and listed roles in', () => {
    expect(roleAllowed(['staff'], STAFF)).toBe(true);
    expect(roleAllowed(['staff'], OWNER)).toBe(false);
    expect(roleAllowed(['owner', 'admin'], OWNER)).toBe(true);
    expect(roleAllowed(null, ANALYST_WITHOUT_DASHBOARD)).toBe(true);
  });

  it('keeps every redirect target open to everyone, so redirects cannot loop', () => {
    for (const target of ['/login', '/404', '/no-access', '/access-denied']) {
      const rule = findRoute(ROUTE_RULES, target);
      expect(rule, target).not.toBeNull();
      expect(rule?.feature, target).toBeNull();
      expect(rule?.roles, target).toBeNull();
    }
  });
});
