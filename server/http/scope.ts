import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth/principal.js';
import type { WriteScope } from '../repositories/scope.js';

/** The write scope of the caller: their company, the user shown as acting and the one really acting. */
export function writeScopeOf(request: FastifyRequest): WriteScope {
  const principal = principalOf(request);
  return { companyId: principal.companyId, userId: principal.userId, actorUserId: principal.actorUserId };
}

/** The caller's company id. */
export function companyOf(request: FastifyRequest): number {
  return principalOf(request).companyId;
}
