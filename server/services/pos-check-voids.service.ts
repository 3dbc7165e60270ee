import { PosCheckIdentitySchema } from '../../src/schemas/pos-checks.js';
import type { PosCheckVoidAnswer } from '../../src/schemas/pos-check-voids.js';
import type { RejectedCheck } from '../../src/schemas/pos-checks.js';
import type { Database } from '../db/database.js';
import { voidChecks, type CheckIdentity } from '../repositories/pos-voids.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { rejection } from './pos-checks.service.js';

/** Voids and refunds from a POS connector (`POST /pos/checks/void/`). */
export interface PosCheckVoidsService {
  /** Takes the named checks away; says which were not stored and why each other entry was refused. */
  void(scope: WriteScope, checks: readonly unknown[]): Promise<PosCheckVoidAnswer>;
}

/** The void service over a database. */
export function posCheckVoidsService(db: Database): PosCheckVoidsService {
  return {
    async void(scope, raw) {
      const rejected: RejectedCheck[] = [];
      const valid: { index: number; check: CheckIdentity }[] = [];
      const named = new Set<string>();
      raw.forEach((candidate, index) => {
        const parsed = PosCheckIdentitySchema.safeParse(candidate);
        if (!parsed.success) {
          rejected.push(rejection(index, parsed.error));
          return;
        }
        const { location_id, check_number, closed_at } = parsed.data;
        const identity = JSON.stringify([location_id, check_number, closed_at.toISOString()]);
        // Counted once: a check named twice would otherwise read as two voids.
        if (named.has(identity)) {
          rejected.push({
            index,
            field: 'check_number',
            reason: 'the same check is named earlier in the list',
          });
          return;
        }
        named.add(identity);
        valid.push({ index, check: parsed.data });
      });
      const result = await db.tenant(scope.companyId, (sql) =>
        voidChecks(
          sql,
          scope,
          valid.map(({ check }) => check),
        ),
      );
      return {
        voided: result.voided.length,
        // Another company's check reads as a check never stored.
        not_found: result.notFound.map((place) => valid[place]!.index),
        rejected,
      };
    },
  };
}
