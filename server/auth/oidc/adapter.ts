import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../../db/database.js';
import { isStorableText } from '../../http/text-rule.js';
import {
  consumeOidcPayload,
  destroyOidcPayload,
  findOidcPayload,
  findOidcPayloadByUid,
  findOidcPayloadByUserCode,
  purgeExpiredOidcPayloads,
  revokeOidcPayloadsByGrant,
  upsertOidcPayload,
  type OidcPayloadRecord,
} from '../../repositories/oidc-payloads.repository.js';
import {
  purgeExpiredRevokedGrants,
  recordRevokedGrant,
} from '../../repositories/revoked-grants.repository.js';

/** How often (at most) one process sweeps long-expired rows, piggy-backing on writes. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function toPayload(record: OidcPayloadRecord | null): AdapterPayload | undefined {
  if (!record) return undefined;
  const payload = record.payload as AdapterPayload;
  // The provider reads `consumed` as a truthy epoch to refuse a second use of a code.
  return record.consumed_at
    ? { ...payload, consumed: Math.floor(record.consumed_at.getTime() / 1000) }
    : payload;
}

/**
 * oidc-provider's storage contract over the `oidc_payloads` table: one adapter per model (Session,
 * Interaction, Grant, AuthorizationCode, AccessToken, ...). Expired rows read as absent.
 */
export class DatabaseOidcAdapter implements Adapter {
  constructor(
    private readonly db: Database,
    private readonly model: string,
    /** Shared by the adapters of one provider: when expired rows were last swept. */
    private readonly purgeClock: { lastPurge: number } = { lastPurge: 0 },
    /** The longest life of an access token: how long a revoked grant must stay on record. */
    private readonly accessTokenTtlSeconds = 86400,
  ) {}

  /** Stores the object with the lookup columns the other calls need. */
  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await this.db.platform((sql) =>
      upsertOidcPayload(sql, {
        model: this.model,
        id,
        payload,
        grantId: stringOrNull(payload.grantId),
        userCode: stringOrNull(payload.userCode),
        uid: stringOrNull(payload.uid),
        accountId: stringOrNull(payload.accountId),
        expiresInSeconds: typeof expiresIn === 'number' && expiresIn > 0 ? Math.ceil(expiresIn) : null,
      }),
    );
    await this.purgeNowAndThen();
  }

  /** The live object with this id. */
  async find(id: string): Promise<AdapterPayload | undefined> {
    // Ids come straight from requests the text rule never sees (codes, tokens); no stored id holds a NUL.
    if (!isStorableText(id)) return undefined;
    return toPayload(await this.db.platform((sql) => findOidcPayload(sql, this.model, id)));
  }

  /** The live object with this user code (device flow; unused by this installation's client). */
  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(userCode)) return undefined;
    return toPayload(await this.db.platform((sql) => findOidcPayloadByUserCode(sql, this.model, userCode)));
  }

  /** The live session with this uid. */
  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    if (!isStorableText(uid)) return undefined;
    return toPayload(await this.db.platform((sql) => findOidcPayloadByUid(sql, this.model, uid)));
  }

  /** Marks the object consumed, so a second exchange of the same code is refused. */
  async consume(id: string): Promise<void> {
    await this.db.platform((sql) => consumeOidcPayload(sql, this.model, id));
  }

  /** Deletes the object. */
  async destroy(id: string): Promise<void> {
    await this.db.platform((sql) => destroyOidcPayload(sql, this.model, id));
  }

  /**
   * Deletes every object of this model issued under the grant. JWT access tokens are not stored, so for
   * them the grant is recorded as revoked and the API refuses its tokens (a replayed code, a sign-out).
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.platform(async (sql) => {
      await revokeOidcPayloadsByGrant(sql, this.model, grantId);
      if (this.model === 'AccessToken') await recordRevokedGrant(sql, grantId, this.accessTokenTtlSeconds);
    });
  }

  private async purgeNowAndThen(): Promise<void> {
    const now = Date.now();
    if (now - this.purgeClock.lastPurge < PURGE_INTERVAL_MS) return;
    this.purgeClock.lastPurge = now;
    await this.db.platform(async (sql) => {
      await purgeExpiredOidcPayloads(sql);
      await purgeExpiredRevokedGrants(sql);
    });
  }
}

/**
 * The adapter factory oidc-provider's `adapter` option takes, bound to a database and the access tokens'
 * lifetime (how long a revoked grant is remembered).
 */
export function databaseAdapterFactory(
  db: Database,
  accessTokenTtlSeconds?: number,
): (model: string) => Adapter {
  const purgeClock = { lastPurge: 0 };
  return (model) => new DatabaseOidcAdapter(db, model, purgeClock, accessTokenTtlSeconds);
}
