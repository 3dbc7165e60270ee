import type { z } from 'zod';
import {
  PosCheckInputSchema,
  type PosChecksBatchAnswer,
  type RejectedCheck,
} from '../../src/schemas/pos-checks.js';
import type { Database } from '../db/database.js';
import { noteChecksStored } from '../db/planner-statistics.js';
import { ingestChecks, type IngestCheck } from '../repositories/pos-ingestion.repository.js';
import { missingIds } from '../repositories/references.js';
import type { WriteScope } from '../repositories/scope.js';
import { afterChecksStored } from './clv-jobs.service.js';

/** How far past the server's clock a check may close: tills' clocks drift, a day is the most we accept. */
export const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

/** POS checks arriving from a connector (`POST /pos/checks/`). */
export interface PosChecksService {
  /** Stores the good checks of a batch, skips the ones stored before, and says why each other one was refused. */
  ingest(scope: WriteScope, checks: readonly unknown[]): Promise<PosChecksBatchAnswer>;
}

/** `lines.0.amount` → `lines[0].amount`: the path of the field at fault, as a caller would write it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((step, index) =>
      typeof step === 'number' ? `[${step}]` : `${index === 0 ? '' : '.'}${String(step)}`,
    )
    .join('');
}

/** The refusal of the check at `index`: the first problem zod found, with its field. */
export function rejection(index: number, error: z.ZodError): RejectedCheck {
  const issue = error.issues[0]!;
  const field = fieldPath(issue.path);
  return { index, field: field || 'check', reason: issue.message };
}

/** The POS check service over a database; `now` is the clock future checks are judged by. */
export function posChecksService(db: Database, now: () => Date = () => new Date()): PosChecksService {
  return {
    async ingest(scope, raw) {
      const rejected: RejectedCheck[] = [];
      const valid: { index: number; check: IngestCheck }[] = [];
      const latest = now().getTime() + FUTURE_TOLERANCE_MS;
      raw.forEach((candidate, index) => {
        const parsed = PosCheckInputSchema.safeParse(candidate);
        if (!parsed.success) rejected.push(rejection(index, parsed.error));
        else if (parsed.data.closed_at.getTime() > latest) {
          rejected.push({ index, field: 'closed_at', reason: 'closed_at is more than a day in the future' });
        } else valid.push({ index, check: parsed.data });
      });
      const result = await db.tenant(scope.companyId, async (sql) => {
        const unknown = new Set(
          await missingIds(
            sql,
            scope.companyId,
            'locations',
            valid.map(({ check }) => check.location_id),
          ),
        );
        const storable = valid.filter(({ index, check }) => {
          if (!unknown.has(check.location_id)) return true;
          // Another company's location reads as no location at all.
          rejected.push({
            index,
            field: 'location_id',
            reason: `location ${check.location_id} does not exist`,
          });
          return false;
        });
        const stored = await ingestChecks(
          sql,
          scope,
          storable.map(({ check }) => check),
        );
        return { created: stored.created.length, unchanged: stored.unchanged.length };
      });
      // The checks are stored: what follows is upkeep, and its failure must not answer an error that makes the
      // connector send them again. Many new checks ask for a CLV refit (docs/clv.md; the nightly run catches up).
      await afterChecksStored(db, scope.companyId, result.created).catch(() => false);
      await noteChecksStored(db, result.created).catch(() => undefined);
      return { ...result, rejected: rejected.sort((a, b) => a.index - b.index) };
    },
  };
}
