import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of an unsubscribe link: the company and outbox row, encrypted as one AES block (so the token
 * reveals nothing, not even how many messages were sent) and signed with an HMAC (so it cannot be guessed or
 * altered). 43 URL-safe characters; the same row always gets the same token. Both keys derive from the
 * installation's secret (`mail_token_keys`).
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

const TAG_BYTES = 16;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function derive(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).digest();
}

/** The token codec for an installation's secret. */
export function unsubscribeTokens(secret: string): UnsubscribeTokens {
  const cipherKey = derive(secret, 'regulars.unsubscribe.cipher');
  const macKey = derive(secret, 'regulars.unsubscribe.mac');
  const tagOf = (block: Buffer) => createHmac('sha256', macKey).update(block).digest().subarray(0, TAG_BYTES);
  return {
    sign({ companyId, outboxId }) {
      const plain = Buffer.alloc(16);
      plain.writeBigUInt64BE(BigInt(companyId), 0);
      plain.writeBigUInt64BE(BigInt(outboxId), 8);
      // One block under a fixed key is a pseudo-random permutation: no padding or IV needed for 16 bytes.
      const cipher = createCipheriv('aes-256-ecb', cipherKey, null).setAutoPadding(false);
      const block = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([block, tagOf(block)]).toString('base64url');
    },
    read(token) {
      if (!TOKEN_PATTERN.test(token)) return null;
      const bytes = Buffer.from(token, 'base64url');
      if (bytes.length !== 16 + TAG_BYTES) return null;
      const block = bytes.subarray(0, 16);
      if (!timingSafeEqual(bytes.subarray(16), tagOf(block))) return null;
      const decipher = createDecipheriv('aes-256-ecb', cipherKey, null).setAutoPadding(false);
      const plain = Buffer.concat([decipher.update(block), decipher.final()]);
      const companyId = Number(plain.readBigUInt64BE(0));
      const outboxId = Number(plain.readBigUInt64BE(8));
      if (!Number.isSafeInteger(companyId) || !Number.isSafeInteger(outboxId)) return null;
      if (companyId <= 0 || outboxId <= 0) return null;
      return { companyId, outboxId };
    },
  };
}
