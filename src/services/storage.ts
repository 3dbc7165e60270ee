/**
 * Browser storage behind named keys: the one place the app touches localStorage and sessionStorage.
 * Reads and writes are synchronous; src/app wraps them as actors so machines receive their results as
 * events (which the event log records and replay feeds back).
 */

/** Every key the app stores, by what it holds. */
export const STORAGE_KEYS = {
  /** The token response of the last sign-in (`{access_token, token_type, expires_in}`), local. */
  tokenData: 'tokenData',
  /** When the access token should be renewed: ms since the epoch, local. */
  expiresAt: 'expires_at',
  /** The PKCE verifier and state of the sign-in under way, local. */
  pkce: 'pkce',
  /** The interface language preference, local. */
  language: 'language',
  /** The selected location or location group, session. */
  selectedLocation: 'selectedLocation',
  /** The selected segment id, session. */
  segmentId: 'segmentId',
  /** Which profile kind (guest or subscriber) the profile screen loads, local. */
  profileKind: 'profileKind',
  /** The staff member's own token data, kept while they act as a company user, session. */
  staffTokenData: 'staffTokenData',
  /** The newest entries of the event log (redacted), so it survives a reload, local. */
  eventLog: 'eventLog',
} as const;

/** One of the storage keys. */
export type StorageKey = (typeof STORAGE_KEYS)[keyof typeof STORAGE_KEYS];

/** Which browser store. */
export type StorageArea = 'local' | 'session';

function store(area: StorageArea): Storage | null {
  try {
    return area === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
  } catch {
    // Storage can be disabled (privacy settings); the app then works without persistence.
    return null;
  }
}

/** The stored text, or null. */
export function readText(area: StorageArea, key: StorageKey): string | null {
  return store(area)?.getItem(key) ?? null;
}

/** Stores text under the key. */
export function writeText(area: StorageArea, key: StorageKey, value: string): void {
  store(area)?.setItem(key, value);
}

/** Removes the key. */
export function removeKey(area: StorageArea, key: StorageKey): void {
  store(area)?.removeItem(key);
}

/** The stored JSON value, or null when absent or unreadable. */
export function readJson<T>(area: StorageArea, key: StorageKey): T | null {
  const text = readText(area, key);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** Stores a value as JSON. */
export function writeJson(area: StorageArea, key: StorageKey, value: unknown): void {
  writeText(area, key, JSON.stringify(value));
}
