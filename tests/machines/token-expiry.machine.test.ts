import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import {
  createActor,
  createEmptyActor,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type SnapshotFrom,
} from 'xstate';
import {
  callbackMatches,
  EXPIRY_MARGIN_MS,
  expiresAtOf,
  MIN_RENEW_DELAY_MS,
  SILENT_RENEW_TIMEOUT_MS,
  type SilentAuthorization,
  type TokenData,
  type TokenExpiryEvent,
  type TokenExpiryInput,
  tokenExpiryMachine,
  type TokenReceipt,
  type TokenRenewedEvent,
} from '../../src/machines/token-expiry.machine.js';
import type { AuthConfig } from '../../src/schemas/accounts.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const CONFIG: AuthConfig = {
  issuer: 'http://localhost:3000/oidc',
  authorization_endpoint: 'http://localhost:3000/oidc/auth',
  token_endpoint: 'http://localhost:3000/oidc/token',
  end_session_endpoint: null,
  client_id: 'regulars-web',
  redirect_uri: 'http://localhost:3000/authenticate',
  scope: 'openid',
  resource: 'http://localhost:3000/api',
};

const T0 = 1_700_000_000_000;
/** The model's input; the system under test gets its own recording listener. */
const INPUT: TokenExpiryInput = {
  config: CONFIG,
  listener: createEmptyActor(),
  expiresAt: T0 + 600_000,
  now: T0,
};
const PKCE = { verifier: 'A1'.repeat(32), state: 'SILENT', returnTo: '/account' };
const LASTING: TokenData = { access_token: 'lasting', token_type: 'Bearer' };
const FRESH: TokenData = { access_token: 'fresh', token_type: 'Bearer', expires_in: 900 };

function authorization(callback: SilentAuthorization['callback']): SilentAuthorization {
  return { callback, pkce: PKCE, now: T0 + 600_500 };
}

/** Every event the walk tries, with the outcomes of the iframe, the exchange and the storage write. */
const EVENTS: TokenExpiryEvent[] = [
  { type: 'token.expired' },
  { type: 'renewal.timedOut' },
  {
    type: 'xstate.done.actor.authorizeSilently',
    output: authorization({ code: 'CODE', state: 'SILENT', error: null }),
    actorId: 'authorizeSilently',
  },
  {
    type: 'xstate.done.actor.authorizeSilently',
    output: authorization({ code: null, state: 'SILENT', error: 'login_required' }),
    actorId: 'authorizeSilently',
  },
  {
    type: 'xstate.done.actor.authorizeSilently',
    output: authorization({ code: 'CODE', state: 'SOMEONE-ELSE', error: null }),
    actorId: 'authorizeSilently',
  },
  { type: 'xstate.error.actor.authorizeSilently', error: 'iframe blocked', actorId: 'authorizeSilently' },
  {
    type: 'xstate.done.actor.exchangeCode',
    output: { tokenData: FRESH, receivedAt: T0 + 601_000 } satisfies TokenReceipt,
    actorId: 'exchangeCode',
  },
  {
    type: 'xstate.done.actor.exchangeCode',
    output: { tokenData: LASTING, receivedAt: T0 + 601_000 } satisfies TokenReceipt,
    actorId: 'exchangeCode',
  },
  {
    type: 'xstate.done.actor.exchangeCode',
    output: { tokenData: null, receivedAt: T0 + 601_000 } satisfies TokenReceipt,
    actorId: 'exchangeCode',
  },
  { type: 'xstate.error.actor.exchangeCode', error: 'offline', actorId: 'exchangeCode' },
  { type: 'xstate.done.actor.saveToken', output: undefined, actorId: 'saveToken' },
  { type: 'xstate.error.actor.saveToken', error: 'quota', actorId: 'saveToken' },
];

type ExpirySnapshot = SnapshotFrom<typeof tokenExpiryMachine>;

/** The system under test: the real machine with recording stubs, telling renewals to a recording listener. */
function startSut() {
  const started: { src: string; input: unknown }[] = [];
  const heard: TokenRenewedEvent[] = [];
  const pending = <Output, Input>(src: string) =>
    fromPromise<Output, Input>(({ input }) => {
      started.push({ src, input });
      return new Promise<Output>(() => undefined);
    });
  const listener = createActor(
    fromCallback<TokenRenewedEvent>(({ receive }) => receive((event) => void heard.push(event))),
  );
  listener.start();
  const machine = tokenExpiryMachine.provide({
    actors: {
      authorizeSilently: pending('authorizeSilently'),
      exchangeCode: pending('exchangeCode'),
      saveToken: pending('saveToken'),
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { ...INPUT, listener }, clock });
  actor.start();
  return {
    actor,
    listener,
    clock,
    started,
    heard,
    snapshot: () => actor.getSnapshot(),
    lastStarted: (src: string) => started.filter((entry) => entry.src === src).at(-1),
    stop: () => {
      actor.stop();
      listener.stop();
    },
  };
}

type Sut = ReturnType<typeof startSut>;

function assertMeaning(state: ExpirySnapshot, sut: Sut): void {
  const live = sut.snapshot();
  const { context } = state;
  expect(live.value).toEqual(state.value);
  expect({ ...live.context, listener: null }).toEqual({ ...context, listener: null });
  expect(live.status).toBe(state.status);
  switch (state.value) {
    case 'waiting':
      expect(state.hasTag('waiting')).toBe(true);
      expect(context.expiresAt).not.toBeNull();
      break;
    case 'authorizing':
      expect(state.hasTag('renewing')).toBe(true);
      expect(sut.lastStarted('authorizeSilently')?.input).toEqual({ config: CONFIG });
      break;
    case 'exchanging':
      expect(callbackMatches(context.callback, context.pkce)).toBe(true);
      expect(sut.lastStarted('exchangeCode')?.input).toEqual({
        config: CONFIG,
        code: 'CODE',
        verifier: PKCE.verifier,
      });
      break;
    case 'storing':
      expect(context.tokenData).not.toBeNull();
      // expires_at = now + expires_in s − 2 minutes, or none without expires_in (spec section 4).
      expect(context.expiresAt).toBe(
        context.tokenData?.expires_in === undefined
          ? null
          : context.now + context.tokenData.expires_in * 1000 - EXPIRY_MARGIN_MS,
      );
      expect(sut.lastStarted('saveToken')?.input).toEqual({
        tokenData: context.tokenData,
        expiresAt: context.expiresAt,
      });
      break;
    case 'lasting':
      expect(context.expiresAt).toBeNull();
      expect(sut.heard.at(-1)).toEqual({ type: 'token.renewed', tokenData: LASTING, expiresAt: null });
      break;
    case 'gaveUp':
      expect(state.status).toBe('done');
      expect(context.failure).not.toBeNull();
      expect(live.output).toEqual({ failure: context.failure });
      break;
    default:
      throw new Error(`No meaning written for state ${JSON.stringify(state.value)}`);
  }
}

/** Timers are taken by moving the simulated clock, which also checks how long each one waits. */
function deliver(sut: Sut, before: ExpirySnapshot, event: TokenExpiryEvent): void {
  if (event.type === 'token.expired') {
    const { expiresAt, now } = before.context;
    const delay = Math.max(MIN_RENEW_DELAY_MS, (expiresAt ?? now) - now);
    sut.clock.increment(delay - 1);
    expect(sut.snapshot().value).toBe('waiting');
    sut.clock.increment(1);
    return;
  }
  if (event.type === 'renewal.timedOut') {
    sut.clock.increment(SILENT_RENEW_TIMEOUT_MS - 1);
    expect(sut.snapshot().value).toBe('authorizing');
    sut.clock.increment(1);
    return;
  }
  sut.actor.send(event);
}

function assertTransition(
  before: ExpirySnapshot,
  event: TokenExpiryEvent,
  after: ExpirySnapshot,
  sut: Sut,
  heardBefore: number,
) {
  const heard = sut.heard.slice(heardBefore);
  if (before.matches('storing') && after.matches('waiting')) {
    expect(heard).toEqual([{ type: 'token.renewed', tokenData: FRESH, expiresAt: after.context.expiresAt }]);
    expect(after.context.expiresAt).toBe(expiresAtOf(FRESH, T0 + 601_000));
  } else if (before.matches('storing') && after.matches('lasting')) {
    expect(heard).toEqual([{ type: 'token.renewed', tokenData: LASTING, expiresAt: null }]);
  } else {
    expect(heard).toEqual([]);
  }
  if (
    event.type === 'xstate.done.actor.authorizeSilently' &&
    event.output.callback.error === 'login_required'
  ) {
    expect(after.context.failure).toBe('loginRequired');
  }
  if (event.type === 'renewal.timedOut') expect(after.context.failure).toBe('timedOut');
}

describe('token-expiry machine (model-based)', () => {
  const model = createTestModel(tokenExpiryMachine, { events: EVENTS, input: INPUT });
  const { reached, transitions } = everyTransition(tokenExpiryMachine, model);

  it('reaches every state of the machine', () => {
    const values = new Set(reached.map((path) => valueKey(path.state)));
    expect([...values].sort()).toEqual(Object.keys(tokenExpiryMachine.root.states).sort());
  });

  it('waits from the input expiresAt and now, not the wall clock', () => {
    const sut = startSut();
    sut.clock.increment(600_000 - 1);
    expect(sut.snapshot().value).toBe('waiting');
    sut.clock.increment(1);
    expect(sut.snapshot().value).toBe('authorizing');
    sut.stop();
  });

  it('never waits less than the floor, even for a token shorter than the margin', () => {
    const snapshot = tokenExpiryMachine.resolveState({
      value: 'waiting',
      context: {
        ...INPUT,
        expiresAt: T0 - 60_000,
        callback: null,
        pkce: null,
        tokenData: null,
        failure: null,
      },
    });
    const delay = tokenExpiryMachine.implementations.delays.untilExpiry;
    expect(
      typeof delay === 'function' ? delay({ context: snapshot.context } as never, undefined) : delay,
    ).toBe(MIN_RENEW_DELAY_MS);
  });

  const bySource = groupBy(transitions, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, paths] of bySource) {
    it(`keeps each state's meaning and each transition's effects through the ${paths.length} transitions out of ${source}`, async () => {
      for (const path of paths) {
        let sut: Sut | null = null;
        let previous: ExpirySnapshot | null = null;
        const execute = ({ event, state }: { event: TokenExpiryEvent; state: ExpirySnapshot }) => {
          if ((event.type as string) === 'xstate.init') {
            sut = startSut();
          } else {
            const running = sut;
            if (!running || !previous) throw new Error('The walk sent an event before starting');
            const heardBefore = running.heard.length;
            deliver(running, previous, event);
            assertTransition(previous, event, state, running, heardBefore);
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
        (sut as Sut | null)?.stop();
      }
    });
  }
});
