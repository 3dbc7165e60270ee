import type { Database, Sql } from '../db/database.js';
import { ownerLanguage } from '../repositories/account-settings.repository.js';
import { claimStarterSegments, companiesOwedStarterSegments } from '../repositories/companies.repository.js';
import { createSegment } from '../repositories/segments.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { starterSegments } from '../segments/starter-segments.js';
import { refreshCache } from './segment-figures.js';

/**
 * Giving a company its seven starter segments (docs/segments.md "Starter segments"): at sign-up and in the demo
 * load, in the transaction that creates the company; for companies that existed before migration 0022, once, by
 * a step after the server starts. Each is saved with its figures worked out, like a segment saved in the app.
 */

/**
 * Saves the seven starter segments of the company in the caller's transaction, named in its owner's language,
 * each with its computed figures (zeros for a company without guests yet).
 */
export async function createStarterSegments(sql: Sql, scope: WriteScope): Promise<void> {
  const language = await ownerLanguage(sql, scope.companyId);
  for (const starter of starterSegments(language)) {
    const row = await createSegment(sql, scope, {
      name: starter.name,
      description: starter.description,
      segment_groups: starter.segment_groups,
    });
    await refreshCache(sql, scope, row);
  }
}

/**
 * Gives every company still owed its starter segments (marked NULL by migration 0022) its seven, one platform
 * transaction per company that claims the mark first: run again, or by two processes at once, it gives none
 * twice, and a starter the company deleted never comes back. Answers the companies given them.
 */
export async function giveOwedStarterSegments(db: Database, signal?: AbortSignal): Promise<number[]> {
  const owed = await db.platform((sql) => companiesOwedStarterSegments(sql));
  const given: number[] = [];
  for (const companyId of owed) {
    signal?.throwIfAborted();
    const scope: WriteScope = { companyId, userId: null, actorUserId: null };
    const done = await db.platform(async (sql) => {
      if (!(await claimStarterSegments(sql, companyId))) return false;
      await createStarterSegments(sql, scope);
      return true;
    });
    if (done) given.push(companyId);
  }
  return given;
}
