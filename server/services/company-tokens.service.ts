import type { Database, Sql } from '../db/database.js';
import { generateCompanyKey } from '../auth/company-token.js';
import type { CompanyToken, CompanyTokenCreated } from '../../src/schemas/accounts.js';
import { notFound } from '../http/errors.js';
import {
  createCompanyToken,
  listCompanyTokens,
  revokeCompanyToken,
  type CompanyTokenRow,
} from '../repositories/company-tokens.repository.js';
import { findUserByEmailForSignIn, lockUser } from '../repositories/users.repository.js';

/** A newly issued token: its stored record and the key, which is shown this once and never again. */
export interface IssuedCompanyToken {
  token: CompanyTokenRow;
  key: string;
}

/** Generates a key and stores its hash for the company, in the caller's transaction. */
async function storeNewToken(
  sql: Sql,
  companyId: number,
  input: { name: string; createdBy: number | null },
): Promise<IssuedCompanyToken> {
  const generated = generateCompanyKey();
  const token = await createCompanyToken(sql, companyId, {
    name: input.name,
    keyPrefix: generated.keyPrefix,
    keyHash: generated.keyHash,
    createdBy: input.createdBy,
  });
  return { token, key: generated.key };
}

/** Issues a company API token made by a user of that company. */
export function issueCompanyToken(
  db: Database,
  input: { companyId: number; userId: number | null; name: string },
): Promise<IssuedCompanyToken> {
  return db.tenant(input.companyId, (sql) =>
    storeNewToken(sql, input.companyId, { name: input.name, createdBy: input.userId }),
  );
}

/** Raised when no active user has the given email. */
export class UnknownAccountError extends Error {
  constructor() {
    super('No active account has that email');
    this.name = 'UnknownAccountError';
  }
}

/** Issues a token for the company of the active user with this email (operator tooling: `npm run token`). */
export async function issueCompanyTokenForAccount(
  db: Database,
  email: string,
  name: string,
): Promise<IssuedCompanyToken & { companyId: number }> {
  // The platform read only finds the company; the account's standing is checked where the token is written.
  const found = await db.platform((sql) => findUserByEmailForSignIn(sql, email.trim()));
  if (!found) throw new UnknownAccountError();
  const companyId = found.company_id;
  const issued = await db.tenant(companyId, async (sql) => {
    const user = await lockUser(sql, companyId, found.id);
    if (!user || !user.is_active) throw new UnknownAccountError();
    return storeNewToken(sql, companyId, { name, createdBy: user.id });
  });
  return { ...issued, companyId };
}

/** A token as listed: never the key, which is not even stored. */
export function presentCompanyToken(row: CompanyTokenRow): CompanyToken {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}

/** The company API token calls: list, issue (the key shown once), revoke. */
export function companyTokensService(db: Database) {
  return {
    async list(companyId: number): Promise<CompanyToken[]> {
      return (await db.tenant(companyId, (sql) => listCompanyTokens(sql, companyId))).map(
        presentCompanyToken,
      );
    },
    async create(input: {
      companyId: number;
      userId: number | null;
      name: string;
    }): Promise<CompanyTokenCreated> {
      const issued = await issueCompanyToken(db, input);
      return { ...presentCompanyToken(issued.token), key: issued.key };
    },
    /** Revokes a live token; 404 for an unknown, already revoked or another company's token. */
    async revoke(companyId: number, id: number): Promise<void> {
      if (!(await db.tenant(companyId, (sql) => revokeCompanyToken(sql, companyId, id))))
        throw notFound('Company token');
    },
  };
}

/** The company tokens service's interface. */
export type CompanyTokensService = ReturnType<typeof companyTokensService>;
