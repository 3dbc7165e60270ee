import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The tokens of the links in run messages: the company and outbox row, encrypted as one AES block (so a token
 * reveals nothing, not even how many messages were sent) and signed with an HMAC (so it cannot be guessed or
 * altered). Both keys derive from the installation's secret (`mail_token_keys`) and the link's purpose, so an
 * open-pixel token is no unsubscribe token. A token may bind extra bytes (the click redirect's target URL): they
 * travel after the tag and are covered by it, so changing one byte of them voids the token.
 */

/** What a valid token points at. */
export interface UnsubscribeTarget {
  companyId: number;
  outboxId: number;
}

/** Signs and reads unsubscribe tokens with one secret. */
export interface UnsubscribeTokens {
  sign(target: UnsubscribeTarget): string;
  /** The target, or null for anything not made by `sign` with this secret. */
  read(token: string): UnsubscribeTarget | null;
}

/** A token codec for one purpose; `bound` bytes ride in the token and are covered by its tag. */
export interface RowTokens {
  sign(target: UnsubscribeTarget, bound?: Buffer): string;
  /** The target and its bound bytes, or null for anything not made by `sign` with this secret and purpose. */
  read(token: string): { target: UnsubscribeTarget; bound: Buffer } | null;
}

const BLOCK_BYTES = 16;
const TAG_BYTES = 16;
/** The unsubscribe token's exact shape: block and tag, 43 URL-safe characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const BOUND_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43,}$/;

function derive(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest();
}

/**
 * The codec of one purpose (`unsubscribe`, `open`, `click`): its cipher and MAC keys are
 * `HMAC(secret, "regulars.<purpose>.cipher|mac")`.
 */
export function rowTokens(secret: string, purpose: string): RowTokens {
  const cipherKey = derive(secret, `regulars.${purpose}.cipher`);
  const macKey = derive(secret, `regulars.${purpose}.mac`);
  const tagOf = (block: Buffer, bound: Buffer) =>
    createHmac('sha256', macKey).update(block).update(bound).digest().subarray(0, TAG_BYTES);
  return {
    sign({ companyId, outboxId }, bound = Buffer.alloc(0)) {
      const plain = Buffer.alloc(BLOCK_BYTES);
      plain.writeBigUInt64BE(BigInt(companyId), 0);
      plain.writeBigUInt64BE(BigInt(outboxId), 8);
      // One block under a fixed key is a pseudo-random permutation: no padding or IV needed for 16 bytes.
      const cipher = createCipheriv('aes-256-ecb', cipherKey, null).setAutoPadding(false);
      const block = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([block, tagOf(block, bound), bound]).toString('base64url');
    },
    read(token) {
      if (!BOUND_TOKEN_PATTERN.test(token)) return null;
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.length < BLOCK_BYTES + TAG_BYTES) return null;
      // base64url has several spellings of the last bits; only the one `sign` writes is accepted.
      if (bytes.toString('base64url') !== token) return null;
      const block = bytes.subarray(0, BLOCK_BYTES);
      const bound = bytes.subarray(BLOCK_BYTES + TAG_BYTES);
      if (!timingSafeEqual(bytes.subarray(BLOCK_BYTES, BLOCK_BYTES + TAG_BYTES), tagOf(block, bound)))
        return null;
      const decipher = createDecipheriv('aes-256-ecb', cipherKey, null).setAutoPadding(false);
      const plain = Buffer.concat([decipher.update(block), decipher.final()]);
      const companyId = Number(plain.readBigUInt64BE(0));
      const outboxId = Number(plain.readBigUInt64BE(8));
      if (!Number.isSafeInteger(companyId) || !Number.isSafeInteger(outboxId)) return null;
      if (companyId <= 0 || outboxId <= 0) return null;
      return { target: { companyId, outboxId }, bound: Buffer.from(bound) };
    },
  };
}

/** The unsubscribe token codec for an installation's secret (43 characters, nothing bound). */
export function unsubscribeTokens(secret: string): UnsubscribeTokens {
  const codec = rowTokens(secret, 'unsubscribe');
  return {
    sign: (target) => codec.sign(target),
    read(token) {
      if (!TOKEN_PATTERN.test(token)) return null;
      return codec.read(token)?.target ?? null;
    },
  };
}
