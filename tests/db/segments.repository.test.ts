import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { UnknownReferenceError } from '../../server/repositories/references.js';
import {
  cloneSegment,
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  replaceSegmentGroups,
  SegmentRulesError,
  updateSegment,
} from '../../server/repositories/segments.repository.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { systemScope } from '../support/factories.js';
import { countRows, makeTestLocation, makeTestLocationGroup } from '../support/marketing.js';
import { useTwoCompanies } from '../support/two-companies.js';

const visitRules = [
  { field: 'visit_count', op: 'gte', value: 3 },
  {
    field: 'last_visit',
    op: 'within_days',
    value: 30,
    meta: { label: 'Café “regulars”', nested: [1, null, true] },
  },
];

describe('segments repository', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  it('creates a segment with ordered groups whose rules round-trip as JSON', async () => {
    const scope = systemScope(companyA);
    const location = await makeTestLocation(db, companyA, 'Harbor');
    const group = await makeTestLocationGroup(db, companyA, 'Downtown', [location.id]);
    const segment = await db.tenant(scope.companyId, (sql) =>
      createSegment(sql, scope, {
        name: 'Regulars',
        description: 'Three visits or more',
        location_ids: [location.id, location.id],
        group_ids: [group.id],
        segment_groups: [
          { segment_rules: visitRules },
          { segment_rules: [] },
          { segment_rules: [{ field: 'vip' }] },
        ],
      }),
    );
    expect(segment).toMatchObject({
      company_id: companyA,
      name: 'Regulars',
      segment_type: 'custom',
      location_ids: [location.id],
      group_ids: [group.id],
    });
    expect(segment.segment_groups.map((g) => g.position)).toEqual([0, 1, 2]);
    expect(segment.segment_groups.map((g) => g.segment_rules)).toEqual([visitRules, [], [{ field: 'vip' }]]);
    expect(await db.tenant(companyA, (sql) => getSegment(sql, companyA, segment.id))).toEqual(segment);

    await expect(
      db.tenant(scope.companyId, (sql) =>
        createSegment(sql, scope, { name: 'Bad', segment_groups: [{ segment_rules: {} as unknown[] }] }),
      ),
    ).rejects.toBeInstanceOf(SegmentRulesError);
  });

  it('pages and searches by name with the total count, treating wildcards literally', async () => {
    const scope = systemScope(companyA);
    for (const name of ['Lapsed 50%', 'big_spenders', 'Birthday month', 'bigXspenders']) {
      await db.tenant(scope.companyId, (sql) => createSegment(sql, scope, { name }));
    }
    const page = await db.tenant(companyA, (sql) => listSegments(sql, companyA, { limit: 2, offset: 0 }));
    expect(page.count).toBe(5);
    expect(page.rows.map((row) => row.name)).toEqual(['big_spenders', 'bigXspenders']);
    expect(
      (
        await db.tenant(companyA, (sql) => listSegments(sql, companyA, { q: 'BIG_', limit: 10, offset: 0 }))
      ).rows.map((r) => r.name),
    ).toEqual(['big_spenders']);
    const percent = await db.tenant(companyA, (sql) =>
      listSegments(sql, companyA, { q: '50%', limit: 10, offset: 0 }),
    );
    expect(percent.count).toBe(1);
    expect(percent.rows[0]?.segment_groups).toEqual([]);
  });

  it('replaces groups keeping the ids given, adding new ones and removing the rest, in one transaction', async () => {
    const scope = systemScope(companyA);
    const segment = await db.tenant(scope.companyId, (sql) =>
      createSegment(sql, scope, {
        name: 'Replace me',
        segment_groups: [
          { segment_rules: [{ a: 1 }] },
          { segment_rules: [{ b: 2 }] },
          { segment_rules: [{ c: 3 }] },
        ],
      }),
    );
    const [first, second, third] = segment.segment_groups;
    const replaced = await db.tenant(scope.companyId, (sql) =>
      replaceSegmentGroups(sql, scope, segment.id, [
        { id: third!.id, segment_rules: [{ c: 33 }] },
        { segment_rules: [{ d: 4 }] },
        { id: first!.id, segment_rules: [{ a: 1 }] },
      ]),
    );
    expect(replaced?.segment_groups.map((g) => g.segment_rules)).toEqual([
      [{ c: 33 }],
      [{ d: 4 }],
      [{ a: 1 }],
    ]);
    expect(replaced?.segment_groups[0]?.id).toBe(third!.id);
    expect(replaced?.segment_groups[2]?.id).toBe(first!.id);
    expect(replaced?.segment_groups.map((g) => g.id)).not.toContain(second!.id);

    // An id that is not a group of this segment fails the whole change: the name stays, the groups too.
    const other = await db.tenant(scope.companyId, (sql) =>
      createSegment(sql, scope, { name: 'Other', segment_groups: [{ segment_rules: [] }] }),
    );
    await expect(
      db.tenant(scope.companyId, (sql) =>
        updateSegment(sql, scope, segment.id, {
          name: 'Renamed',
          segment_groups: [{ id: other.segment_groups[0]!.id, segment_rules: [] }],
        }),
      ),
    ).rejects.toBeInstanceOf(UnknownReferenceError);
    expect(await db.tenant(companyA, (sql) => getSegment(sql, companyA, segment.id))).toEqual(replaced);

    const renamed = await db.tenant(scope.companyId, (sql) =>
      updateSegment(sql, scope, segment.id, { name: 'Renamed', description: 'now' }),
    );
    expect(renamed).toMatchObject({ name: 'Renamed', description: 'now' });
    expect(renamed?.segment_groups).toEqual(replaced?.segment_groups);
    expect(
      await db.tenant(scope.companyId, (sql) => updateSegment(sql, scope, 0, { name: 'Nothing' })),
    ).toBeNull();
  });

  it('clones a segment with fresh groups and deletes one with its groups, recording the audit trail', async () => {
    const scope = systemScope(companyA);
    const source = await db.tenant(scope.companyId, (sql) =>
      createSegment(sql, scope, {
        name: 'Weekend diners',
        segment_type: 'behaviour',
        segment_groups: [{ segment_rules: [{ day: 'sat' }] }, { segment_rules: [{ day: 'sun' }] }],
      }),
    );
    const copy = await db.tenant(scope.companyId, (sql) => cloneSegment(sql, scope, source.id));
    expect(copy).toMatchObject({ name: 'Weekend diners (copy)', segment_type: 'behaviour' });
    expect(copy?.segment_groups.map((g) => g.segment_rules)).toEqual([[{ day: 'sat' }], [{ day: 'sun' }]]);
    expect(copy?.segment_groups.map((g) => g.id)).not.toContain(source.segment_groups[0]!.id);
    expect(
      (await db.tenant(scope.companyId, (sql) => cloneSegment(sql, scope, source.id, 'Named copy')))?.name,
    ).toBe('Named copy');
    expect(await db.tenant(scope.companyId, (sql) => cloneSegment(sql, scope, 0))).toBeNull();

    const groupsBefore = await countRows(db, 'segment_groups', companyA);
    expect(await db.tenant(scope.companyId, (sql) => deleteSegment(sql, scope, copy!.id))).toBe(true);
    expect(await db.tenant(companyA, (sql) => getSegment(sql, companyA, copy!.id))).toBeNull();
    expect(await db.tenant(scope.companyId, (sql) => deleteSegment(sql, scope, copy!.id))).toBe(false);
    expect(await countRows(db, 'segment_groups', companyA)).toBe(groupsBefore - 2);
    expect(
      (await db.tenant(companyA, (sql) => getSegment(sql, companyA, source.id)))?.segment_groups,
    ).toHaveLength(2);

    const audit = await db.tenant(companyA, (sql) =>
      listAudit(sql, companyA, { entity: 'segment', entityId: copy!.id }),
    );
    expect(audit.map((entry) => entry.action)).toEqual(['delete', 'create']);
  });

  it("never returns, changes or points at another company's segments, even without row-level security", async () => {
    for (const guarded of [db, withoutRowLevelSecurity(db)]) {
      const label = guarded === db ? 'rls' : 'plain';
      const theirLocation = await makeTestLocation(guarded, companyB, `Their location ${label}`);
      const theirGroup = await makeTestLocationGroup(guarded, companyB, `Their group ${label}`, [
        theirLocation.id,
      ]);
      const theirs = await guarded.tenant(companyB, (sql) =>
        createSegment(sql, systemScope(companyB), {
          name: `Theirs ${label}`,
          segment_groups: [{ segment_rules: [{ secret: true }] }],
        }),
      );
      const mine = await guarded.tenant(companyA, (sql) =>
        createSegment(sql, systemScope(companyA), { name: `Mine ${label}` }),
      );
      const scope = systemScope(companyA);

      const list = await guarded.tenant(companyA, (sql) =>
        listSegments(sql, companyA, { limit: 100, offset: 0 }),
      );
      expect(list.rows.every((row) => row.company_id === companyA)).toBe(true);
      expect(list.rows.map((row) => row.id)).not.toContain(theirs.id);
      expect(await guarded.tenant(companyA, (sql) => getSegment(sql, companyA, theirs.id))).toBeNull();
      expect(
        await guarded.tenant(scope.companyId, (sql) =>
          updateSegment(sql, scope, theirs.id, { name: 'Taken' }),
        ),
      ).toBeNull();
      expect(
        await guarded.tenant(scope.companyId, (sql) => replaceSegmentGroups(sql, scope, theirs.id, [])),
      ).toBeNull();
      expect(await guarded.tenant(scope.companyId, (sql) => cloneSegment(sql, scope, theirs.id))).toBeNull();
      expect(await guarded.tenant(scope.companyId, (sql) => deleteSegment(sql, scope, theirs.id))).toBe(
        false,
      );

      // B's ids used as references by A are refused, and nothing of A's is half-written.
      const countBefore = (
        await guarded.tenant(companyA, (sql) => listSegments(sql, companyA, { limit: 1, offset: 0 }))
      ).count;
      await expect(
        guarded.tenant(scope.companyId, (sql) =>
          createSegment(sql, scope, { name: 'Sneaky', location_ids: [theirLocation.id] }),
        ),
      ).rejects.toThrow(UnknownReferenceError);
      await expect(
        guarded.tenant(scope.companyId, (sql) =>
          createSegment(sql, scope, { name: 'Sneaky', group_ids: [theirGroup.id] }),
        ),
      ).rejects.toThrow(UnknownReferenceError);
      await expect(
        guarded.tenant(scope.companyId, (sql) =>
          updateSegment(sql, scope, mine.id, {
            segment_groups: [{ id: theirs.segment_groups[0]!.id, segment_rules: [] }],
          }),
        ),
      ).rejects.toThrow(UnknownReferenceError);
      expect(
        (await guarded.tenant(companyA, (sql) => listSegments(sql, companyA, { limit: 1, offset: 0 }))).count,
      ).toBe(countBefore);
      expect(
        (await guarded.tenant(companyA, (sql) => getSegment(sql, companyA, mine.id)))?.segment_groups,
      ).toEqual([]);

      expect(await guarded.tenant(companyB, (sql) => getSegment(sql, companyB, theirs.id))).toEqual(theirs);
    }
  });
});
