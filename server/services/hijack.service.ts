import type { HijackCandidate, HijackStarted, Impersonation } from '../../src/schemas/accounts.js';
import type { AccessTokens } from '../auth/access-tokens.js';
import type { Principal } from '../auth/principal.js';
import type { Database } from '../db/database.js';
import { ApiError, notFound } from '../http/errors.js';
import {
  endImpersonation,
  listImpersonations,
  startImpersonation,
  type ImpersonationRow,
} from '../repositories/impersonations.repository.js';
import {
  findUserAuthority,
  lockUser,
  searchImpersonationCandidates,
} from '../repositories/users.repository.js';
import { displayName } from './accounts.service.js';

/** How many candidates one search answers; staff narrow it down with `q`. */
export const HIJACK_CANDIDATE_LIMIT = 50;

/** An impersonation as the company sees it. */
export function presentImpersonation(row: ImpersonationRow): Impersonation {
  return {
    id: row.id,
    user_id: row.user_id,
    staff_user_id: row.staff_user_id,
    started_at: row.started_at.toISOString(),
    ended_at: row.ended_at?.toISOString() ?? null,
  };
}

/**
 * The staff member calling, who must be signing in as themselves: not through an impersonation (no
 * impersonation inside another) and not with a company token.
 */
function staffIdOf(principal: Principal): number {
  if (
    !principal.isStaff ||
    principal.impersonationId !== null ||
    principal.tokenId !== null ||
    principal.userId === null
  ) {
    throw new ApiError(403, 'staff_only', 'Only platform staff may act as another user');
  }
  return principal.userId;
}

/** Support impersonation: staff find a user, act as them with a separate token, and release it. */
export function hijackService(db: Database, tokens: AccessTokens) {
  return {
    async candidates(principal: Principal, q: string | undefined): Promise<HijackCandidate[]> {
      staffIdOf(principal);
      const rows = await db.platform((sql) =>
        searchImpersonationCandidates(sql, { q, limit: HIJACK_CANDIDATE_LIMIT }),
      );
      return rows.map((row) => ({
        id: row.id,
        email: row.email,
        name: displayName(row),
        role: row.role,
        company: { id: row.company_id, name: row.company_name },
      }));
    },

    /** Records the impersonation and issues a token for the user that names the staff member as actor. */
    async start(principal: Principal, userId: number): Promise<HijackStarted> {
      const staffUserId = staffIdOf(principal);
      // The platform read only finds the user's company; the rules are checked where the write happens.
      const found = await db.platform((sql) => findUserAuthority(sql, { id: userId }));
      if (!found) throw notFound('User');
      const companyId = found.company_id;
      const impersonation = await db.tenant(companyId, async (sql) => {
        const user = await lockUser(sql, companyId, userId);
        if (!user || !user.is_active) throw notFound('User');
        if (user.is_staff) {
          throw new ApiError(403, 'staff_target', 'Staff accounts cannot be impersonated');
        }
        return startImpersonation(sql, { companyId, staffUserId, userId });
      });
      const token = await tokens.issue({
        userId,
        impersonation: { staffUserId, id: impersonation.id },
      });
      return { ...token, impersonation_id: impersonation.id };
    },

    /** Ends the impersonation the calling token belongs to; that token is refused from then on. */
    async release(principal: Principal): Promise<void> {
      const impersonationId = principal.impersonationId;
      if (impersonationId === null) {
        throw new ApiError(400, 'not_impersonating', 'This token does not belong to an impersonation');
      }
      await db.tenant(principal.companyId, (sql) =>
        endImpersonation(sql, principal.companyId, impersonationId),
      );
    },

    /** When support acted for the company, newest first. */
    async list(companyId: number): Promise<Impersonation[]> {
      return (await db.tenant(companyId, (sql) => listImpersonations(sql, companyId))).map(
        presentImpersonation,
      );
    },
  };
}

/** The impersonation service's interface. */
export type HijackService = ReturnType<typeof hijackService>;
