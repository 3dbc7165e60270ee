import { sql as rawSql, type RawBuilder, type SqlBool } from 'kysely';
import type { CompanyId } from '../../db/database.js';
import type { SegmentGroup, SegmentRule } from '../../../src/schemas/segments.js';
import type { SegmentClock } from './clock.js';
import { guestsInRfmCells } from './rfm.js';

/**
 * One condition per rule over the guest `g` (docs/segments.md has each type's definition). Every value is a
 * parameter; the only text joined in is this file's own. Figures over a window or over a group's locations
 * are read from the checks, grouped by guest; all-time figures over some locations from each guest's rows in
 * `guest_locations`; all-time figures over every location from the running totals on `guests`. A figure condition that holds for a guest without checks (`visits ≤ 2`) is written as "not among the
 * guests whose checks break it", so guests with no check count too.
 */

type Condition = RawBuilder<SqlBool>;

/**
 * Whether the guest `g` is among the ids `subquery` answers (column `guest_id`). Written as `(g.id IN (…)) IS
 * TRUE`, PostgreSQL keeps it a hashed subplan wherever it stands (under an OR, a NOT, a FILTER, or at the top,
 * where a bare IN would be pulled up into a join): the set is worked out once, held as a hash table, and each
 * guest costs one probe while guests are scanned. Joining the sets instead cost a hash join per set over rows
 * carried through each (twice the preview at a million guests, docs/segments.md "Speed"). A subplan is only
 * hashed when its estimated set fits the statement's hash memory, which segment-rules.repository.ts sizes for
 * sets of millions of guests; otherwise it would run again for each guest.
 */
export function inGuests(subquery: RawBuilder<unknown>): Condition {
  return rawSql<SqlBool>`(g.id IN (SELECT x.guest_id FROM (${subquery}) x WHERE x.guest_id IS NOT NULL)) IS TRUE`;
}

/** The guest is not among the ids `subquery` answers (see `inGuests`). */
function notInGuests(subquery: RawBuilder<unknown>): Condition {
  return rawSql<SqlBool>`NOT ${inGuests(subquery)}`;
}

/** What every rule of a group shares: the company, the clock and the group's scope. */
export interface RuleContext {
  companyId: CompanyId;
  clock: SegmentClock;
  /** Location sets of the group's `location` rules: its check figures count only checks in all of them. */
  scope: RawBuilder<number>[];
}

const TRUE: Condition = rawSql<SqlBool>`TRUE`;
const FALSE: Condition = rawSql<SqlBool>`FALSE`;

function and(conditions: readonly Condition[]): Condition {
  return conditions.length === 0 ? TRUE : rawSql<SqlBool>`(${rawSql.join(conditions, rawSql` AND `)})`;
}

function or(conditions: readonly Condition[]): Condition {
  return conditions.length === 0 ? FALSE : rawSql<SqlBool>`(${rawSql.join(conditions, rawSql` OR `)})`;
}

const ids = (value: unknown) => [...(value as readonly number[])];
const texts = (value: unknown) => [...(value as readonly string[])];

/** A location rule's set of locations: its ids and the members of its groups. */
export function locationSet(companyId: CompanyId, rule: SegmentRule): RawBuilder<number> {
  const groupIds = rule.group_ids ?? [];
  const members = rawSql`SELECT m.location_id FROM location_group_members m
                         WHERE m.company_id = ${companyId} AND m.group_id = ANY(${groupIds}::bigint[])`;
  return rawSql`SELECT unnest(${ids(rule.value)}::bigint[]) UNION ${members}`;
}

/**
 * How a figure is compared: whole figures (counts, cents; the schema admits whole counts only) as bigint, which
 * compares with the integer columns and index bounds without a cast per row; probabilities (stored as real) as
 * float8.
 */
type Figure = { toSql: (n: number) => number; type: 'bigint' | 'float8' };
const WHOLE: Figure = { toSql: (n) => n, type: 'bigint' };
const CENTS: Figure = { toSql: (dollars) => Math.round(dollars * 100), type: 'bigint' };
const FRACTION: Figure = { toSql: (n) => n, type: 'float8' };

/** `x op value` for the numeric operators, and whether it holds for 0. */
function compare(x: RawBuilder<unknown>, operator: string, value: unknown, figure: Figure) {
  const type = rawSql.raw(figure.type);
  // Whole figures are integer columns or aggregates already; only a probability's real is widened.
  const subject = figure.type === 'float8' ? rawSql`${x}::float8` : x;
  const at = (n: number) => rawSql`${figure.toSql(n)}::${type}`;
  switch (operator) {
    case 'gte':
      return {
        condition: rawSql<SqlBool>`${subject} >= ${at(value as number)}`,
        atZero: (value as number) <= 0,
      };
    case 'lte':
      return { condition: rawSql<SqlBool>`${subject} <= ${at(value as number)}`, atZero: true };
    case 'eq':
      return { condition: rawSql<SqlBool>`${subject} = ${at(value as number)}`, atZero: value === 0 };
    default: {
      const [low, high] = value as readonly [number, number];
      return { condition: rawSql<SqlBool>`${subject} BETWEEN ${at(low)} AND ${at(high)}`, atZero: low <= 0 };
    }
  }
}

/** The checks of guests in the group's scope and the rule's window, with optional joins and conditions. */
function guestChecks(
  ctx: RuleContext,
  windowDays: number | undefined,
  joins = rawSql``,
  where: Condition[] = [],
) {
  return rawSql`SELECT c.guest_id FROM pos_checks c ${joins} WHERE ${checkConditions(ctx, windowDays, where)}`;
}

/** The conditions on a guest's check `c`: the company's, in the group's scope and the rule's window. */
function checkConditions(ctx: RuleContext, windowDays: number | undefined, where: Condition[] = []) {
  return and([
    rawSql<SqlBool>`c.company_id = ${ctx.companyId}`,
    rawSql<SqlBool>`c.guest_id IS NOT NULL`,
    ...ctx.scope.map((set) => rawSql<SqlBool>`c.location_id IN (${set})`),
    ...(windowDays === undefined
      ? []
      : [rawSql<SqlBool>`c.closed_at >= ${ctx.clock.dayStart(windowDays - 1)}`]),
    ...where,
  ]);
}

/**
 * The guests' rows at the group's scope's locations where they have a check (`guest_locations`, alias `gl`):
 * visits, spend, first and last visit there are kept on each row as checks arrive (migration 0040), so a figure
 * over all time at some locations reads a row per guest and location, not the checks; the same figures the
 * checks give, grouped by guest.
 */
function guestLocationRows(ctx: RuleContext) {
  const where = and([
    rawSql<SqlBool>`gl.company_id = ${ctx.companyId}`,
    rawSql<SqlBool>`gl.visits > 0`,
    ...ctx.scope.map((set) => rawSql<SqlBool>`gl.location_id IN (${set})`),
  ]);
  return rawSql`SELECT gl.guest_id FROM guest_locations gl WHERE ${where}`;
}

/** Whether a rule's figure comes from `guest_locations`: scoped to locations, over all time. */
const locationScoped = (ctx: RuleContext, rule: SegmentRule) =>
  ctx.scope.length > 0 && rule.window_days === undefined;

/**
 * A figure of the guest's checks compared, guests without checks counting as 0: `aggregate` over the checks
 * (alias `c`) in a window, `rowsAggregate` over the guest's location rows (alias `gl`) when scoped to locations
 * for all time.
 */
function checkFigure(
  ctx: RuleContext,
  rule: SegmentRule,
  aggregate: RawBuilder<unknown>,
  rowsAggregate: RawBuilder<unknown>,
  figure: Figure,
) {
  const scoped = locationScoped(ctx, rule);
  const { condition, atZero } = compare(
    scoped ? rowsAggregate : aggregate,
    rule.operator,
    rule.value,
    figure,
  );
  const grouped = scoped
    ? rawSql`${guestLocationRows(ctx)} GROUP BY gl.guest_id`
    : rawSql`${guestChecks(ctx, rule.window_days)} GROUP BY c.guest_id`;
  return atZero
    ? notInGuests(rawSql`${grouped} HAVING NOT (${condition})`)
    : inGuests(rawSql`${grouped} HAVING ${condition}`);
}

/** Conditions on an instant (a first or last visit) for the day-count and date operators. */
function instantConditions(
  ctx: RuleContext,
  at: RawBuilder<unknown>,
  operator: string,
  value: unknown,
): Condition[] {
  const { clock } = ctx;
  const after = (bound: RawBuilder<Date>) => rawSql<SqlBool>`${at} >= ${bound}`;
  const before = (bound: RawBuilder<Date>) => rawSql<SqlBool>`${at} < ${bound}`;
  const pair = value as readonly [unknown, unknown];
  switch (operator) {
    case 'on_or_after':
      return [after(clock.dateStart(value as string))];
    case 'on_or_before':
      return [before(clock.dateStart(value as string, 1))];
    case 'between':
      return typeof pair[0] === 'string'
        ? [after(clock.dateStart(pair[0])), before(clock.dateStart(pair[1] as string, 1))]
        : [after(clock.dayStart(pair[1] as number)), before(clock.dayStart((pair[0] as number) - 1))];
    case 'in_last_days':
      return [after(clock.dayStart((value as number) - 1))];
    case 'before_last_days':
      return [before(clock.dayStart((value as number) - 1))];
    // Days since: ≥ n is a last day on or before today − n; ≤ n on or after it.
    case 'gte':
      return [before(clock.dayStart((value as number) - 1))];
    case 'lte':
      return [after(clock.dayStart(value as number))];
    default:
      return [after(clock.dayStart(value as number)), before(clock.dayStart((value as number) - 1))];
  }
}

/**
 * A condition on the first or last visit: the running figure on the guest, or, scoped to locations, the earliest
 * first or latest last visit of the guest's rows there (each row's own figure over its checks).
 */
function visitInstant(ctx: RuleContext, rule: SegmentRule, column: 'first_visit_at' | 'last_visit_at') {
  if (ctx.scope.length === 0) {
    return and(instantConditions(ctx, rawSql.ref(`g.${column}`), rule.operator, rule.value));
  }
  const aggregate =
    column === 'first_visit_at' ? rawSql`min(gl.first_visit_at)` : rawSql`max(gl.last_visit_at)`;
  const having = and(instantConditions(ctx, aggregate, rule.operator, rule.value));
  return inGuests(rawSql`${guestLocationRows(ctx)} GROUP BY gl.guest_id HAVING ${having}`);
}

/** `any` (at least one such check) or `none` of the checks matching `where`. */
function anyCheck(ctx: RuleContext, rule: SegmentRule, joins: RawBuilder<unknown>, where: Condition) {
  const checks = guestChecks(ctx, rule.window_days, joins, [where]);
  return rule.operator === 'none' ? notInGuests(checks) : inGuests(checks);
}

/** The guests linked to a subscriber matching `where` (alias `s`), or not linked to any. */
function linkedSubscriber(ctx: RuleContext, where: Condition, negate = false, joins = rawSql``) {
  const subscribers = rawSql`SELECT s.guest_id FROM subscribers s ${joins}
                             WHERE s.company_id = ${ctx.companyId} AND s.guest_id IS NOT NULL AND ${where}`;
  return negate ? notInGuests(subscribers) : inGuests(subscribers);
}

const unscoped = (ctx: RuleContext, rule: SegmentRule) =>
  ctx.scope.length === 0 && rule.window_days === undefined;

/** The trackable test of docs/guest-data.md: a check, and known by POS id or by name with card digits. */
export const TRACKABLE = rawSql<SqlBool>`(g.visit_count > 0 AND (g.pos_id <> g.hashid
  OR (g.customer_name <> '' AND g.last_four_digits <> '')))`;

/** The marketable test of docs/guest-data.md: linked to a subscriber who is subscribed. */
export function marketable(ctx: Pick<RuleContext, 'companyId'>): Condition {
  const subscribed = rawSql`SELECT s.guest_id FROM subscribers s
                            WHERE s.company_id = ${ctx.companyId} AND s.guest_id IS NOT NULL AND s.subscribed`;
  return inGuests(subscribed);
}

/**
 * Whether no member of the rule set can be marketable: every group holds `subscribed` false (no linked subscriber
 * at all) or `marketable` false. The count then skips testing each member against the marketable set, half a
 * million probes for "not yet subscribed" at a million guests.
 */
export function excludesMarketable(groups: readonly SegmentGroup[]): boolean {
  return (
    groups.length > 0 &&
    groups.every((group) =>
      group.segment_rules.some(
        (rule) => (rule.type === 'subscribed' || rule.type === 'marketable') && rule.value === false,
      ),
    )
  );
}

/** Days from today to the next birthday (0 today; 29 February falls on 1 March in other years). */
function daysToBirthday(ctx: RuleContext): RawBuilder<number> {
  const today = ctx.clock.today();
  const on = (yearsAhead: number) =>
    rawSql`(make_date(extract(year FROM ${today})::int + ${yearsAhead}::int, extract(month FROM s.birthday)::int, 1)
            + (extract(day FROM s.birthday)::int - 1))`;
  return rawSql`(CASE WHEN ${on(0)} >= ${today} THEN ${on(0)} - ${today} ELSE ${on(1)} - ${today} END)`;
}

/**
 * Among the top N % by spend (docs/segments.md): of the n guests with a check counted (in the group's scope and
 * the window), those whose spend is at least the k-th highest, k = ceil(n × N ÷ 100), so ties at the boundary
 * are in. All time at every location, the running totals: the threshold is read from the spend index
 * (`guests_spend_rank`, migration 0022) as the k-th row, with no sort of the whole population.
 */
function topSpenders(ctx: RuleContext, rule: SegmentRule): Condition {
  const percent = rule.value as number;
  if (unscoped(ctx, rule)) {
    const ranked = rawSql`FROM guests x WHERE x.company_id = ${ctx.companyId} AND x.visit_count > 0`;
    const k = rawSql`(SELECT (count(*) * ${percent}::int + 99) / 100 ${ranked})`;
    const threshold = rawSql`(SELECT x.total_spend_cents ${ranked}
                              ORDER BY x.total_spend_cents DESC OFFSET ${k} - 1 LIMIT 1)`;
    // No guest with a check: no threshold, and the comparison is false rather than unknown.
    return rawSql<SqlBool>`coalesce(g.visit_count > 0 AND g.total_spend_cents >= ${threshold}, false)`;
  }
  // In a scope or a window: the guests' spends over those checks, ranked (rank: 1 + how many spent more).
  const ranked = rawSql`SELECT c.guest_id, rank() OVER (ORDER BY sum(c.total_cents) DESC) AS place,
                               count(*) OVER () AS n
                        FROM pos_checks c WHERE ${checkConditions(ctx, rule.window_days)} GROUP BY c.guest_id`;
  return inGuests(
    rawSql`SELECT r.guest_id FROM (${ranked}) r WHERE (r.place - 1) * 100 < r.n * ${percent}::int`,
  );
}

/** The condition of one live rule. */
export function ruleCondition(ctx: RuleContext, rule: SegmentRule): Condition {
  const { companyId } = ctx;
  switch (rule.type) {
    case 'visit_count':
      return unscoped(ctx, rule)
        ? compare(rawSql`g.visit_count`, rule.operator, rule.value, WHOLE).condition
        : checkFigure(ctx, rule, rawSql`count(*)`, rawSql`sum(gl.visits)`, WHOLE);
    case 'total_spend':
      if (rule.operator === 'top_percent') return topSpenders(ctx, rule);
      return unscoped(ctx, rule)
        ? compare(rawSql`g.total_spend_cents`, rule.operator, rule.value, CENTS).condition
        : checkFigure(ctx, rule, rawSql`sum(c.total_cents)`, rawSql`sum(gl.spend_cents)`, CENTS);
    case 'days_since_last_visit':
      return visitInstant(ctx, rule, 'last_visit_at');
    case 'first_visit':
      return visitInstant(ctx, rule, 'first_visit_at');
    case 'location':
      return inGuests(rawSql`SELECT gl.guest_id FROM guest_locations gl
                             WHERE gl.company_id = ${companyId} AND gl.visits > 0
                               AND gl.location_id IN (${locationSet(companyId, rule)})`);
    case 'ordered_item':
    case 'ordered_category': {
      const byCategory = rule.type === 'ordered_category';
      const item = byCategory
        ? rawSql<SqlBool>`mi.category_id = ANY(${ids(rule.value)}::bigint[])`
        : rawSql<SqlBool>`l.menu_item_id = ANY(${ids(rule.value)}::bigint[])`;
      const items = byCategory
        ? rawSql`JOIN menu_items mi ON mi.company_id = ${companyId} AND mi.id = l.menu_item_id`
        : rawSql``;
      if (unscoped(ctx, rule)) {
        // Every row is written from at least one check (pos.repository.ts, the bulk fill), so an item's buyers
        // are read from the index (company, item, guest) alone.
        const bought = rawSql`SELECT l.guest_id FROM guest_menu_items l ${items}
                              WHERE l.company_id = ${companyId} AND ${item}`;
        return rule.operator === 'none' ? notInGuests(bought) : inGuests(bought);
      }
      const lines = rawSql`JOIN pos_check_lines l ON l.company_id = ${companyId} AND l.check_id = c.id ${items}`;
      return anyCheck(ctx, rule, lines, item);
    }
    case 'day_part': {
      const parts = texts(rule.value);
      if (unscoped(ctx, rule)) {
        const held = or(parts.map((part) => rawSql<SqlBool>`${rawSql.ref(`g.${part}_visits`)} > 0`));
        return rule.operator === 'none' ? rawSql<SqlBool>`NOT ${held}` : held;
      }
      const at = rawSql`JOIN locations loc ON loc.id = c.location_id`;
      return anyCheck(
        ctx,
        rule,
        at,
        rawSql<SqlBool>`day_part(c.opened_at, loc.time_zone) = ANY(${parts}::text[])`,
      );
    }
    case 'weekday': {
      const day = rawSql`extract(isodow FROM c.closed_at AT TIME ZONE ${ctx.clock.timeZone()})::int`;
      return anyCheck(ctx, rule, rawSql``, rawSql<SqlBool>`${day} = ANY(${ids(rule.value)}::int[])`);
    }
    case 'birthday_month':
      return linkedSubscriber(
        ctx,
        rule.operator === 'current'
          ? rawSql<SqlBool>`extract(month FROM s.birthday) = extract(month FROM ${ctx.clock.today()})`
          : rawSql<SqlBool>`extract(month FROM s.birthday)::int = ANY(${ids(rule.value)}::int[])`,
      );
    case 'birthday_within_days':
      return linkedSubscriber(
        ctx,
        rawSql<SqlBool>`s.birthday IS NOT NULL AND ${daysToBirthday(ctx)} <= ${rule.value}::int`,
      );
    case 'subscribed':
      return linkedSubscriber(ctx, TRUE, rule.value === false);
    case 'marketable':
      return rule.value === false ? rawSql<SqlBool>`NOT ${marketable(ctx)}` : marketable(ctx);
    case 'trackable':
      return rule.value === false ? rawSql<SqlBool>`NOT ${TRACKABLE}` : TRACKABLE;
    case 'in_list': {
      const members = rawSql`JOIN subscriber_list_members m ON m.company_id = ${companyId} AND m.subscriber_id = s.id`;
      const inLists = rawSql<SqlBool>`m.list_id = ANY(${ids(rule.value)}::bigint[])`;
      return linkedSubscriber(ctx, inLists, rule.operator === 'none', members);
    }
    case 'zip':
      return linkedSubscriber(ctx, rawSql<SqlBool>`s.zip = ANY(${texts(rule.value)}::text[])`);
    case 'rfm_cell':
      return inGuests(guestsInRfmCells(companyId, texts(rule.value)));
    case 'predicted_clv':
    case 'probability_alive': {
      const column = rule.type === 'predicted_clv' ? rawSql`p.clv_cents` : rawSql`p.probability_alive`;
      const figure = rule.type === 'predicted_clv' ? CENTS : FRACTION;
      const { condition } = compare(column, rule.operator, rule.value, figure);
      return inGuests(rawSql`SELECT p.guest_id FROM guest_predictions p
                             WHERE p.company_id = ${companyId} AND ${condition}`);
    }
    default:
      throw new Error(`rule type ${rule.type} is not live`);
  }
}

/** A group: all its rules hold; its location rules scope its check figures. */
function groupCondition(base: Omit<RuleContext, 'scope'>, group: SegmentGroup): Condition {
  const scope = group.segment_rules
    .filter((rule) => rule.type === 'location')
    .map((rule) => locationSet(base.companyId, rule));
  const ctx: RuleContext = { ...base, scope };
  return and(group.segment_rules.map((rule) => ruleCondition(ctx, rule)));
}

/** A rule set: any group holds; no group at all is every guest. */
export function ruleSetCondition(
  base: Omit<RuleContext, 'scope'>,
  groups: readonly SegmentGroup[],
): Condition {
  return groups.length === 0 ? TRUE : or(groups.map((group) => groupCondition(base, group)));
}
