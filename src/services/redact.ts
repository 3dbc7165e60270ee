/**
 * Redaction of personal data before anything reaches the event log: identifiers (emails, names, phones,
 * card digits) become a short SHA-256 fingerprint (`sha256:<16 hex>`, the same mark the server's audit log
 * gives the same value), secrets (tokens, codes, keys, passwords) become '[redacted]'. The hash is a small
 * synchronous SHA-256 (Web Crypto's is asynchronous and the log is appended synchronously).
 */

/** Keys whose values identify a person: replaced by a fingerprint, so equal values stay comparable. */
export const IDENTIFYING_KEYS: ReadonlySet<string> = new Set([
  'email',
  // A campaign's test-send addresses, as typed.
  'emails',
  'username',
  'first_name',
  'last_name',
  'name',
  'full_name',
  'phone',
  'phone_number',
  'card',
  'last_four_digits',
  'name_on_card',
  'customer_name',
  'author_name',
  'written_by_staff_name',
  // Who sent a support log, and the staff member acting as them.
  'user_name',
  'actor_name',
  // Notes about a guest are free text that often names or describes the person.
  'body',
  'to_address',
  'birthday',
  'address',
  'query',
  'search',
  // The OAuth state nonce: a fingerprint keeps "callback state equals stored state" true or false in replay.
  'state',
]);

/** Keys whose values are secrets: replaced by '[redacted]' (a fingerprint of a token would still be a handle). */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'access_token',
  'id_token',
  'refresh_token',
  'token',
  'code',
  'code_verifier',
  'verifier',
  'key',
  'secret',
  'password',
  'current_password',
  'new_password',
  'confirm_password',
]);

/** What replaces a secret. */
export const REDACTED = '[redacted]';

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** The SHA-256 digest of a text (UTF-8) as lowercase hex (FIPS 180-4). */
export function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  const length = data.length;
  // Message, the 0x80 marker, zero padding, then the 64-bit bit length: a whole number of 64-byte blocks.
  const padded = new Uint8Array((((length + 9 + 63) >> 6) << 6) >>> 0);
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  const hash = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    hash[0]! += a;
    hash[1]! += b;
    hash[2]! += c;
    hash[3]! += d;
    hash[4]! += e;
    hash[5]! += f;
    hash[6]! += g;
    hash[7]! += h;
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, '0')).join('');
}

/** A short, stable mark of a personal value: `sha256:<first 16 hex>` of its text, as the server makes it. */
export function fingerprint(value: unknown): string {
  return `sha256:${sha256Hex(String(value)).slice(0, 16)}`;
}

/** Something that looks like an email address anywhere in a text. */
const EMAIL_PATTERN = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;

/** A token in a link (`?token=…`, `&code=…`): a captured verification email carries one in its text. */
const LINK_SECRET_PATTERN = /([?&](?:token|code|key)=)[^\s&#"'<>]+/gi;

/** A text with every email address in it replaced by its fingerprint and every link token redacted. */
function withoutEmails(text: string): string {
  return text
    .replace(LINK_SECRET_PATTERN, (_, name: string) => `${name}${REDACTED}`)
    .replace(EMAIL_PATTERN, (email) => fingerprint(email));
}

/** True for a plain object (not an array, date or class instance), whose keys can be walked. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function redactValue(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return withoutEmails(value);
  if (value === null || typeof value !== 'object') {
    // Functions and symbols cannot be stored as JSON; the log keeps only that one was there.
    return typeof value === 'function' || typeof value === 'symbol' ? `[${typeof value}]` : value;
  }
  if (seen.has(value) || depth > 20) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1, seen));
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Error) {
    // An API error's status, code and field messages steer machines (404 → not found), so replay needs them.
    const { status, code, fields } = value as Error & { status?: unknown; code?: unknown; fields?: unknown };
    return {
      name: value.name,
      message: withoutEmails(value.message),
      ...(typeof status === 'number' ? { status } : {}),
      ...(typeof code === 'string' ? { code } : {}),
      ...(isPlainRecord(fields) ? { fields: redactValue(fields, depth + 1, seen) } : {}),
    };
  }
  if (!isPlainRecord(value)) {
    // Actor references and other live objects: their id is all a log can use.
    const id = (value as { id?: unknown }).id;
    return typeof id === 'string' ? `[ref ${id}]` : '[object]';
  }
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    copy[key] = redactField(key, field, depth, seen);
  }
  return copy;
}

function redactField(key: string, field: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (field === null || field === undefined || field === '') return field;
  // A record under a personal key (e.g. `card: {...}`, `token: {...}`) is walked; a plain value is replaced.
  const nested = isPlainRecord(field) || Array.isArray(field);
  if (SECRET_KEYS.has(key)) return nested ? redactValue(field, depth + 1, seen) : REDACTED;
  if (IDENTIFYING_KEYS.has(key)) return nested ? redactValue(field, depth + 1, seen) : fingerprint(field);
  // A changed form field names itself: `{field: 'email', value: '…'}` hides the value as its key would.
  return redactValue(field, depth + 1, seen);
}

/**
 * A JSON-safe copy of a value with personal data removed: identifying keys fingerprinted, secret keys
 * '[redacted]', emails inside free text fingerprinted, nested objects and arrays walked (done-event
 * outputs and error payloads too). Form events `{field, value}` are treated as if `value` sat under `field`.
 */
export function redact<T>(value: T): unknown {
  const seen = new WeakSet<object>();
  if (isPlainRecord(value) && typeof value.field === 'string' && 'value' in value) {
    const copy = redactValue(value, 0, seen) as Record<string, unknown>;
    copy.value = redactField(value.field, value.value, 0, new WeakSet<object>());
    return copy;
  }
  return redactValue(value, 0, seen);
}
