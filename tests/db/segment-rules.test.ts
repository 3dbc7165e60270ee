import { beforeAll, describe, expect, it } from 'vitest';
import type { Database, Sql } from '../../server/db/database.js';
import { queryBuilder } from '../../server/db/query-builder.js';
import { createLocationGroup } from '../../server/repositories/location-groups.repository.js';
import { ingestChecks, type IngestCheck } from '../../server/repositories/pos-ingestion.repository.js';
import {
  countSegment,
  countSegmentMembers,
  segmentMemberIds,
  SegmentRulesRefusedError,
} from '../../server/repositories/segment-rules.repository.js';
import { refreshRfmScores } from '../../server/repositories/rfm.repository.js';
import { rfmScores } from '../../server/repositories/segment-rules/rfm.js';
import {
  addListMembers,
  createSubscriberList,
} from '../../server/repositories/subscriber-lists.repository.js';
import { ApiError } from '../../server/http/errors.js';
import { segmentsService } from '../../server/services/segments.service.js';
import { checkRuleSet, type SegmentRuleSet } from '../../src/schemas/segments.js';
import { seededRandom } from '../support/clv-simulation.js';
import { withoutRowLevelSecurity } from '../support/database.js';
import { makeGuest, makeLocation, makeSubscriber, systemScope } from '../support/factories.js';
import { ruleSetGenerator, type RuleIds } from '../support/segment-rule-generator.js';
import { SegmentModel, type SegmentData } from '../support/segment-model.js';
import { useTwoCompanies } from '../support/two-companies.js';

// "Today" for every count: a fixed moment, so windows and birthdays are the same on every run.
const AS_OF = new Date('2026-06-15T19:00:00Z');
const DAY_MS = 86_400_000;
const MENU = [
  ['Burger', 'Mains'],
  ['Salad', 'Mains'],
  ['Fries', 'Sides'],
  ['Slaw', 'Sides'],
  ['Soda', 'Drinks'],
  ['Coffee', 'Drinks'],
] as const;
const ZIPS = ['02134', '10001', '94110'];

describe('segment rules compiled to SQL', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  let ids: RuleIds;
  let other: { location: number; group: number; item: number; category: number; list: number };
  let model: SegmentModel;
  const random = seededRandom(14);
  const whole = (max: number) => Math.floor(random() * (max + 1));
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const asA = <T>(fn: (sql: Sql) => Promise<T>) => db.tenant(companyA, fn);
  const count = (companyId: number, ruleSet: SegmentRuleSet, locationIds: number[] = []) =>
    db.tenant(companyId, (sql) => countSegment(sql, companyId, ruleSet, { locationIds, asOf: AS_OF }));

  /** A check of a guest (or of nobody), at a random time of day within 420 days before AS_OF. */
  function check(number: number, locations: number[], guest: IngestCheck['guest']): IngestCheck {
    const closed = new Date(AS_OF.getTime() - whole(420) * DAY_MS - whole(24 * 60) * 60_000);
    return {
      location_id: pick(locations),
      check_number: `S-${number}`,
      opened_at: new Date(closed.getTime() - (20 + whole(100)) * 60_000),
      closed_at: closed,
      total: 300 + whole(9000),
      guest,
      lines: Array.from({ length: whole(3) }, () => {
        const [item, category] = pick(MENU);
        return { menu_item: item, category, quantity: 1 + whole(2), amount: 500 + whole(1500) };
      }),
    };
  }

  async function readData(): Promise<SegmentData> {
    return db.tenant(companyA, async (sql) => {
      const rows = async <Row>(text: string) => (await sql.query<Row>(text, [companyA])).rows;
      return {
        timeZone: 'America/Los_Angeles',
        asOf: AS_OF,
        guests: await rows(
          `SELECT id::int, pos_id, hashid, customer_name, last_four_digits FROM guests WHERE company_id = $1`,
        ),
        checks: await rows(`SELECT id::int, guest_id::int, location_id::int, opened_at, closed_at, total_cents
                            FROM pos_checks WHERE company_id = $1`),
        lines: await rows(
          `SELECT check_id::int, menu_item_id::int FROM pos_check_lines WHERE company_id = $1`,
        ),
        items: await rows(`SELECT id::int, category_id::int FROM menu_items WHERE company_id = $1`),
        locations: await rows(`SELECT id::int, time_zone FROM locations WHERE company_id = $1`),
        groupMembers: await rows(
          `SELECT group_id::int, location_id::int FROM location_group_members WHERE company_id = $1`,
        ),
        subscribers:
          await rows(`SELECT id::int, guest_id::int, subscribed, birthday::text, zip FROM subscribers
                                 WHERE company_id = $1`),
        listMembers: await rows(
          `SELECT list_id::int, subscriber_id::int FROM subscriber_list_members WHERE company_id = $1`,
        ),
        predictions:
          await rows(`SELECT guest_id::int, probability_alive::float8, clv_cents::int FROM guest_predictions
                                 WHERE company_id = $1`),
      };
    });
  }

  beforeAll(async () => {
    await db.owner(async (sql) => {
      await sql.query(`UPDATE companies SET time_zone = 'America/Los_Angeles' WHERE id = $1`, [companyA]);
    });
    const locations = [
      (await makeLocation(db, companyA, 'North')).id,
      (await makeLocation(db, companyA, 'South')).id,
      (await makeLocation(db, companyA, 'Harbor')).id,
    ];
    // Day parts are read in each location's own zone.
    await db.owner((sql) =>
      sql.query(
        `UPDATE locations SET time_zone = (ARRAY['America/Chicago', 'Europe/Paris'])[id % 2 + 1]
                 WHERE id = ANY($1::bigint[]) AND name <> 'North'`,
        [locations],
      ),
    );
    const groups = await asA((sql) =>
      Promise.all([
        createLocationGroup(sql, systemScope(companyA), {
          name: 'Coast',
          description: '',
          location_ids: [locations[0]!, locations[2]!],
        }),
        createLocationGroup(sql, systemScope(companyA), {
          name: 'Inland',
          description: '',
          location_ids: [locations[1]!],
        }),
      ]),
    );
    const identities: IngestCheck['guest'][] = [
      ...Array.from({ length: 50 }, (_, n) => ({ pos_id: `P-${n}` })),
      ...Array.from({ length: 10 }, (_, n) => ({
        customer_name: `Card ${n}`,
        last_four_digits: `${1000 + n}`,
      })),
    ];
    const checks = Array.from({ length: 700 }, (_, n) =>
      check(n, locations, random() < 0.1 ? undefined : pick(identities)),
    );
    for (let start = 0; start < checks.length; start += 250) {
      await asA((sql) => ingestChecks(sql, systemScope(companyA), checks.slice(start, start + 250)));
    }
    for (let n = 0; n < 6; n++) await makeGuest(db, companyA);

    const guestIds = await asA(
      async (sql) =>
        (
          await sql.query<{ id: number }>(`SELECT id::int FROM guests WHERE company_id = $1 ORDER BY id`, [
            companyA,
          ])
        ).rows,
    );
    const lists = await asA((sql) =>
      Promise.all(
        ['VIP', 'Brunch', 'Press'].map((name) => createSubscriberList(sql, systemScope(companyA), name)),
      ),
    );
    const subscriberIds: number[] = [];
    const asOfDay = AS_OF.getTime();
    for (const { id } of [...guestIds, { id: null }, { id: null }, { id: null }]) {
      const linked = id === null ? 1 : random() < 0.5 ? 0 : random() < 0.8 ? 1 : 2;
      for (let n = 0; n < linked; n++) {
        const draw = random();
        const birthday =
          draw < 0.2
            ? null
            : draw < 0.3
              ? '2000-02-29'
              : draw < 0.6
                ? new Date(asOfDay + (whole(70) - 5) * DAY_MS - whole(50) * 365 * DAY_MS)
                    .toISOString()
                    .slice(0, 10)
                : `19${50 + whole(49)}-${String(1 + whole(11)).padStart(2, '0')}-${String(1 + whole(27)).padStart(2, '0')}`;
        const subscriber = await makeSubscriber(db, companyA, {
          guest_id: id,
          subscribed: random() < 0.6,
          birthday,
          zip: random() < 0.2 ? '' : pick(ZIPS),
        });
        subscriberIds.push(subscriber.id);
      }
    }
    await asA(async (sql) => {
      for (const list of lists) {
        await addListMembers(
          sql,
          systemScope(companyA),
          list.id,
          subscriberIds.filter(() => random() < 0.3),
        );
      }
      for (const { id } of guestIds) {
        if (random() < 0.2) continue;
        const alive = random() < 0.2 ? null : Math.round(random() * 1000) / 1000;
        await sql.query(
          `INSERT INTO guest_predictions (company_id, guest_id, probability_alive, expected_visits_next_year,
             expected_spend_per_visit_cents, annual_clv_cents, clv_cents) VALUES ($1, $2, $3, 1, 1000, 1000, $4)`,
          [companyA, id, alive, whole(60_000)],
        );
      }
    });

    // Company B: one of everything a rule of A could name.
    const locationB = (await makeLocation(db, companyB, 'Elsewhere')).id;
    await db.tenant(companyB, (sql) =>
      ingestChecks(sql, systemScope(companyB), [
        {
          ...check(9_000, [locationB], { pos_id: 'B-1' }),
          lines: [{ menu_item: 'Burger', category: 'Mains', quantity: 1, amount: 900 }],
        },
      ]),
    );
    other = await db.tenant(companyB, async (sql) => {
      const group = await createLocationGroup(sql, systemScope(companyB), {
        name: 'B',
        description: '',
        location_ids: [locationB],
      });
      const list = await createSubscriberList(sql, systemScope(companyB), 'B list');
      const { rows } = await sql.query<{ item: number; category: number }>(
        `SELECT id::int AS item, category_id::int AS category FROM menu_items WHERE company_id = $1`,
        [companyB],
      );
      return {
        location: locationB,
        group: group.id,
        item: rows[0]!.item,
        category: rows[0]!.category,
        list: list.id,
      };
    });

    const data = await readData();
    ids = {
      locations,
      groups: groups.map((group) => group.id),
      items: data.items.map((item) => item.id),
      categories: [...new Set(data.items.map((item) => item.category_id))],
      lists: lists.map((list) => list.id),
      zips: ZIPS,
    };
    model = new SegmentModel(data);
    // The `rfm_cell` rule reads the stored scores, worked out as the CLV job does once the data is in.
    await asA((sql) => refreshRfmScores(sql, companyA));
  }, 120_000);

  it('count the same guests as an independent evaluation in JS, over 600 random rule sets', async () => {
    const generate = ruleSetGenerator(random, ids, AS_OF);
    let nonEmpty = 0;
    for (let n = 0; n < 600; n++) {
      const checked = checkRuleSet(generate());
      if (!checked.ok) throw new Error(`generated an invalid rule set: ${JSON.stringify(checked.fields)}`);
      const ruleSet = checked.ruleSet;
      const picked = random() < 0.25 ? ids.locations.filter(() => random() < 0.5) : [];
      const expected = model.counts(ruleSet, picked);
      const context = JSON.stringify({ case: n, picked, ruleSet });
      expect(await count(companyA, ruleSet, picked), context).toEqual(expected);
      if (n % 3 === 0) {
        const members = await asA((sql) =>
          segmentMemberIds(sql, companyA, ruleSet, { limit: 1_000 }, { locationIds: picked, asOf: AS_OF }),
        );
        expect(members, context).toEqual(model.members(ruleSet, picked));
      }
      if (expected.all > 0 && expected.all < model.members({ segment_groups: [] }, []).length) nonEmpty++;
    }
    // The cases are not all trivially everyone or no one.
    expect(nonEmpty).toBeGreaterThan(150);
  }, 240_000);

  it('count several rule sets under one picker in one statement, each as the independent evaluation', async () => {
    const generate = ruleSetGenerator(random, ids, AS_OF);
    for (let n = 0; n < 20; n++) {
      const ruleSets = Array.from({ length: 1 + (n % 4) }, () => {
        const checked = checkRuleSet(generate());
        if (!checked.ok) throw new Error(`generated an invalid rule set: ${JSON.stringify(checked.fields)}`);
        return checked.ruleSet;
      });
      const picked = n % 2 === 0 ? ids.locations.filter(() => random() < 0.5) : [];
      const counted = await asA((sql) =>
        countSegmentMembers(sql, companyA, ruleSets, { locationIds: picked, asOf: AS_OF }),
      );
      const context = JSON.stringify({ case: n, picked, ruleSets });
      expect(counted, context).toEqual(ruleSets.map((ruleSet) => model.counts(ruleSet, picked).all));
    }
  });

  it('score recency, frequency and monetary quintiles as an independent ranking does', async () => {
    const compiled = rfmScores(companyA).compile(queryBuilder);
    const rows = await asA(
      async (sql) =>
        (
          await sql.query<{ guest_id: string; r: number; f: number; m: number }>(compiled.sql, [
            ...compiled.parameters,
          ])
        ).rows,
    );
    const scored = new Map(rows.map((row) => [Number(row.guest_id), { r: row.r, f: row.f, m: row.m }]));
    expect(scored).toEqual(model.rfm);
    expect(new Set(rows.map((row) => row.r))).toEqual(new Set([1, 2, 3, 4, 5]));
    // The stored scores are the same ranking.
    const stored = await asA(
      async (sql) =>
        (
          await sql.query<{ guest_id: string; r: number; f: number; m: number }>(
            'SELECT guest_id, r, f, m FROM guest_rfm WHERE company_id = $1',
            [companyA],
          )
        ).rows,
    );
    expect(new Map(stored.map((row) => [Number(row.guest_id), { r: row.r, f: row.f, m: row.m }]))).toEqual(
      model.rfm,
    );
  });

  it('page members by id after a keyset', async () => {
    const everyone = model.members({ segment_groups: [] }, []);
    const first = await asA((sql) =>
      segmentMemberIds(sql, companyA, { segment_groups: [] }, { limit: 10 }, { asOf: AS_OF }),
    );
    const next = await asA((sql) =>
      segmentMemberIds(
        sql,
        companyA,
        { segment_groups: [] },
        { afterId: first.at(-1), limit: 10 },
        { asOf: AS_OF },
      ),
    );
    expect([...first, ...next]).toEqual(everyone.slice(0, 20));
  });

  it("refuse another company's location, group, item, category, list and picked location, naming each field", async () => {
    const ruleSet = checkRuleSet({
      segment_groups: [
        { segment_rules: [{ type: 'visit_count', operator: 'gte', value: 1 }] },
        {
          segment_rules: [
            { type: 'location', operator: 'in', value: [ids.locations[0], other.location] },
            { type: 'location', operator: 'in', value: [], group_ids: [other.group] },
            { type: 'ordered_item', operator: 'any', value: [other.item] },
            { type: 'ordered_category', operator: 'none', value: [other.category] },
            { type: 'in_list', operator: 'any', value: [ids.lists[0], other.list] },
          ],
        },
      ],
    });
    if (!ruleSet.ok) throw new Error('the rule set is well formed');
    const refused = await count(companyA, ruleSet.ruleSet, [other.location]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SegmentRulesRefusedError);
    const fields = (refused as SegmentRulesRefusedError).fields;
    expect(Object.keys(fields).sort()).toEqual([
      'location_id',
      'segment_groups[1].segment_rules[0].value',
      'segment_groups[1].segment_rules[1].group_ids',
      'segment_groups[1].segment_rules[2].value',
      'segment_groups[1].segment_rules[3].value',
      'segment_groups[1].segment_rules[4].value',
    ]);
    expect(fields['segment_groups[1].segment_rules[0].value']?.message).toBe(
      `segment_groups[1].segment_rules[0].value names location ${other.location}, which does not exist`,
    );
  });

  it('refuse email engagement rules until campaigns send', async () => {
    const refused = await count(companyA, {
      segment_groups: [{ segment_rules: [{ type: 'opened', operator: 'any', value: [1] }] }],
    }).catch((error: unknown) => error);
    expect((refused as SegmentRulesRefusedError).fields).toEqual({
      'segment_groups[0].segment_rules[0].type': {
        code: 'not_valid',
        message: 'segment_groups[0].segment_rules[0].type opened is not available until campaigns are sent',
      },
    });
  });

  it("count only the company's own guests, with row-level security out of the way", async () => {
    const open = withoutRowLevelSecurity(db);
    const everyone = { segment_groups: [] };
    const counted = await open.tenant(companyB, (sql) =>
      countSegment(sql, companyB, everyone, { asOf: AS_OF }),
    );
    expect(counted).toEqual({ all: 1, marketable: 0, trackable: 1, company_guests: 1 });
    const visitedA = await open.tenant(companyA, (sql) =>
      countSegment(
        sql,
        companyA,
        { segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 1 }] }] },
        { asOf: AS_OF },
      ),
    );
    expect(visitedA.all).toBe(
      model.counts(
        { segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 1 }] }] },
        [],
      ).all,
    );
  });

  it('preview: counts a rule set as sent, and answers 400 naming the field of a bad or foreign rule', async () => {
    const rules = {
      segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 2 }] }],
    };
    const everywhere = { location_id: [], location_group_id: [] };
    // An all-time rule: the same count whatever day the preview runs.
    const expected = model.counts(rules as SegmentRuleSet, []);
    expect(await segmentsService(db).preview(companyA, rules.segment_groups, everywhere)).toMatchObject({
      all_customers: expected.all,
      marketable_customers: expected.marketable,
      trackable_customers: expected.trackable,
    });
    const problem = async (sent: { segment_groups: unknown }) => {
      const error = await segmentsService(db)
        .preview(companyA, sent.segment_groups, everywhere)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      return Object.keys((error as ApiError).fields ?? {});
    };
    expect(
      await problem({
        segment_groups: [
          { segment_rules: [] },
          { segment_rules: [{ type: 'visit_count', operator: 'gte', value: -1 }] },
        ],
      }),
    ).toEqual(['segment_groups[1].segment_rules[0].value']);
    expect(
      await problem({
        segment_groups: [{ segment_rules: [{ type: 'in_list', operator: 'any', value: [other.list] }] }],
      }),
    ).toEqual(['segment_groups[0].segment_rules[0].value']);
  });
});
