import { createTestModel } from '@xstate/graph';
import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, fromPromise, SimulatedClock, type SnapshotFrom } from 'xstate';
import {
  type AuthEvent,
  authMachine,
  DEFAULT_LANDING,
  HIJACK_PATH,
  LOGIN_PATH,
  type RestoredSession,
  type StaffToken,
  type TokenData,
  type VerifiedUser,
} from '../../src/machines/auth.machine.js';
import {
  EXPIRY_MARGIN_MS,
  type TokenReceipt,
  tokenExpiryMachine,
} from '../../src/machines/token-expiry.machine.js';
import type { AuthConfig, CurrentUser } from '../../src/schemas/accounts.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

const CONFIG: AuthConfig = {
  issuer: 'http://localhost:3000/oidc',
  authorization_endpoint: 'http://localhost:3000/oidc/auth',
  token_endpoint: 'http://localhost:3000/oidc/token',
  end_session_endpoint: 'http://localhost:3000/oidc/session/end',
  client_id: 'regulars-web',
  redirect_uri: 'http://localhost:3000/authenticate',
  scope: 'openid profile email',
  resource: 'http://localhost:3000/api',
};

const T0 = 1_700_000_000_000;
const STORED_TOKEN: TokenData = {
  access_token: 'stored',
  token_type: 'Bearer',
  expires_in: 900,
  id_token: 'id-1',
};
const NEW_TOKEN: TokenData = { access_token: 'new', token_type: 'Bearer', expires_in: 900, id_token: 'id-2' };
const HIJACK_TOKEN: TokenData = { access_token: 'hijack', token_type: 'Bearer', expires_in: 600 };
const REPLACED_TOKEN: TokenData = { access_token: 'replaced', token_type: 'Bearer', expires_in: 900 };
const RENEWED_TOKEN: TokenData = { access_token: 'renewed', token_type: 'Bearer', expires_in: 900 };
const PKCE = { verifier: 'V'.repeat(64), state: 'STATE1', returnTo: '/account' };

function userOf(overrides: Partial<CurrentUser>): CurrentUser {
  return {
    id: 1,
    email: 'owner@harborvine.example',
    username: 'owner',
    first_name: 'Olivia',
    last_name: 'Owner',
    role: 'owner',
    is_staff: false,
    company: { id: 1, name: 'Harbor & Vine' },
    features: ['Recommendations'],
    settings: {
      username: 'owner',
      email: 'owner@harborvine.example',
      language: 'en',
      time_zone: 'America/New_York',
      communication: { email: true, sms: false, phone: false },
    },
    impersonator: null,
    ...overrides,
  };
}

const STAFF = userOf({ id: 9, email: 'staff@regulars.example', role: 'admin', is_staff: true });
const ACTED_AS = userOf({
  settings: { ...userOf({}).settings, language: 'de' },
  impersonator: { id: 9, email: 'staff@regulars.example', name: 'Sam Staff' },
});

function restored(overrides: Partial<RestoredSession>): RestoredSession {
  return {
    tokenData: null,
    expiresAt: null,
    callback: null,
    pkce: null,
    signedOut: false,
    now: T0,
    ...overrides,
  };
}

/** Every event the walk tries, with the outcomes of every actor the machine starts. */
const EVENTS: AuthEvent[] = [
  { type: 'xstate.done.actor.loadConfig', output: CONFIG, actorId: 'loadConfig' },
  { type: 'xstate.error.actor.loadConfig', error: 'offline', actorId: 'loadConfig' },
  // A fresh visit, a stored token, an expired one, the three kinds of callback, and the signed-out return.
  { type: 'xstate.done.actor.restoreSession', output: restored({}), actorId: 'restoreSession' },
  {
    type: 'xstate.done.actor.restoreSession',
    output: restored({ tokenData: STORED_TOKEN, expiresAt: T0 + 600_000 }),
    actorId: 'restoreSession',
  },
  {
    type: 'xstate.done.actor.restoreSession',
    output: restored({ tokenData: STORED_TOKEN, expiresAt: T0 - 1 }),
    actorId: 'restoreSession',
  },
  {
    type: 'xstate.done.actor.restoreSession',
    output: restored({ callback: { code: 'CODE', state: 'STATE1', error: null }, pkce: PKCE }),
    actorId: 'restoreSession',
  },
  {
    type: 'xstate.done.actor.restoreSession',
    output: restored({ callback: { code: 'CODE', state: 'FORGED', error: null }, pkce: PKCE }),
    actorId: 'restoreSession',
  },
  {
    type: 'xstate.done.actor.restoreSession',
    output: restored({ callback: { code: 'CODE', state: 'STATE1', error: null }, pkce: null }),
    actorId: 'restoreSession',
  },
  {
    type: 'xstate.done.actor.restoreSession',
    output: restored({ callback: { code: null, state: 'STATE1', error: 'access_denied' }, pkce: PKCE }),
    actorId: 'restoreSession',
  },
  {
    type: 'xstate.done.actor.restoreSession',
    output: restored({ signedOut: true }),
    actorId: 'restoreSession',
  },
  { type: 'xstate.error.actor.restoreSession', error: 'storage', actorId: 'restoreSession' },
  { type: 'xstate.error.actor.redirectToProvider', error: 'no crypto', actorId: 'redirectToProvider' },
  {
    type: 'xstate.done.actor.exchangeCode',
    output: { tokenData: NEW_TOKEN, receivedAt: T0 + 1_000 } satisfies TokenReceipt,
    actorId: 'exchangeCode',
  },
  {
    type: 'xstate.done.actor.exchangeCode',
    output: { tokenData: null, receivedAt: T0 + 1_000 } satisfies TokenReceipt,
    actorId: 'exchangeCode',
  },
  { type: 'xstate.error.actor.exchangeCode', error: 'offline', actorId: 'exchangeCode' },
  { type: 'xstate.done.actor.saveToken', output: undefined, actorId: 'saveToken' },
  { type: 'xstate.error.actor.saveToken', error: 'quota', actorId: 'saveToken' },
  {
    type: 'xstate.done.actor.verify',
    output: { user: STAFF, now: T0 + 2_000 } satisfies VerifiedUser,
    actorId: 'verify',
  },
  {
    type: 'xstate.done.actor.verify',
    output: { user: ACTED_AS, now: T0 + 2_000 } satisfies VerifiedUser,
    actorId: 'verify',
  },
  { type: 'xstate.error.actor.verify', error: 'server', actorId: 'verify' },
  {
    type: 'xstate.done.actor.refreshUser',
    output: { user: { ...STAFF, first_name: 'Samantha' }, now: T0 + 5_000 } satisfies VerifiedUser,
    actorId: 'refreshUser',
  },
  { type: 'xstate.error.actor.refreshUser', error: 'server', actorId: 'refreshUser' },
  { type: 'xstate.done.actor.keepStaffToken', output: { now: T0 + 3_000 }, actorId: 'keepStaffToken' },
  { type: 'xstate.error.actor.keepStaffToken', error: 'storage', actorId: 'keepStaffToken' },
  {
    type: 'xstate.done.actor.endImpersonation',
    output: {
      staffToken: { tokenData: STORED_TOKEN, expiresAt: T0 + 600_000 } satisfies StaffToken,
      now: T0 + 4_000,
    },
    actorId: 'endImpersonation',
  },
  {
    type: 'xstate.done.actor.endImpersonation',
    output: { staffToken: null, now: T0 + 4_000 },
    actorId: 'endImpersonation',
  },
  { type: 'xstate.error.actor.endImpersonation', error: 'server', actorId: 'endImpersonation' },
  { type: 'xstate.done.actor.saveLanguage', output: undefined, actorId: 'saveLanguage' },
  { type: 'xstate.error.actor.saveLanguage', error: 'server', actorId: 'saveLanguage' },
  // Applying a language can end in any state: a failure is kept beside whatever the session is doing.
  { type: 'xstate.done.actor.applyLanguage', output: undefined, actorId: 'applyLanguage' },
  { type: 'xstate.error.actor.applyLanguage', error: 'chunk failed', actorId: 'applyLanguage' },
  { type: 'xstate.done.actor.logout', output: undefined, actorId: 'logout' },
  { type: 'xstate.error.actor.logout', error: 'server', actorId: 'logout' },
  { type: 'xstate.done.actor.clearSession', output: undefined, actorId: 'clearSession' },
  { type: 'xstate.error.actor.clearSession', error: 'storage', actorId: 'clearSession' },
  { type: 'xstate.done.actor.endProviderSession', output: undefined, actorId: 'endProviderSession' },
  { type: 'xstate.error.actor.endProviderSession', error: 'blocked', actorId: 'endProviderSession' },
  { type: 'xstate.done.actor.tokenExpiry', output: { failure: 'loginRequired' }, actorId: 'tokenExpiry' },
  { type: 'xstate.error.actor.tokenExpiry', error: 'crashed', actorId: 'tokenExpiry' },
  { type: 'token.renewed', tokenData: RENEWED_TOKEN, expiresAt: T0 + 900_000 },
  { type: 'session.unauthorized' },
  { type: 'session.logout' },
  { type: 'session.signIn' },
  { type: 'session.retry' },
  { type: 'session.verify' },
  { type: 'language.change', language: 'fr' },
  { type: 'impersonation.begin', tokenData: HIJACK_TOKEN },
  { type: 'session.tokenReplaced', tokenData: REPLACED_TOKEN, now: T0 + 6_000 },
  { type: 'xstate.done.actor.saveReplacedToken', output: undefined, actorId: 'saveReplacedToken' },
  { type: 'xstate.error.actor.saveReplacedToken', error: 'quota', actorId: 'saveReplacedToken' },
  { type: 'impersonation.end' },
];

type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** The system under test: the real machine with recording stubs for every actor and effect. */
function startSut() {
  const started: { src: string; input: unknown }[] = [];
  const effects: { type: 'navigate'; params: unknown }[] = [];
  // Stubs that record their input and never settle: the walk delivers their outcomes as events.
  const pending = <Output, Input>(src: string) =>
    fromPromise<Output, Input>(({ input }) => {
      started.push({ src, input });
      return new Promise<Output>(() => undefined);
    });
  const machine = authMachine.provide({
    actors: {
      loadConfig: pending('loadConfig'),
      restoreSession: pending('restoreSession'),
      redirectToProvider: pending('redirectToProvider'),
      exchangeCode: pending('exchangeCode'),
      saveToken: pending('saveToken'),
      verify: pending('verify'),
      keepStaffToken: pending('keepStaffToken'),
      endImpersonation: pending('endImpersonation'),
      saveLanguage: pending('saveLanguage'),
      applyLanguage: pending('applyLanguage'),
      logout: pending('logout'),
      clearSession: pending('clearSession'),
      endProviderSession: pending('endProviderSession'),
      tokenExpiry: tokenExpiryMachine.provide({
        actors: {
          authorizeSilently: pending('authorizeSilently'),
          exchangeCode: pending('exchangeCode'),
          saveToken: pending('saveToken'),
        },
      }),
    },
    actions: {
      navigate: (_, params) => void effects.push({ type: 'navigate', params }),
    },
  });
  // A simulated clock: no timer of the token-expiry child ever fires on its own.
  const actor = createActor(machine, { input: { language: 'en' }, clock: new SimulatedClock() });
  actor.start();
  return {
    actor,
    started,
    effects,
    lastStarted: (src: string) => started.filter((s) => s.src === src).at(-1),
  };
}

type Sut = ReturnType<typeof startSut>;

/** What each state means, checked against the model's snapshot and the system under test. */
function assertMeaning(state: AuthSnapshot, sut: Sut): void {
  const { context } = state;
  const live = sut.actor.getSnapshot();
  expect(live.value).toEqual(state.value);
  expect(live.context).toEqual(context);
  expect(state.hasTag('authenticated')).toBe(state.matches('authenticated'));
  expect(state.hasTag('error')).toBe(state.matches('failed') || state.matches('callbackFailed'));
  const child = (id: string) => (live.children as Record<string, AnyActorRef | undefined>)[id];
  // Only the signed-in frame and the steps of switching users know a user.
  const mayKnowUser = [
    'authenticated',
    'keepingStaffToken',
    'endingImpersonation',
    'storingToken',
    'verifying',
  ];
  if (!mayKnowUser.includes(state.value)) expect(context.user).toBeNull();
  // A language that failed to apply is the one last asked for; asking again clears the failure.
  if (context.languageFailed !== null) expect(context.languageFailed).toBe(context.language);

  switch (state.value) {
    case 'loadingConfig':
      expect(context.error).toBeNull();
      expect(child('loadConfig')).toBeDefined();
      break;
    case 'restoring':
      expect(context.config).toEqual(CONFIG);
      expect(child('restoreSession')).toBeDefined();
      break;
    case 'redirecting':
      expect(state.hasTag('redirecting')).toBe(true);
      expect(sut.lastStarted('redirectToProvider')?.input).toMatchObject({
        config: CONFIG,
        returnTo: context.returnTo,
      });
      break;
    case 'exchanging':
      expect(context.callback?.state).toBe(context.pkce?.state);
      expect(sut.lastStarted('exchangeCode')?.input).toEqual({
        config: CONFIG,
        code: 'CODE',
        verifier: PKCE.verifier,
      });
      break;
    case 'storingToken':
      expect(context.tokenData).not.toBeNull();
      if (context.landing === HIJACK_PATH) {
        // The staff token comes back with the renewal time it was kept with.
        expect(context.expiresAt).toBe(T0 + 600_000);
      } else {
        // expires_at = now + expires_in s − 2 minutes (spec section 4).
        expect(context.expiresAt).toBe(
          context.now + (context.tokenData?.expires_in ?? 0) * 1000 - EXPIRY_MARGIN_MS,
        );
      }
      expect(sut.lastStarted('saveToken')?.input).toEqual({
        tokenData: context.tokenData,
        expiresAt: context.expiresAt,
      });
      break;
    case 'verifying':
      expect(context.tokenData).not.toBeNull();
      expect(child('verify')).toBeDefined();
      break;
    case 'authenticated': {
      expect(context.user).not.toBeNull();
      expect(context.tokenData).not.toBeNull();
      expect(context.language).toBe(context.user?.settings.language);
      expect(context.landing).toBeNull();
      const expiry = child('tokenExpiry');
      if (context.expiresAt === null) expect(expiry).toBeUndefined();
      else expect(expiry).toBeDefined();
      break;
    }
    case 'keepingStaffToken':
      expect(state.hasTag('switching')).toBe(true);
      expect(context.pendingTokenData).toEqual(HIJACK_TOKEN);
      expect(sut.lastStarted('keepStaffToken')?.input).toEqual({
        staffToken: { tokenData: context.tokenData, expiresAt: context.expiresAt },
      });
      break;
    case 'endingImpersonation':
      expect(state.hasTag('switching')).toBe(true);
      expect(context.user?.impersonator).not.toBeNull();
      break;
    case 'loggingOut':
    case 'clearingSession':
    case 'endingProviderSession':
      expect(state.hasTag('signingOut')).toBe(true);
      expect(context.user).toBeNull();
      expect(context.tokenData).toBeNull();
      expect(context.expiresAt).toBeNull();
      if (state.value === 'endingProviderSession') {
        expect(sut.lastStarted('endProviderSession')?.input).toMatchObject({
          config: CONFIG,
          idTokenHint: context.idTokenHint,
        });
      }
      break;
    case 'signedOut':
      expect(state.hasTag('signedOut')).toBe(true);
      expect(context.user).toBeNull();
      expect(context.tokenData).toBeNull();
      expect(context.idTokenHint).toBeNull();
      expect(sut.effects.filter((effect) => effect.type === 'navigate').at(-1)).toEqual({
        type: 'navigate',
        params: { path: LOGIN_PATH, replace: true },
      });
      break;
    case 'callbackFailed':
      expect(['providerRefused', 'stateMismatch', 'exchangeFailed']).toContain(context.error);
      expect(context.user).toBeNull();
      if (context.error === 'providerRefused') expect(context.providerError).toBe('access_denied');
      break;
    case 'failed':
      expect(context.error).not.toBeNull();
      break;
    default:
      throw new Error(`No meaning written for state ${JSON.stringify(state.value)}`);
  }
}

/** Transition effects: what the machine must have done on the way into the new state. */
function assertTransition(
  before: AuthSnapshot,
  event: AuthEvent,
  after: AuthSnapshot,
  sut: Sut,
  effectsBefore: number,
  startedBefore: number,
) {
  const effects = sut.effects.slice(effectsBefore);
  const appliedLanguages = sut.started
    .slice(startedBefore)
    .filter((start) => start.src === 'applyLanguage')
    .map((start) => start.input);
  if (event.type === 'xstate.done.actor.verify' || event.type === 'xstate.done.actor.refreshUser') {
    const language = event.output.user.settings.language;
    expect(appliedLanguages).toEqual([{ language }]);
    expect(after.context.languageFailed).toBeNull();
    const navigation = effects.filter((effect) => effect.type === 'navigate');
    if (before.context.landing === null || event.type === 'xstate.done.actor.refreshUser')
      expect(navigation).toEqual([]);
    else
      expect(navigation).toEqual([
        { type: 'navigate', params: { path: before.context.landing, replace: true } },
      ]);
  }
  if (event.type === 'language.change') {
    expect(appliedLanguages).toEqual([{ language: 'fr' }]);
    expect(after.context.language).toBe('fr');
    expect(after.context.languageFailed).toBeNull();
    if (after.matches('authenticated')) {
      expect(after.context.user?.settings.language).toBe('fr');
      expect(sut.lastStarted('saveLanguage')?.input).toEqual({ settings: after.context.user?.settings });
    }
  }
  if (event.type === 'xstate.error.actor.applyLanguage') {
    // The failure is kept beside whatever the session was doing, which carries on unchanged.
    expect(after.value).toEqual(before.value);
    expect(after.context).toEqual({ ...before.context, languageFailed: before.context.language });
  }
  if (event.type === 'xstate.done.actor.applyLanguage') {
    expect(after.value).toEqual(before.value);
    expect(after.context).toEqual(before.context);
  }
  if (event.type === 'xstate.done.actor.exchangeCode' && after.matches('storingToken')) {
    // After a sign-in the app lands on the path stored with the verifier, or the dashboard.
    expect(after.context.landing).toBe(before.context.pkce?.returnTo ?? DEFAULT_LANDING);
  }
  if (event.type === 'xstate.done.actor.endImpersonation' && after.matches('storingToken')) {
    expect(after.context.tokenData).toEqual(STORED_TOKEN);
    expect(after.context.landing).toBe(HIJACK_PATH);
  }
  if (event.type === 'xstate.done.actor.keepStaffToken') {
    expect(after.context.tokenData).toEqual(HIJACK_TOKEN);
    expect(after.context.landing).toBe(DEFAULT_LANDING);
  }
  if (event.type === 'session.unauthorized' && !before.matches('verifying')) {
    expect(after.context.returnTo).toBeNull();
  }
  // Redirects and the end of the provider session carry the language of the moment (ui_locales).
  if (after.matches('redirecting') && !before.matches('redirecting')) {
    expect(sut.lastStarted('redirectToProvider')?.input).toMatchObject({ language: after.context.language });
  }
  if (after.matches('endingProviderSession') && !before.matches('endingProviderSession')) {
    expect(sut.lastStarted('endProviderSession')?.input).toMatchObject({ language: after.context.language });
  }
  if (event.type === 'session.signIn') expect(after.context.returnTo).toBe(DEFAULT_LANDING);
  if (event.type === 'session.verify') {
    expect(after.value).toBe('authenticated');
    expect(sut.started.at(-1)?.src).toBe('verify');
  }
  if (event.type === 'session.tokenReplaced') {
    expect(after.value).toBe('authenticated');
    expect(after.context.tokenData).toEqual(REPLACED_TOKEN);
    expect(after.context.expiresAt).toBe(T0 + 6_000 + 900_000 - EXPIRY_MARGIN_MS);
    expect(sut.lastStarted('saveToken')?.input).toEqual({
      tokenData: REPLACED_TOKEN,
      expiresAt: after.context.expiresAt,
    });
    // The renewal timer starts again from the new token's lifetime.
    const expiry = (sut.actor.getSnapshot().children as Record<string, AnyActorRef | undefined>).tokenExpiry;
    expect(expiry?.getSnapshot()).toMatchObject({ context: { expiresAt: after.context.expiresAt } });
  }
  if (event.type === 'session.retry') {
    expect(after.context).toMatchObject({ config: null, user: null, tokenData: null, error: null });
  }
}

describe('auth machine (model-based)', () => {
  const model = createTestModel(authMachine, { events: EVENTS, input: { language: 'en' } });
  const { reached, transitions } = everyTransition(authMachine, model);

  it('reaches every state of the machine', () => {
    const values = new Set(reached.map((path) => valueKey(path.state)));
    // checkingToken only decides between verifying and logging out: no snapshot rests in it.
    const resting = Object.keys(authMachine.root.states).filter((key) => key !== 'checkingToken');
    expect([...values].sort()).toEqual(resting.sort());
  });

  const bySource = groupBy(transitions, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, paths] of bySource) {
    it(`keeps each state's meaning and each transition's effects through the ${paths.length} transitions out of ${source}`, async () => {
      for (const path of paths) {
        let sut: Sut | null = null;
        let previous: AuthSnapshot | null = null;
        const execute = ({ event, state }: { event: AuthEvent; state: AuthSnapshot }) => {
          if ((event.type as string) === 'xstate.init') {
            sut = startSut();
          } else {
            const running = sut;
            if (!running || !previous) throw new Error('The walk sent an event before starting');
            const effectsBefore = running.effects.length;
            const startedBefore = running.started.length;
            running.actor.send(event);
            assertTransition(previous, event, state, running, effectsBefore, startedBefore);
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
