import {
  assign,
  type DoneActorEvent,
  enqueueActions,
  type ErrorActorEvent,
  setup,
  spawnChild,
  stopChild,
} from 'xstate';
import type { AccountSettings, AuthConfig, CurrentUser } from '../schemas/accounts.js';
import type { Language } from '../schemas/constants.js';
import {
  type CallbackParams,
  callbackMatches,
  type ExchangeInput,
  expiresAtOf,
  type PkceRecord,
  type SaveTokenInput,
  type TokenData,
  type TokenExpiryOutput,
  tokenExpiryMachine,
  type TokenReceipt,
  type TokenRenewedEvent,
} from './token-expiry.machine.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

export type { CallbackParams, PkceRecord, TokenData, TokenReceipt } from './token-expiry.machine.js';

/** What the browser held when the app started: storage, the callback query (on /authenticate), the time. */
export interface RestoredSession {
  /** The stored token set, or null. */
  tokenData: TokenData | null;
  /** The stored renewal time, ms since the epoch, or null. */
  expiresAt: number | null;
  /** The provider's answer when the page is /authenticate with a code, state or error; else null. */
  callback: CallbackParams | null;
  /** The PKCE record stored at the last redirect, or null. */
  pkce: PkceRecord | null;
  /** True when the provider sent the browser back after an explicit sign-out. */
  signedOut: boolean;
  /** ms since the epoch. */
  now: number;
}

/** The verify call's answer and when it came. */
export interface VerifiedUser {
  user: CurrentUser;
  now: number;
}

/** The staff member's own token, kept aside while they act as a company user. */
export interface StaffToken {
  tokenData: TokenData;
  expiresAt: number | null;
}

/** Why the sign-in screen shows an error. */
export type AuthErrorCode =
  | 'configUnavailable'
  | 'redirectFailed'
  | 'providerRefused'
  | 'stateMismatch'
  | 'exchangeFailed'
  | 'storageFailed'
  | 'verifyFailed'
  | 'impersonationFailed'
  | 'impersonationEndFailed';

/** The auth machine's context. */
export interface AuthContext {
  /** The interface language (stored preference, then the user's setting). */
  language: Language;
  /** The language whose messages could not be applied (the interface stays as it was); null once one applies. */
  languageFailed: Language | null;
  config: AuthConfig | null;
  user: CurrentUser | null;
  tokenData: TokenData | null;
  /** When the access token should be renewed, ms since the epoch. */
  expiresAt: number | null;
  /** The latest time an actor reported, ms since the epoch. */
  now: number;
  callback: CallbackParams | null;
  pkce: PkceRecord | null;
  /** Where the next redirect should come back to; null for the page shown now. */
  returnTo: string | null;
  /** Where to go once the next verify succeeds; null to stay. */
  landing: string | null;
  /** The token an impersonation begins with, until it is stored. */
  pendingTokenData: TokenData | null;
  /** The id token to end the provider session with. */
  idTokenHint: string | null;
  error: AuthErrorCode | null;
  /** The provider's own error code when it refused the sign-in (e.g. access_denied). */
  providerError: string | null;
}

/** What the auth machine starts from. */
export interface AuthInput {
  /** The stored interface language preference. */
  language: Language;
}

/** Events views and src/app send. */
export type AuthCommand =
  /** Any 401 from the API. */
  | { type: 'session.unauthorized' }
  /** The user chose Log out. */
  | { type: 'session.logout' }
  /** Sign in (again) after a sign-out or an error. */
  | { type: 'session.signIn' }
  /** Try again after a failure. */
  | { type: 'session.retry' }
  /** Fetch the signed-in user again (e.g. after the account changed). */
  | { type: 'session.verify' }
  /** The user picked an interface language. */
  | { type: 'language.change'; language: Language }
  /** The server replaced the access token (e.g. after a password change); `now` is when it answered. */
  | { type: 'session.tokenReplaced'; tokenData: TokenData; now: number }
  /** Staff start acting as a company user with the token the hijack call returned. */
  | { type: 'impersonation.begin'; tokenData: TokenData }
  /** Staff stop acting as the company user. */
  | { type: 'impersonation.end' };

/** Every event the auth machine handles: commands, the token-expiry child, and actor results. */
export type AuthEvent =
  | AuthCommand
  | TokenRenewedEvent
  | DoneActorEvent<AuthConfig, 'loadConfig'>
  | ErrorActorEvent<unknown, 'loadConfig'>
  | DoneActorEvent<RestoredSession, 'restoreSession'>
  | ErrorActorEvent<unknown, 'restoreSession'>
  | ErrorActorEvent<unknown, 'redirectToProvider'>
  | DoneActorEvent<TokenReceipt, 'exchangeCode'>
  | ErrorActorEvent<unknown, 'exchangeCode'>
  | DoneActorEvent<void, 'saveToken'>
  | ErrorActorEvent<unknown, 'saveToken'>
  | DoneActorEvent<VerifiedUser, 'verify'>
  | ErrorActorEvent<unknown, 'verify'>
  | DoneActorEvent<VerifiedUser, 'refreshUser'>
  | ErrorActorEvent<unknown, 'refreshUser'>
  | DoneActorEvent<{ now: number }, 'keepStaffToken'>
  | ErrorActorEvent<unknown, 'keepStaffToken'>
  | DoneActorEvent<{ staffToken: StaffToken | null; now: number }, 'endImpersonation'>
  | ErrorActorEvent<unknown, 'endImpersonation'>
  | DoneActorEvent<void, 'saveReplacedToken'>
  | ErrorActorEvent<unknown, 'saveReplacedToken'>
  | DoneActorEvent<void, 'saveLanguage'>
  | ErrorActorEvent<unknown, 'saveLanguage'>
  | DoneActorEvent<void, 'applyLanguage'>
  | ErrorActorEvent<unknown, 'applyLanguage'>
  | DoneActorEvent<void, 'logout'>
  | ErrorActorEvent<unknown, 'logout'>
  | DoneActorEvent<void, 'clearSession'>
  | ErrorActorEvent<unknown, 'clearSession'>
  | DoneActorEvent<void, 'endProviderSession'>
  | ErrorActorEvent<unknown, 'endProviderSession'>
  | DoneActorEvent<TokenExpiryOutput, 'tokenExpiry'>
  | ErrorActorEvent<unknown, 'tokenExpiry'>;

/** Input of the redirect to the authorization server. */
export interface RedirectInput {
  config: AuthConfig;
  language: Language;
  /** Where to come back to; null for the page shown now. */
  returnTo: string | null;
}

/** Input of ending the provider session. */
export interface EndProviderSessionInput {
  config: AuthConfig;
  idTokenHint: string | null;
  language: Language;
}

/** The context before anything is known, keeping the interface language. */
function initialContext(language: Language): AuthContext {
  return {
    language,
    languageFailed: null,
    config: null,
    user: null,
    tokenData: null,
    expiresAt: null,
    now: 0,
    callback: null,
    pkce: null,
    returnTo: null,
    landing: null,
    pendingTokenData: null,
    idTokenHint: null,
    error: null,
    providerError: null,
  };
}

/** The path signed-in users land on when nothing else was asked for. */
export const DEFAULT_LANDING = '/dashboard';

/** The path staff return to after acting as a company user. */
export const HIJACK_PATH = '/hijack';

/** The sign-in page. */
export const LOGIN_PATH = '/login';

// The session's types, actors, actions and guards.
const authSetup = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    /** `GET /api/auth/config/`. */
    loadConfig: placeholder<AuthConfig, void>(),
    /** Reads storage, the callback query and the clock. */
    restoreSession: placeholder<RestoredSession, void>(),
    /** Stores a fresh PKCE record and sends the browser to the authorization endpoint; never resolves. */
    redirectToProvider: placeholder<void, RedirectInput>(),
    /** Posts the code to the token endpoint; null token set unless the status was 200 or 201. */
    exchangeCode: placeholder<TokenReceipt, ExchangeInput>(),
    /** Stores tokenData and expires_at locally and removes the used verifier. */
    saveToken: placeholder<void, SaveTokenInput>(),
    /** `GET /api/accounts/verify/` with the stored token. */
    verify: placeholder<VerifiedUser, void>(),
    /** Keeps the staff member's own token in session storage (staffTokenData). */
    keepStaffToken: placeholder<{ now: number }, { staffToken: StaffToken | null }>(),
    /** `POST /api/accounts/hijack/release/`, then takes the staff token back out of session storage. */
    endImpersonation: placeholder<{ staffToken: StaffToken | null; now: number }, void>(),
    /** `PUT /api/accounts/settings/` with the new language. */
    saveLanguage: placeholder<void, { settings: AccountSettings }>(),
    /** Loads the language's messages, switches the interface to it and stores the preference. */
    applyLanguage: placeholder<void, { language: Language }>(),
    /** `GET /api/accounts/logout/`. */
    logout: placeholder<void, void>(),
    /** Removes the token data, expires_at, staff token, selected location and segment id. */
    clearSession: placeholder<void, void>(),
    /** Sends the browser to the provider's end-session endpoint; resolves when there is none. */
    endProviderSession: placeholder<void, EndProviderSessionInput>(),
    /** Renews the token before it expires. */
    tokenExpiry: tokenExpiryMachine,
  },
  actions: {
    /** Starts switching the interface language; a newer choice replaces one still loading. */
    applyLanguage: enqueueActions(({ enqueue }, params: { language: Language }) => {
      enqueue.assign({ languageFailed: null });
      // Not a request: any state starts it, and it outlives the state it began in.
      enqueue.stopChild('applyLanguage');
      enqueue.spawnChild('applyLanguage', { id: 'applyLanguage', input: params });
    }),
    /** Moves the browser to a path (provided by src/app). */
    navigate: (_, _params: { path: string; replace: boolean }) => undefined,
    fail: assign((_, params: { error: AuthErrorCode }) => ({ error: params.error })),
    keepConfig: assign((_, config: AuthConfig) => ({ config })),
    keepTime: assign((_, now: number) => ({ now })),
    forgetReturnTo: assign({ returnTo: null }),
    forgetLanding: assign({ landing: null }),
    keepRefusal: assign((_, restored: RestoredSession) => ({
      now: restored.now,
      error: 'providerRefused' as const,
      providerError: restored.callback?.error ?? null,
    })),
    keepCallback: assign((_, restored: RestoredSession) => ({
      now: restored.now,
      callback: restored.callback,
      pkce: restored.pkce,
    })),
    keepStoredToken: assign((_, restored: RestoredSession) => ({
      now: restored.now,
      tokenData: restored.tokenData,
      expiresAt: restored.expiresAt,
      landing: null,
    })),
    /** The exchanged token, landing where the redirect was started from. */
    keepExchangedToken: assign(({ context }, receipt: TokenReceipt) => {
      const tokenData = receipt.tokenData as TokenData;
      return {
        tokenData,
        expiresAt: expiresAtOf(tokenData, receipt.receivedAt),
        now: receipt.receivedAt,
        landing: context.pkce?.returnTo ?? DEFAULT_LANDING,
        callback: null,
        pkce: null,
      };
    }),
    keepVerifiedUser: assign((_, verified: VerifiedUser) => ({
      user: verified.user,
      now: verified.now,
      language: verified.user.settings.language,
      error: null,
    })),
    /** The impersonation token replaces the staff token (kept aside), landing on the dashboard. */
    keepImpersonationToken: assign(({ context }, kept: { now: number }) => {
      const tokenData = context.pendingTokenData as TokenData;
      return {
        tokenData,
        expiresAt: expiresAtOf(tokenData, kept.now),
        now: kept.now,
        pendingTokenData: null,
        landing: DEFAULT_LANDING,
      };
    }),
    forgetPendingToken: assign({ pendingTokenData: null }),
    /** The staff member's own token is back; they return to the impersonation page. */
    restoreStaffToken: assign((_, ended: { staffToken: StaffToken | null; now: number }) => ({
      tokenData: ended.staffToken?.tokenData ?? null,
      expiresAt: ended.staffToken?.expiresAt ?? null,
      now: ended.now,
      landing: HIJACK_PATH,
    })),
    /** Forgets the user and token, keeping the id token to end the provider session with. */
    forgetSession: assign(({ context }) => ({
      idTokenHint: context.tokenData?.id_token ?? null,
      user: null,
      tokenData: null,
      expiresAt: null,
      pendingTokenData: null,
      landing: null,
      error: null,
    })),
  },
  guards: {
    callbackRefused: (_, params: { restored: RestoredSession }) =>
      params.restored.callback !== null && params.restored.callback.error !== null,
    callbackMatches: (_, params: { restored: RestoredSession }) =>
      callbackMatches(params.restored.callback, params.restored.pkce),
    isCallback: (_, params: { restored: RestoredSession }) => params.restored.callback !== null,
    tokenFresh: (_, params: { restored: RestoredSession }) =>
      params.restored.tokenData !== null &&
      (params.restored.expiresAt === null || params.restored.expiresAt > params.restored.now),
    signedOutRequested: (_, params: { restored: RestoredSession }) => params.restored.signedOut,
    tokenReceived: (_, params: { receipt: TokenReceipt }) => params.receipt.tokenData !== null,
    hasToken: ({ context }) => context.tokenData !== null,
    hasLanding: ({ context }) => context.landing !== null,
    impersonating: ({ context }) => context.user?.impersonator != null,
    notImpersonating: ({ context }) => context.user !== null && context.user.impersonator === null,
    staffTokenRestored: (_, params: { staffToken: StaffToken | null }) => params.staffToken !== null,
  },
});
const request = requestIn(authSetup);

/**
 * The session (spec section 4): PKCE sign-in against the authorization server, the /authenticate code
 * exchange, verify, token renewal (a token-expiry child while signed in), impersonation, and sign-out.
 * The interface language is applied by an `applyLanguage` child; its failure is kept as `languageFailed`.
 * Tags: `busy` while work is under way, `redirecting`, `authenticated`, `switching` (impersonation
 * starting or ending), `signedOut`, `error`.
 */
export const authMachine = authSetup.createMachine({
  id: 'auth',
  context: ({ input }) => initialContext(input.language),
  on: {
    'language.change': {
      actions: [
        assign(({ context, event }) => ({
          language: event.language,
          user: context.user && {
            ...context.user,
            settings: { ...context.user.settings, language: event.language },
          },
        })),
        { type: 'applyLanguage', params: ({ event }) => ({ language: event.language }) },
      ],
    },
    'xstate.done.actor.applyLanguage': {},
    // Only the newest choice is being applied (older ones are stopped), and it is the context's language.
    'xstate.error.actor.applyLanguage': {
      actions: assign(({ context }) => ({ languageFailed: context.language })),
    },
  },
  initial: 'loadingConfig',
  states: {
    loadingConfig: {
      tags: ['busy'],
      ...request('loadConfig', {
        done: {
          target: 'restoring',
          actions: { type: 'keepConfig', params: ({ event }) => event.output },
        },
        error: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'configUnavailable' } },
        },
      }),
    },
    restoring: {
      tags: ['busy'],
      ...request('restoreSession', {
        done: [
          {
            guard: { type: 'callbackRefused', params: ({ event }) => ({ restored: event.output }) },
            target: 'callbackFailed',
            actions: { type: 'keepRefusal', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'callbackMatches', params: ({ event }) => ({ restored: event.output }) },
            target: 'exchanging',
            actions: { type: 'keepCallback', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'isCallback', params: ({ event }) => ({ restored: event.output }) },
            target: 'callbackFailed',
            actions: [
              { type: 'keepTime', params: ({ event }) => event.output.now },
              { type: 'fail', params: { error: 'stateMismatch' } },
            ],
          },
          {
            guard: { type: 'tokenFresh', params: ({ event }) => ({ restored: event.output }) },
            target: 'checkingToken',
            actions: { type: 'keepStoredToken', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'signedOutRequested', params: ({ event }) => ({ restored: event.output }) },
            target: 'signedOut',
            actions: { type: 'keepTime', params: ({ event }) => event.output.now },
          },
          {
            target: 'redirecting',
            actions: [{ type: 'keepTime', params: ({ event }) => event.output.now }, 'forgetReturnTo'],
          },
        ],
        error: { target: 'redirecting', actions: 'forgetReturnTo' },
      }),
    },
    redirecting: {
      tags: ['busy', 'redirecting'],
      // Not a request: the redirect never answers (the browser leaves), so only its failure is routed.
      entry: [
        assign({
          user: null,
          pendingTokenData: null,
          landing: null,
          callback: null,
          pkce: null,
          error: null,
          providerError: null,
        }),
        spawnChild('redirectToProvider', {
          id: 'redirectToProvider',
          input: ({ context }) => ({
            config: context.config as AuthConfig,
            language: context.language,
            returnTo: context.returnTo,
          }),
        }),
      ],
      exit: stopChild('redirectToProvider'),
      on: {
        'xstate.error.actor.redirectToProvider': {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'redirectFailed' } },
        },
      },
    },
    exchanging: {
      tags: ['busy'],
      ...request('exchangeCode', {
        input: ({ context }) => ({
          config: context.config as AuthConfig,
          code: context.callback?.code ?? '',
          verifier: context.pkce?.verifier ?? '',
        }),
        done: [
          {
            guard: { type: 'tokenReceived', params: ({ event }) => ({ receipt: event.output }) },
            target: 'storingToken',
            actions: { type: 'keepExchangedToken', params: ({ event }) => event.output },
          },
          {
            target: 'callbackFailed',
            actions: [
              { type: 'keepTime', params: ({ event }) => event.output.receivedAt },
              { type: 'fail', params: { error: 'exchangeFailed' } },
            ],
          },
        ],
        error: {
          target: 'callbackFailed',
          actions: { type: 'fail', params: { error: 'exchangeFailed' } },
        },
      }),
    },
    storingToken: {
      tags: ['busy'],
      ...request('saveToken', {
        input: ({ context }) => ({ tokenData: context.tokenData as TokenData, expiresAt: context.expiresAt }),
        done: 'checkingToken',
        error: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'storageFailed' } },
        },
      }),
    },
    checkingToken: {
      tags: ['busy'],
      always: [
        { guard: 'hasToken', target: 'verifying' },
        // Verify with no stored token logs out (spec section 4).
        { target: 'loggingOut', actions: 'forgetSession' },
      ],
    },
    verifying: {
      tags: ['busy'],
      ...request('verify', {
        done: [
          {
            guard: 'hasLanding',
            target: 'authenticated',
            actions: [
              { type: 'keepVerifiedUser', params: ({ event }) => event.output },
              {
                type: 'applyLanguage',
                params: ({ event }) => ({ language: event.output.user.settings.language }),
              },
              {
                type: 'navigate',
                params: ({ context }) => ({ path: context.landing ?? DEFAULT_LANDING, replace: true }),
              },
              'forgetLanding',
            ],
          },
          {
            target: 'authenticated',
            actions: [
              { type: 'keepVerifiedUser', params: ({ event }) => event.output },
              {
                type: 'applyLanguage',
                params: ({ event }) => ({ language: event.output.user.settings.language }),
              },
            ],
          },
        ],
        error: {
          target: 'failed',
          actions: { type: 'fail', params: { error: 'verifyFailed' } },
        },
        on: {
          'session.unauthorized': {
            target: 'redirecting',
            actions: assign(({ context }) => ({ returnTo: context.landing, landing: null })),
          },
        },
      }),
    },
    authenticated: {
      tags: ['authenticated'],
      // Not requests: renewal runs the whole signed-in time (only for a token with a lifetime), and the
      // refresh and saves below start on events inside this state, each replacing the one before.
      entry: enqueueActions(({ context, enqueue, self }) => {
        if (context.expiresAt === null || context.config === null) return;
        enqueue.spawnChild('tokenExpiry', {
          id: 'tokenExpiry',
          input: { config: context.config, listener: self, expiresAt: context.expiresAt, now: context.now },
        });
      }),
      exit: [stopChild('tokenExpiry'), stopChild('refreshUser')],
      on: {
        'session.logout': { target: 'loggingOut', actions: 'forgetSession' },
        'session.unauthorized': { target: 'redirecting', actions: assign({ returnTo: null }) },
        // A fresh look at the user (e.g. after the account changed) without leaving the signed-in frame.
        'session.verify': {
          actions: [stopChild('refreshUser'), spawnChild('verify', { id: 'refreshUser' })],
        },
        'xstate.done.actor.refreshUser': {
          actions: [
            assign(({ event }) => ({
              user: event.output.user,
              now: event.output.now,
              language: event.output.user.settings.language,
            })),
            {
              type: 'applyLanguage',
              params: ({ event }) => ({ language: event.output.user.settings.language }),
            },
          ],
        },
        // A 401 arrives as session.unauthorized; any other failure keeps the user already known.
        'xstate.error.actor.refreshUser': {},
        'language.change': {
          actions: [
            assign(({ context, event }) => ({
              language: event.language,
              user: context.user && {
                ...context.user,
                settings: { ...context.user.settings, language: event.language },
              },
            })),
            { type: 'applyLanguage', params: ({ event }) => ({ language: event.language }) },
            stopChild('saveLanguage'),
            spawnChild('saveLanguage', {
              id: 'saveLanguage',
              input: ({ context }) => ({ settings: (context.user as CurrentUser).settings }),
            }),
          ],
        },
        // Stays signed in: stores the new token and restarts the renewal timer from its lifetime.
        'session.tokenReplaced': {
          target: 'authenticated',
          reenter: true,
          actions: [
            assign(({ event }) => ({
              tokenData: event.tokenData,
              expiresAt: expiresAtOf(event.tokenData, event.now),
              now: event.now,
            })),
            stopChild('saveReplacedToken'),
            spawnChild('saveToken', {
              id: 'saveReplacedToken',
              input: ({ context }) => ({
                tokenData: context.tokenData as TokenData,
                expiresAt: context.expiresAt,
              }),
            }),
          ],
        },
        // A failed write leaves the old token stored: the next call meets a 401 and signs in again.
        'xstate.done.actor.saveReplacedToken': {},
        'xstate.error.actor.saveReplacedToken': {},
        // The language is already applied and stored locally; a failed save only loses the account copy.
        'xstate.done.actor.saveLanguage': {},
        'xstate.error.actor.saveLanguage': {},
        'impersonation.begin': {
          guard: 'notImpersonating',
          target: 'keepingStaffToken',
          actions: assign(({ event }) => ({ pendingTokenData: event.tokenData, error: null })),
        },
        'impersonation.end': {
          guard: 'impersonating',
          target: 'endingImpersonation',
          actions: assign({ error: null }),
        },
        'token.renewed': {
          actions: assign(({ event }) => ({ tokenData: event.tokenData, expiresAt: event.expiresAt })),
        },
        // Silent renewal gave up (session gone, iframe timed out): fall back to the full redirect.
        'xstate.done.actor.tokenExpiry': { target: 'redirecting', actions: assign({ returnTo: null }) },
        'xstate.error.actor.tokenExpiry': { target: 'redirecting', actions: assign({ returnTo: null }) },
      },
    },
    keepingStaffToken: {
      tags: ['busy', 'switching'],
      ...request('keepStaffToken', {
        input: ({ context }) => ({
          staffToken: context.tokenData && { tokenData: context.tokenData, expiresAt: context.expiresAt },
        }),
        done: {
          target: 'storingToken',
          actions: { type: 'keepImpersonationToken', params: ({ event }) => event.output },
        },
        error: {
          target: 'authenticated',
          actions: ['forgetPendingToken', { type: 'fail', params: { error: 'impersonationFailed' } }],
        },
        on: { 'session.unauthorized': { target: 'redirecting', actions: 'forgetReturnTo' } },
      }),
    },
    endingImpersonation: {
      tags: ['busy', 'switching'],
      ...request('endImpersonation', {
        done: [
          {
            guard: {
              type: 'staffTokenRestored',
              params: ({ event }) => ({ staffToken: event.output.staffToken }),
            },
            target: 'storingToken',
            actions: { type: 'restoreStaffToken', params: ({ event }) => event.output },
          },
          // The staff token is gone (another tab, a closed session): sign out cleanly.
          { target: 'loggingOut', actions: 'forgetSession' },
        ],
        error: {
          target: 'authenticated',
          actions: { type: 'fail', params: { error: 'impersonationEndFailed' } },
        },
        on: { 'session.unauthorized': { target: 'redirecting', actions: 'forgetReturnTo' } },
      }),
    },
    loggingOut: {
      tags: ['busy', 'signingOut'],
      // The session ends on this side whatever the server answered.
      ...request('logout', { done: 'clearingSession', error: 'clearingSession' }),
    },
    clearingSession: {
      tags: ['busy', 'signingOut'],
      ...request('clearSession', { done: 'endingProviderSession', error: 'endingProviderSession' }),
    },
    endingProviderSession: {
      tags: ['busy', 'signingOut'],
      ...request('endProviderSession', {
        input: ({ context }) => ({
          config: context.config as AuthConfig,
          idTokenHint: context.idTokenHint,
          language: context.language,
        }),
        done: 'signedOut',
        error: 'signedOut',
      }),
    },
    signedOut: {
      tags: ['signedOut'],
      entry: [
        assign({ idTokenHint: null }),
        { type: 'navigate', params: { path: LOGIN_PATH, replace: true } },
      ],
      on: {
        'session.signIn': { target: 'redirecting', actions: assign({ returnTo: DEFAULT_LANDING }) },
      },
    },
    callbackFailed: {
      tags: ['error'],
      on: {
        'session.signIn': {
          target: 'redirecting',
          actions: assign({
            returnTo: DEFAULT_LANDING,
            error: null,
            providerError: null,
            callback: null,
            pkce: null,
          }),
        },
      },
    },
    failed: {
      tags: ['error'],
      entry: assign({ user: null, pendingTokenData: null, landing: null }),
      on: {
        'session.retry': {
          target: 'loadingConfig',
          actions: assign(({ context }) => initialContext(context.language)),
        },
      },
    },
  },
});
