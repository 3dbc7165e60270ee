import type { FastifyInstance } from 'fastify';
import type { Feature } from '../../src/schemas/features.js';
import { roleAtLeast, type UserRole } from '../../src/schemas/roles.js';
import { principalOf } from '../auth/principal.js';
import { ApiError } from './errors.js';

/**
 * Who may call a route: the company feature it belongs to (null for account calls every company has),
 * the least role that may call it, and whether a company API token may call it at all.
 */
export interface RouteAccess {
  feature: Feature | null;
  role: UserRole;
  /** Account management: only a signed-in person, never an integration token. */
  userOnly?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

/** Route config for a call that belongs to a feature and needs at least a role. */
export function access(feature: Feature | null, role: UserRole, options: { userOnly?: boolean } = {}) {
  return { access: { feature, role, ...options } satisfies RouteAccess };
}

/**
 * Checks feature and role before the body is validated, so a caller who may not use a route learns
 * that (403) rather than what the route expects. A non-public /api route without an access rule is a
 * programming error and fails closed.
 */
export function registerAccessControl(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (!request.url.startsWith('/api/') || config.public || request.is404 || !request.principal) return;
    const rule = config.access;
    if (!rule) throw new ApiError(500, 'access_rule_missing', 'This route has no access rule');
    const principal = principalOf(request);
    if (rule.feature && !principal.features.has(rule.feature)) {
      throw new ApiError(
        403,
        'feature_not_enabled',
        `Your company does not have the ${rule.feature} feature`,
      );
    }
    if (rule.userOnly && principal.tokenId !== null) {
      throw new ApiError(403, 'user_required', 'Company API tokens cannot manage accounts; sign in instead');
    }
    if (!roleAtLeast(principal.role, rule.role)) {
      throw new ApiError(403, 'role_forbidden', `This needs the ${rule.role} role or higher`);
    }
  });
}
