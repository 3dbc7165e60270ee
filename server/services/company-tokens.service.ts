import type { Database } from '../db/database.js';
import { generateCompanyKey } from '../auth/company-token.js';
import type { CompanyToken, CompanyTokenCreated } from '../../src/schemas/accounts.js';
import { notFound } from '../http/errors.js';
import {
  createCompanyToken,
  listCompanyTokens,
  revokeCompanyToken,
  type CompanyTokenRow,
} from '../repositories/company-tokens.repository.js';
import { findUserByEmailForSignIn } from '../repositories/users.repository.js';

/** A newly issued token: its stored record and the key, which is shown this once and never again. */
export interface IssuedCompanyToken {
  token: CompanyTokenRow;
  key: string;
}

/** Issues a company API token made by a user of that company. */
export async function issueCompanyToken(
  db: Database,
  input: { companyId: number; userId: number | null; name: string },
): Promise<IssuedCompanyToken> {
  const generated = generateCompanyKey();
  const token = await db.tenant(input.companyId, (sql) =>
    createCompanyToken(sql, input.companyId, {
      name: input.name,
      keyPrefix: generated.keyPrefix,
      keyHash: generated.keyHash,
      createdBy: input.userId,
    }),
  );
  return { token, key: generated.key };
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
  const user = await db.platform((sql) => findUserByEmailForSignIn(sql, email.trim()));
  if (!user || !user.is_active) throw new UnknownAccountError();
  const issued = await issueCompanyToken(db, { companyId: user.company_id, userId: user.id, name });
  return { ...issued, companyId: user.company_id };
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
