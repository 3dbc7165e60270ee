import { distinctUntilChanged, firstValueFrom, fromEvent, map, Observable, takeUntil } from 'rxjs';
import { type Actor, fromPromise } from 'xstate';
import { authMachine, type StaffToken, type VerifiedUser } from '../../machines/auth.machine.js';
import { type Access, navigationMachine } from '../../machines/navigation.machine.js';
import {
  type ExchangeInput,
  type SaveTokenInput,
  type TokenReceipt,
  tokenExpiryMachine,
} from '../../machines/token-expiry.machine.js';
import { AccountSettingsSchema, type AuthConfig, CurrentUserSchema } from '../../schemas/accounts.js';
import type { Language } from '../../schemas/constants.js';
import { apiRequest, configureApiClient } from '../../services/api-client.js';
import { now } from '../../services/clock.js';
import { currentPath, pathChanges, pushPath, replacePath } from '../../services/history.js';
import { applyLanguage, storedLanguage } from '../../services/language.js';
import {
  authorizeSilently,
  clearSession,
  endProviderSession,
  exchangeCode,
  keepStaffToken,
  loadAuthConfig,
  redirectToProvider,
  restoreSession,
  saveToken,
  takeStaffToken,
} from '../../services/oidc.js';
import { createAppActor } from '../actors.js';
import { ROUTE_RULES } from '../routes.js';

/** The call's single answer; stopping the actor (its signal aborts) unsubscribes, which aborts the request. */
function answerOf<T>(call: Observable<T>, signal: AbortSignal): Promise<T> {
  return firstValueFrom(call.pipe(takeUntil(fromEvent(signal, 'abort'))));
}

/** The code exchange at the token endpoint, stamped with the time of the answer. */
const exchangeCodeLogic = fromPromise<TokenReceipt, ExchangeInput>(async ({ input, signal }) => ({
  tokenData: await answerOf(exchangeCode(input), signal),
  receivedAt: now(),
}));

/** Storing a token set (tokenData, expires_at) and removing the used verifier. */
const saveTokenLogic = fromPromise<void, SaveTokenInput>(async ({ input }) => saveToken(input));

/** The token-expiry machine with the hidden-iframe renewal, the exchange and token storage. */
export const tokenExpiryLogic = tokenExpiryMachine.provide({
  actors: {
    authorizeSilently: fromPromise(
      ({ input, signal }: { input: { config: AuthConfig }; signal: AbortSignal }) =>
        authorizeSilently(input.config, storedLanguage(), now, signal),
    ),
    exchangeCode: exchangeCodeLogic,
    saveToken: saveTokenLogic,
  },
});

/** The auth machine with the provider, the API, storage, the clock, the language and history services. */
export const authLogic = authMachine.provide({
  actors: {
    loadConfig: fromPromise<AuthConfig, void>(({ signal }) => answerOf(loadAuthConfig(), signal)),
    restoreSession: fromPromise(async () => restoreSession(now())),
    redirectToProvider: fromPromise(({ input }) => redirectToProvider(input)),
    exchangeCode: exchangeCodeLogic,
    saveToken: saveTokenLogic,
    verify: fromPromise<VerifiedUser, void>(async ({ signal }) => ({
      user: await answerOf(
        apiRequest({ method: 'GET', path: '/accounts/verify/', schema: CurrentUserSchema }),
        signal,
      ),
      now: now(),
    })),
    keepStaffToken: fromPromise<{ now: number }, { staffToken: StaffToken | null }>(async ({ input }) => {
      keepStaffToken(input.staffToken);
      return { now: now() };
    }),
    endImpersonation: fromPromise<{ staffToken: StaffToken | null; now: number }, void>(
      async ({ signal }) => {
        await answerOf(apiRequest({ method: 'POST', path: '/accounts/hijack/release/' }), signal);
        return { staffToken: takeStaffToken(), now: now() };
      },
    ),
    saveLanguage: fromPromise(async ({ input, signal }) => {
      await answerOf(
        apiRequest({
          method: 'PUT',
          path: '/accounts/settings/',
          body: input.settings,
          schema: AccountSettingsSchema,
        }),
        signal,
      );
    }),
    logout: fromPromise(async ({ signal }) => {
      await answerOf(apiRequest({ method: 'GET', path: '/accounts/logout/' }), signal);
    }),
    clearSession: fromPromise(async () => clearSession()),
    endProviderSession: fromPromise(({ input }) => endProviderSession(input)),
    tokenExpiry: tokenExpiryLogic,
    // Loading a language's messages can fail (a chunk that never arrives): the machine hears of it.
    applyLanguage: fromPromise<void, { language: Language }>(({ input }) => applyLanguage(input.language)),
  },
  actions: {
    navigate: (_, { path, replace }) => (replace ? replacePath(path) : pushPath(path)),
  },
});

/** The navigation machine with the history service. */
export const navigationLogic = navigationMachine.provide({
  actions: {
    pushPath: (_, { path }) => pushPath(path),
    replacePath: (_, { path }) => replacePath(path),
  },
});

/** The app-wide actors: the session (auth) and the current page (navigation). */
export interface Session {
  auth: Actor<typeof authLogic>;
  navigation: Actor<typeof navigationLogic>;
  /** Stops both actors and the subscriptions between them. */
  stop(): void;
}

/** What the signed-in user may open, or null while nobody is signed in. */
function accessOf(snapshot: ReturnType<Session['auth']['getSnapshot']>): Access | null {
  const { user } = snapshot.context;
  if (!snapshot.hasTag('authenticated') || !user) return null;
  return { features: user.features, role: user.role, isStaff: user.is_staff };
}

/**
 * Starts the session: the auth actor (every API 401 becomes `session.unauthorized`), the navigation
 * actor (every history change becomes `route.changed`), and the user's access handed from the first to
 * the second as `session.changed`.
 */
export function startSession(language: Language): Session {
  const auth = createAppActor(authLogic, { input: { language } });
  const navigation = createAppActor(navigationLogic, { input: { routes: ROUTE_RULES, path: currentPath() } });
  configureApiClient({ onUnauthorized: () => auth.send({ type: 'session.unauthorized' }) });
  const routes = pathChanges().subscribe((path) => navigation.send({ type: 'route.changed', path }));
  const access = new Observable<ReturnType<typeof auth.getSnapshot>>((subscriber) =>
    auth.subscribe(subscriber),
  )
    .pipe(
      map(accessOf),
      distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
    )
    .subscribe((value) => navigation.send({ type: 'session.changed', access: value }));
  navigation.start();
  auth.start();
  return {
    auth,
    navigation,
    stop() {
      access.unsubscribe();
      routes.unsubscribe();
      auth.stop();
      navigation.stop();
    },
  };
}
