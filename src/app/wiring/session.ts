import { distinctUntilChanged, map, Observable } from 'rxjs';
import { type Actor, fromPromise } from 'xstate';
import { authMachine, type StaffToken, type VerifiedUser } from '../../machines/auth.machine.js';
import { type Access, navigationMachine, normalizePath } from '../../machines/navigation.machine.js';
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
import { type AppRouter, createAppRouter } from '../router.js';
import { ROUTE_RULES } from '../routes.js';
import { answerOf } from './answer.js';

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

/** The auth machine with the provider, the API, storage, the clock and the language (the router per session). */
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
});

/** The path and query string the router shows, e.g. `/account?tab=tokens`. */
function shownHref(router: AppRouter): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}

/**
 * Moves the router: a new entry, or the current one replaced (also when asked for the page already shown,
 * so a repeated click adds no duplicate entry, as a react-router `Link` does).
 */
function navigateWith(router: AppRouter) {
  return (path: string, replace: boolean) =>
    void router.navigate(path, { replace: replace || path === shownHref(router) });
}

/** The navigation machine moving the session's router. */
function navigationLogicFor(router: AppRouter) {
  const navigate = navigateWith(router);
  return navigationMachine.provide({
    actions: {
      pushPath: (_, { path }) => navigate(path, false),
      replacePath: (_, { path }) => navigate(path, true),
    },
  });
}

/** The app-wide actors and the router: the session (auth), the guard of the current page (navigation). */
export interface Session {
  auth: Actor<typeof authLogic>;
  navigation: Actor<typeof navigationMachine>;
  /** The react-router the app renders; its location changes reach `navigation` as `route.changed`. */
  router: AppRouter;
  /** Stops both actors, the router and the subscriptions between them. */
  stop(): void;
}

/** What the signed-in user may open, or null while nobody is signed in. */
function accessOf(snapshot: ReturnType<Session['auth']['getSnapshot']>): Access | null {
  const { user } = snapshot.context;
  if (!snapshot.hasTag('authenticated') || !user) return null;
  return { features: user.features, role: user.role, isStaff: user.is_staff };
}

/**
 * Starts the session: the router on the browser's history, the auth actor (every API 401 becomes
 * `session.unauthorized`), the navigation actor (every location the router commits becomes
 * `route.changed`), and the user's access handed from the auth actor to the navigation actor as
 * `session.changed`. Both machines move the router only through the actions provided here.
 */
export function startSession(language: Language): Session {
  const router = createAppRouter();
  const navigate = navigateWith(router);
  const auth = createAppActor(
    authLogic.provide({ actions: { navigate: (_, { path, replace }) => navigate(path, replace) } }),
    { input: { language } },
  );
  const navigation = createAppActor(navigationLogicFor(router), {
    input: { routes: ROUTE_RULES, path: router.state.location.pathname },
  });
  configureApiClient({ onUnauthorized: () => auth.send({ type: 'session.unauthorized' }) });
  // Each committed location once: the router also notifies for its own loading states, and keys are not
  // unique (an entry pushed outside the router, then reached by back/forward, is 'default' like the first).
  let shown = router.state.location;
  const unsubscribeRouter = router.subscribe((state) => {
    if (state.location === shown) return;
    shown = state.location;
    navigation.send({ type: 'route.changed', path: normalizePath(state.location.pathname) });
  });
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
    router,
    stop() {
      access.unsubscribe();
      unsubscribeRouter();
      auth.stop();
      navigation.stop();
      router.dispose();
    },
  };
}
