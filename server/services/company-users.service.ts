import type { CompanyUser, CompanyUserCreate, CompanyUserUpdate } from '../../src/schemas/accounts.js';
import { roleAtLeast } from '../../src/schemas/roles.js';
import { hashPassword } from '../auth/passwords.js';
import type { Principal } from '../auth/principal.js';
import type { Database, Sql } from '../db/database.js';
import { ApiError, fieldFailure, notFound } from '../http/errors.js';
import type { WriteScope } from '../repositories/scope.js';
import {
  createUser,
  deleteUserKeepingOwner,
  LastOwnerError,
  listUsers,
  lockUserAndOwners,
  updateUserKeepingOwner,
  type UserFilter,
  type UserRow,
} from '../repositories/users.repository.js';
import { UserEmailTakenError } from '../repositories/references.js';

/** A user row as the company's user list shows it. */
export function presentCompanyUser(row: UserRow): CompanyUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    is_active: row.is_active,
    last_login_at: row.last_login_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

function ownerRequired(message: string): ApiError {
  return new ApiError(403, 'owner_required', message);
}

function lastOwner(): ApiError {
  return new ApiError(409, 'last_owner', 'A company needs at least one active owner');
}

/**
 * The company's users and the rules that protect them: only an owner creates, promotes to, changes or
 * deletes an owner; nobody deletes or deactivates themselves; the last active owner always stays.
 */
export function companyUsersService(db: Database) {
  /** The target user, locked for the rest of the transaction so the rules checked on it hold for the write. */
  async function lockedTarget(sql: Sql, companyId: number, id: number): Promise<UserRow> {
    const row = await lockUserAndOwners(sql, companyId, id);
    // Another company's id answers exactly like an unknown one.
    if (!row) throw notFound('User');
    return row;
  }

  return {
    async list(companyId: number, filter: UserFilter) {
      const { count, rows } = await db.tenant(companyId, (sql) => listUsers(sql, companyId, filter));
      return { count, results: rows.map(presentCompanyUser) };
    },

    async create(principal: Principal, scope: WriteScope, input: CompanyUserCreate): Promise<CompanyUser> {
      if (input.role === 'owner' && !roleAtLeast(principal.role, 'owner')) {
        throw ownerRequired('Only an owner may add another owner');
      }
      // Hashing is slow on purpose, so it happens before the transaction opens.
      const passwordHash = await hashPassword(input.password);
      try {
        const row = await db.tenant(scope.companyId, (sql) =>
          createUser(sql, scope, {
            email: input.email,
            first_name: input.first_name,
            last_name: input.last_name,
            role: input.role,
            password_hash: passwordHash,
          }),
        );
        return presentCompanyUser(row);
      } catch (error) {
        if (error instanceof UserEmailTakenError) {
          throw new ApiError(409, 'email_taken', 'A user with this email already exists', {
            email: fieldFailure('in_use', 'Email is already in use'),
          });
        }
        throw error;
      }
    },

    async update(
      principal: Principal,
      scope: WriteScope,
      id: number,
      changes: CompanyUserUpdate,
    ): Promise<CompanyUser> {
      try {
        const row = await db.tenant(scope.companyId, async (sql) => {
          const before = await lockedTarget(sql, scope.companyId, id);
          if (!roleAtLeast(principal.role, 'owner')) {
            if (before.role === 'owner') throw ownerRequired('Only an owner may change an owner');
            if (changes.role === 'owner') throw ownerRequired('Only an owner may make someone an owner');
          }
          if (id === principal.userId && changes.is_active === false) {
            throw new ApiError(400, 'own_account', 'You cannot deactivate your own account', {
              is_active: fieldFailure('not_valid', 'You cannot deactivate your own account'),
            });
          }
          return updateUserKeepingOwner(sql, scope, id, changes);
        });
        if (!row) throw notFound('User');
        return presentCompanyUser(row);
      } catch (error) {
        if (error instanceof LastOwnerError) throw lastOwner();
        throw error;
      }
    },

    async remove(principal: Principal, scope: WriteScope, id: number): Promise<void> {
      try {
        const deleted = await db.tenant(scope.companyId, async (sql) => {
          const before = await lockedTarget(sql, scope.companyId, id);
          if (id === principal.userId) {
            throw new ApiError(400, 'own_account', 'You cannot delete your own account');
          }
          if (before.role === 'owner' && !roleAtLeast(principal.role, 'owner')) {
            throw ownerRequired('Only an owner may delete an owner');
          }
          return deleteUserKeepingOwner(sql, scope, id);
        });
        if (!deleted) throw notFound('User');
      } catch (error) {
        if (error instanceof LastOwnerError) throw lastOwner();
        throw error;
      }
    },
  };
}

/** The company users service's interface. */
export type CompanyUsersService = ReturnType<typeof companyUsersService>;
