import {
  type ActorRef,
  assign,
  cancel,
  type DoneActorEvent,
  type ErrorActorEvent,
  raise,
  sendTo,
  setup,
  type Snapshot,
} from 'xstate';
import type { AuthConfig } from '../schemas/accounts.js';
import { requestIn } from './kit/request.js';
import { placeholder } from './support/placeholder.js';

// Timers are delayed raises cancelled on exit: exactly what `after` does, in a form @xstate/graph's
// createTestModel accepts (it refuses state nodes with `after`), so the model tests walk this very machine.

/** The token set the provider's token endpoint answers, as stored locally under `tokenData`. */
export interface TokenData {
  access_token: string;
  token_type?: string | undefined;
  /** Lifetime in seconds; when present the app renews the token before it runs out. */
  expires_in?: number | undefined;
  id_token?: string | undefined;
  scope?: string | undefined;
}

/** The PKCE record kept in local storage for one redirect. */
export interface PkceRecord {
  verifier: string;
  state: string;
  /** Where to land after sign-in. */
  returnTo: string;
}

/** What the provider sent back to the redirect URI. */
export interface CallbackParams {
  code: string | null;
  state: string | null;
  /** The provider's error code, e.g. `access_denied` or `login_required`. */
  error: string | null;
}

/** A token endpoint answer: the token set (null unless the status was 200 or 201) and when it came. */
export interface TokenReceipt {
  tokenData: TokenData | null;
  /** ms since the epoch, from the clock service. */
  receivedAt: number;
}

/** What the hidden iframe brought back: the callback, the PKCE record it was started with, and the time. */
export interface SilentAuthorization {
  callback: CallbackParams;
  pkce: PkceRecord;
  now: number;
}

/** The safety margin taken off a token's lifetime (spec section 9): 2 minutes. */
export const EXPIRY_MARGIN_MS = 2 * 60 * 1000;

/** How long the hidden iframe may take before the app falls back to the full redirect. */
export const SILENT_RENEW_TIMEOUT_MS = 10_000;

/** The shortest wait before a renewal, so a token that lives under 2 minutes cannot loop renewals. */
export const MIN_RENEW_DELAY_MS = 10_000;

/**
 * When the token should be renewed (spec section 4): received time plus `expires_in` seconds minus the
 * 2-minute margin, in ms since the epoch; null when the answer has no `expires_in`.
 */
export function expiresAtOf(tokenData: TokenData, receivedAt: number): number | null {
  if (typeof tokenData.expires_in !== 'number') return null;
  return receivedAt + tokenData.expires_in * 1000 - EXPIRY_MARGIN_MS;
}

/** True when the callback carries a code and the state this browser stored for the redirect. */
export function callbackMatches(callback: CallbackParams | null, pkce: PkceRecord | null): boolean {
  return (
    callback !== null &&
    pkce !== null &&
    callback.error === null &&
    callback.code !== null &&
    callback.code !== '' &&
    callback.state !== null &&
    callback.state === pkce.state
  );
}

/** Why renewal gave up and the full redirect must take over. */
export type RenewalFailure =
  'loginRequired' | 'stateMismatch' | 'timedOut' | 'authorizeFailed' | 'exchangeFailed';

/** The token-expiry actor's output when it gives up. */
export interface TokenExpiryOutput {
  failure: RenewalFailure;
}

/** Who hears about each renewal: the auth machine (given as input, so the machine walks without a parent). */
export type RenewalListener = ActorRef<Snapshot<unknown>, TokenRenewedEvent>;

/** What the token-expiry machine starts from. */
export interface TokenExpiryInput {
  config: AuthConfig;
  /** Told `token.renewed` after each renewal. */
  listener: RenewalListener;
  /** When the current token should be renewed, ms since the epoch. */
  expiresAt: number;
  /** The time when the machine starts, ms since the epoch. */
  now: number;
}

/** Sent to the parent (the auth machine) after a silent renewal stored a fresh token. */
export interface TokenRenewedEvent {
  type: 'token.renewed';
  tokenData: TokenData;
  expiresAt: number | null;
}

/** Every event the token-expiry machine handles. */
export type TokenExpiryEvent =
  | { type: 'token.expired' }
  | { type: 'renewal.timedOut' }
  | DoneActorEvent<SilentAuthorization, 'authorizeSilently'>
  | ErrorActorEvent<unknown, 'authorizeSilently'>
  | DoneActorEvent<TokenReceipt, 'exchangeCode'>
  | ErrorActorEvent<unknown, 'exchangeCode'>
  | DoneActorEvent<void, 'saveToken'>
  | ErrorActorEvent<unknown, 'saveToken'>;

/** The token-expiry machine's context. */
export interface TokenExpiryContext {
  config: AuthConfig;
  listener: RenewalListener;
  expiresAt: number | null;
  now: number;
  callback: CallbackParams | null;
  pkce: PkceRecord | null;
  tokenData: TokenData | null;
  failure: RenewalFailure | null;
}

/** Input of the token exchange (shared with the auth machine). */
export interface ExchangeInput {
  config: AuthConfig;
  code: string;
  verifier: string;
}

/** Input of storing a token set (shared with the auth machine). */
export interface SaveTokenInput {
  tokenData: TokenData;
  expiresAt: number | null;
}

// The renewal's types, actors, delays, guards and actions.
const tokenExpirySetup = setup({
  types: {
    context: {} as TokenExpiryContext,
    events: {} as TokenExpiryEvent,
    input: {} as TokenExpiryInput,
    output: {} as TokenExpiryOutput,
  },
  actors: {
    /** Opens the hidden iframe at the authorization endpoint and waits for the callback it hands over. */
    authorizeSilently: placeholder<SilentAuthorization, { config: AuthConfig }>(),
    /** Posts the code to the token endpoint; the token set is null unless the status was 200 or 201. */
    exchangeCode: placeholder<TokenReceipt, ExchangeInput>(),
    /** Stores tokenData and expires_at locally and removes the used verifier. */
    saveToken: placeholder<void, SaveTokenInput>(),
  },
  delays: {
    /** Until the renewal time, never less than the floor (tokens shorter than the margin). */
    untilExpiry: ({ context }) =>
      Math.max(MIN_RENEW_DELAY_MS, (context.expiresAt ?? context.now) - context.now),
    silentTimeout: SILENT_RENEW_TIMEOUT_MS,
  },
  guards: {
    callbackMatches: (_, params: { authorization: SilentAuthorization }) =>
      callbackMatches(params.authorization.callback, params.authorization.pkce),
    loginRequired: (_, params: { authorization: SilentAuthorization }) =>
      params.authorization.callback.error !== null,
    tokenReceived: (_, params: { receipt: TokenReceipt }) => params.receipt.tokenData !== null,
    hasExpiry: ({ context }) => context.expiresAt !== null,
  },
  actions: {
    fail: assign((_, params: { failure: RenewalFailure }) => ({ failure: params.failure })),
    keepAuthorization: assign((_, authorization: SilentAuthorization) => ({
      callback: authorization.callback,
      pkce: authorization.pkce,
      now: authorization.now,
    })),
    keepToken: assign((_, receipt: TokenReceipt) => {
      const tokenData = receipt.tokenData as TokenData;
      return {
        tokenData,
        expiresAt: expiresAtOf(tokenData, receipt.receivedAt),
        now: receipt.receivedAt,
        callback: null,
        pkce: null,
      };
    }),
    /** Tells the listener the stored token; expiresAt is null when it carries no lifetime. */
    announceRenewal: sendTo(
      ({ context }) => context.listener,
      ({ context }) => ({
        type: 'token.renewed' as const,
        tokenData: context.tokenData as TokenData,
        expiresAt: context.expiresAt,
      }),
    ),
  },
});
const request = requestIn(tokenExpirySetup);

// The hidden iframe's request; the authorizing state adds its time limit to the entry and exit.
const silentAuthorization = request('authorizeSilently', {
  input: ({ context }) => ({ config: context.config }),
  done: [
    {
      guard: { type: 'callbackMatches', params: ({ event }) => ({ authorization: event.output }) },
      target: 'exchanging',
      actions: { type: 'keepAuthorization', params: ({ event }) => event.output },
    },
    {
      guard: { type: 'loginRequired', params: ({ event }) => ({ authorization: event.output }) },
      target: 'gaveUp',
      actions: { type: 'fail', params: { failure: 'loginRequired' } },
    },
    { target: 'gaveUp', actions: { type: 'fail', params: { failure: 'stateMismatch' } } },
  ],
  error: { target: 'gaveUp', actions: { type: 'fail', params: { failure: 'authorizeFailed' } } },
  on: {
    'renewal.timedOut': { target: 'gaveUp', actions: { type: 'fail', params: { failure: 'timedOut' } } },
  },
});

/**
 * Keeps the access token fresh while signed in: waits until `expiresAt` (a delay computed from the
 * context, so a simulated clock replays it), then re-authenticates silently through a hidden iframe
 * (`prompt=none`, a fresh PKCE verifier), checks the returned state, exchanges the code, stores the new
 * token and waits again. When the provider answers `login_required`, the iframe times out or any step
 * fails, it stops with a failure and the parent falls back to the full redirect.
 */
export const tokenExpiryMachine = tokenExpirySetup.createMachine({
  id: 'tokenExpiry',
  context: ({ input }) => ({
    config: input.config,
    listener: input.listener,
    expiresAt: input.expiresAt,
    now: input.now,
    callback: null,
    pkce: null,
    tokenData: null,
    failure: null,
  }),
  initial: 'waiting',
  states: {
    waiting: {
      tags: ['waiting'],
      entry: raise({ type: 'token.expired' }, { delay: 'untilExpiry', id: 'expiryTimer' }),
      exit: cancel('expiryTimer'),
      on: { 'token.expired': 'authorizing' },
    },
    authorizing: {
      tags: ['renewing'],
      ...silentAuthorization,
      entry: [
        silentAuthorization.entry,
        raise({ type: 'renewal.timedOut' }, { delay: 'silentTimeout', id: 'silentTimer' }),
      ],
      exit: [silentAuthorization.exit, cancel('silentTimer')],
    },
    exchanging: {
      tags: ['renewing'],
      ...request('exchangeCode', {
        input: ({ context }) => ({
          config: context.config,
          code: context.callback?.code ?? '',
          verifier: context.pkce?.verifier ?? '',
        }),
        done: [
          {
            guard: { type: 'tokenReceived', params: ({ event }) => ({ receipt: event.output }) },
            target: 'storing',
            actions: { type: 'keepToken', params: ({ event }) => event.output },
          },
          { target: 'gaveUp', actions: { type: 'fail', params: { failure: 'exchangeFailed' } } },
        ],
        error: {
          target: 'gaveUp',
          actions: { type: 'fail', params: { failure: 'exchangeFailed' } },
        },
      }),
    },
    storing: {
      tags: ['renewing'],
      ...request('saveToken', {
        input: ({ context }) => ({ tokenData: context.tokenData as TokenData, expiresAt: context.expiresAt }),
        done: [
          { guard: 'hasExpiry', target: 'waiting', actions: 'announceRenewal' },
          // No lifetime (expiresAt is null): nothing to wait for.
          { target: 'lasting', actions: 'announceRenewal' },
        ],
        error: {
          target: 'gaveUp',
          actions: { type: 'fail', params: { failure: 'exchangeFailed' } },
        },
      }),
    },
    /** The new token carries no lifetime: nothing left to wait for. */
    lasting: { tags: ['lasting'] },
    /** Renewal failed; the parent falls back to the full redirect. */
    gaveUp: {
      type: 'final',
      tags: ['gaveUp'],
    },
  },
  output: ({ context }) => ({ failure: context.failure ?? 'authorizeFailed' }),
});
