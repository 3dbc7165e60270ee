import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../db/database.js';
import {
  ensureCookieSecrets,
  insertFirstSigningKey,
  listSigningKeys,
} from '../repositories/signing-keys.repository.js';

/** The algorithm every token this installation issues is signed with. */
export const SIGNING_ALGORITHM = 'RS256';

/** The installation's signing keys: private ones for signing, public ones for the JWKS. */
export interface SigningKeys {
  /** The private keys, newest active first, each with kid, alg and use set. */
  privateJwks: JWK[];
  /** The public halves, as published at the provider's `jwks_uri`. */
  publicJwks: JWK[];
}

async function makeKey(): Promise<{ kid: string; privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = randomUUID();
  const stamp = { kid, alg: SIGNING_ALGORITHM, use: 'sig' };
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), ...stamp },
    publicJwk: { ...(await exportJWK(publicKey)), ...stamp },
  };
}

/** Loads the signing keys, generating and storing the first one on first start. */
export async function loadSigningKeys(db: Database): Promise<SigningKeys> {
  let rows = await db.platform((sql) => listSigningKeys(sql));
  if (!rows.some((row) => row.retired_at === null)) {
    const key = await makeKey();
    // Another process may store its first key meanwhile; the insert keeps only one, and the list shows it.
    rows = await db.platform(async (sql) => {
      await insertFirstSigningKey(sql, key);
      return listSigningKeys(sql);
    });
  }
  return {
    privateJwks: rows.map((row) => row.private_jwk as JWK),
    publicJwks: rows.map((row) => row.public_jwk as JWK),
  };
}

/** The provider's cookie-signing secrets, generated on first start. */
export function loadCookieSecrets(db: Database): Promise<string[]> {
  return db.platform((sql) => ensureCookieSecrets(sql, () => randomBytes(32).toString('base64url')));
}
