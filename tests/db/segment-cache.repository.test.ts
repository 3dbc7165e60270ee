import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import {
  getSegmentCache,
  listSegmentCaches,
  segmentCacheOrDefaults,
  SYNTHETIC_SEGMENT_CACHE_ID_BASE,
  upsertSegmentCache,
  type SegmentCacheFigures,
} from '../../server/repositories/segment-cache.repository.js';
import { createSegment } from '../../server/repositories/segments.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

function figures(allCustomers: number): SegmentCacheFigures {
  return {
    all_customers: allCustomers,
    all_customers_pct: 12.5,
    marketable_customers: 40,
    marketable_pct: 4.25,
    trackable_customers: 30,
    trackable_pct: 3.1234,
    all_clv_cents: 123456,
    all_annual_clv_cents: 45678,
    all_clf: 2.5,
    all_recency: 17.25,
    marketable_clv_cents: 99999,
    marketable_annual_clv_cents: 1001,
    marketable_clf: 1.75,
    marketable_recency: 8,
    trackable_clv_cents: 5,
    trackable_annual_clv_cents: 0,
    trackable_clf: 0.5,
    trackable_recency: 3.5,
  };
}

describe('segment cache repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('stores figures, replaces them on recompute and reads them back exactly', async () => {
    const scope = systemScope(companyA);
    const segment = await db.tenant(scope.companyId, (sql) => createSegment(sql, scope, { name: 'Cached' }));
    expect(await db.tenant(companyA, (sql) => getSegmentCache(sql, companyA, segment.id))).toBeNull();

    const first = await db.tenant(scope.companyId, (sql) =>
      upsertSegmentCache(sql, scope, segment.id, figures(100)),
    );
    expect(first).toMatchObject({ company_id: companyA, segment_id: segment.id, ...figures(100) });
    const second = await db.tenant(scope.companyId, (sql) =>
      upsertSegmentCache(sql, scope, segment.id, figures(250)),
    );
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject(figures(250));
    expect(second.computed_at.getTime()).toBeGreaterThanOrEqual(first.computed_at.getTime());
    expect(await db.tenant(companyA, (sql) => getSegmentCache(sql, companyA, segment.id))).toEqual(second);
    expect(await countRows(db, 'segment_cache', companyA)).toBe(1);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'segment_cache', entityId: first.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['update', 'create']);
  });

  it('lists the caches of several segments, leaving out those never computed', async () => {
    const scope = systemScope(companyA);
    const computed = await db.tenant(scope.companyId, (sql) =>
      createSegment(sql, scope, { name: 'Computed' }),
    );
    const pending = await db.tenant(scope.companyId, (sql) => createSegment(sql, scope, { name: 'Pending' }));
    await db.tenant(scope.companyId, (sql) => upsertSegmentCache(sql, scope, computed.id, figures(7)));
    const caches = await db.tenant(companyA, (sql) =>
      listSegmentCaches(sql, companyA, [pending.id, computed.id]),
    );
    expect(caches.map((cache) => cache.segment_id)).toEqual([computed.id]);
  });

  it('presents stored figures in the spec shape and zeroed defaults with synthetic ids from 10000', async () => {
    const scope = systemScope(companyA);
    const segment = await db.tenant(scope.companyId, (sql) =>
      createSegment(sql, scope, { name: 'Presented' }),
    );
    const stored = await db.tenant(scope.companyId, (sql) =>
      upsertSegmentCache(sql, scope, segment.id, figures(100)),
    );
    const view = segmentCacheOrDefaults(stored, segment.id);
    expect(view).toMatchObject({
      id: stored.id,
      segment: segment.id,
      all_customers: 100,
      all_customers_pct: 12.5,
      trackable_pct: 3.1234,
      all_clv: 1234.56,
      all_annual_clv: 456.78,
      marketable_clv: 999.99,
      trackable_clv: 0.05,
      all_clf: 2.5,
      marketable_recency: 8,
    });

    const defaults = [1, 2, 3].map((segmentId) => segmentCacheOrDefaults(null, segmentId));
    expect(defaults.map((cache) => cache.id)).toEqual([10001, 10002, 10003]);
    expect(defaults.every((cache) => cache.id >= SYNTHETIC_SEGMENT_CACHE_ID_BASE)).toBe(true);
    const { id, segment: segmentRef, computed_at, ...numbers } = segmentCacheOrDefaults(null, 42);
    expect({ id, segmentRef, computed_at }).toEqual({ id: 10042, segmentRef: 42, computed_at: null });
    expect(Object.keys(numbers)).toHaveLength(18);
    expect(Object.values(numbers).every((value) => value === 0)).toBe(true);
  });

  it("never reads or writes another company's cache, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const theirs = await guarded.tenant(companyB, (sql) =>
        createSegment(sql, systemScope(companyB), { name: 'Theirs' }),
      );
      const theirCache = await guarded.tenant(companyB, (sql) =>
        upsertSegmentCache(sql, systemScope(companyB), theirs.id, figures(5)),
      );

      expect(await guarded.tenant(companyA, (sql) => getSegmentCache(sql, companyA, theirs.id))).toBeNull();
      expect(await guarded.tenant(companyA, (sql) => listSegmentCaches(sql, companyA, [theirs.id]))).toEqual(
        [],
      );
      const before = await countRows(guarded, 'segment_cache', companyA);
      await expect(
        guarded.tenant(companyA, (sql) =>
          upsertSegmentCache(sql, systemScope(companyA), theirs.id, figures(999)),
        ),
      ).rejects.toBeInstanceOf(UnknownReferenceError);
      expect(await countRows(guarded, 'segment_cache', companyA)).toBe(before);
      expect(await guarded.tenant(companyB, (sql) => getSegmentCache(sql, companyB, theirs.id))).toEqual(
        theirCache,
      );
    }
  });
});
