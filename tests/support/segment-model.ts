import type { SegmentRule, SegmentRuleSet } from '../../src/schemas/segments.js';
import { dayPartOfHour } from './day-parts.js';

/**
 * An independent reading of the segment rules (docs/segments.md) in plain JS over raw rows — the checks,
 * lines, subscribers, lists and predictions as stored — for the property test of the SQL compiler. It shares
 * no code with the compiler: days come from `Intl` in the company's (or location's) zone, figures are counted
 * from the checks themselves, and RFM scores are ranked here.
 */

/** The raw rows the model reads. */
export interface SegmentData {
  timeZone: string;
  asOf: Date;
  guests: Array<{
    id: number;
    pos_id: string;
    hashid: string;
    customer_name: string;
    last_four_digits: string;
  }>;
  checks: Array<{
    id: number;
    guest_id: number | null;
    location_id: number;
    opened_at: Date;
    closed_at: Date;
    total_cents: number;
  }>;
  lines: Array<{ check_id: number; menu_item_id: number }>;
  items: Array<{ id: number; category_id: number }>;
  locations: Array<{ id: number; time_zone: string }>;
  groupMembers: Array<{ group_id: number; location_id: number }>;
  subscribers: Array<{
    id: number;
    guest_id: number | null;
    subscribed: boolean;
    birthday: string | null;
    zip: string;
  }>;
  listMembers: Array<{ list_id: number; subscriber_id: number }>;
  predictions: Array<{ guest_id: number; probability_alive: number | null; clv_cents: number }>;
}

const DAY_MS = 86_400_000;

function localParts(instant: Date, timeZone: string): { day: number; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)!.value);
  return { day: Date.UTC(part('year'), part('month') - 1, part('day')) / DAY_MS, hour: part('hour') };
}

const dateNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/** R (rows) by F (columns) scores, 1–5, to the cell's name. */
const RFM_GRID = [
  ['lost', 'lost', 'at_risk', 'at_risk', 'cant_lose_them'],
  ['hibernating', 'hibernating', 'at_risk', 'at_risk', 'cant_lose_them'],
  ['about_to_sleep', 'about_to_sleep', 'need_attention', 'loyal', 'loyal'],
  ['promising', 'potential_loyalists', 'potential_loyalists', 'loyal', 'loyal'],
  ['new', 'potential_loyalists', 'potential_loyalists', 'champions', 'champions'],
];

/** Quintile scores by rank: 1 + how many have a strictly lower figure, over n guests. */
function quintiles(figures: Map<number, number>): Map<number, number> {
  const sorted = [...figures.values()].sort((a, b) => a - b);
  const lowerThan = (value: number) => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (sorted[middle]! < value) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  const scores = new Map<number, number>();
  for (const [id, value] of figures) scores.set(id, Math.floor((5 * lowerThan(value)) / sorted.length) + 1);
  return scores;
}

type Check = SegmentData['checks'][number] & { day: number; weekday: number; dayPart: string };

/** The model: counts and members of a rule set, and RFM scores. */
export class SegmentModel {
  readonly today: number;
  private readonly checksByGuest = new Map<number, Check[]>();
  private readonly itemsOfCheck = new Map<number, number[]>();
  private readonly categoryOfItem: Map<number, number>;
  private readonly subscribersOf = new Map<number, SegmentData['subscribers']>();
  private readonly listsOf = new Map<number, Set<number>>();
  private readonly prediction: Map<number, SegmentData['predictions'][number]>;
  readonly rfm = new Map<number, { r: number; f: number; m: number }>();

  constructor(private readonly data: SegmentData) {
    this.today = localParts(data.asOf, data.timeZone).day;
    const zoneOf = new Map(data.locations.map((location) => [location.id, location.time_zone]));
    for (const check of data.checks) {
      if (check.guest_id === null) continue;
      const { day } = localParts(check.closed_at, data.timeZone);
      const { hour } = localParts(check.opened_at, zoneOf.get(check.location_id)!);
      const dayPart = dayPartOfHour(hour);
      const list = this.checksByGuest.get(check.guest_id) ?? [];
      list.push({ ...check, day, weekday: ((day + 3) % 7) + 1, dayPart });
      this.checksByGuest.set(check.guest_id, list);
    }
    for (const line of data.lines) {
      this.itemsOfCheck.set(line.check_id, [
        ...(this.itemsOfCheck.get(line.check_id) ?? []),
        line.menu_item_id,
      ]);
    }
    this.categoryOfItem = new Map(data.items.map((item) => [item.id, item.category_id]));
    for (const subscriber of data.subscribers) {
      if (subscriber.guest_id === null) continue;
      this.subscribersOf.set(subscriber.guest_id, [
        ...(this.subscribersOf.get(subscriber.guest_id) ?? []),
        subscriber,
      ]);
    }
    for (const member of data.listMembers) {
      const lists = this.listsOf.get(member.subscriber_id) ?? new Set<number>();
      lists.add(member.list_id);
      this.listsOf.set(member.subscriber_id, lists);
    }
    this.prediction = new Map(data.predictions.map((row) => [row.guest_id, row]));
    const recency = new Map<number, number>();
    const frequency = new Map<number, number>();
    const monetary = new Map<number, number>();
    for (const [guestId, checks] of this.checksByGuest) {
      recency.set(guestId, Math.max(...checks.map((check) => check.closed_at.getTime())));
      frequency.set(guestId, checks.length);
      monetary.set(
        guestId,
        checks.reduce((sum, check) => sum + check.total_cents, 0),
      );
    }
    const [r, f, m] = [quintiles(recency), quintiles(frequency), quintiles(monetary)];
    for (const guestId of recency.keys())
      this.rfm.set(guestId, { r: r.get(guestId)!, f: f.get(guestId)!, m: m.get(guestId)! });
  }

  /** The RFM cell of a guest with checks, from the grid. */
  cellOf(guestId: number): string | undefined {
    const scores = this.rfm.get(guestId);
    return scores && RFM_GRID[scores.r - 1]![scores.f - 1];
  }

  private locationsOf(rule: SegmentRule): Set<number> {
    const groups = new Set(rule.group_ids ?? []);
    const members = this.data.groupMembers
      .filter((member) => groups.has(member.group_id))
      .map((member) => member.location_id);
    return new Set([...(rule.value as number[]), ...members]);
  }

  private compare(x: number, rule: SegmentRule, scale = 1): boolean {
    const at = (value: number) => (scale === 1 ? value : Math.round(value * scale));
    if (rule.operator === 'between') {
      const [low, high] = rule.value as number[];
      return x >= at(low!) && x <= at(high!);
    }
    const value = at(rule.value as number);
    return rule.operator === 'gte' ? x >= value : rule.operator === 'lte' ? x <= value : x === value;
  }

  private dayHolds(day: number, rule: SegmentRule): boolean {
    const value = rule.value;
    switch (rule.operator) {
      case 'on_or_after':
        return day >= dateNumber(value as string);
      case 'on_or_before':
        return day <= dateNumber(value as string);
      case 'between': {
        const [low, high] = value as [string, string];
        return day >= dateNumber(low) && day <= dateNumber(high);
      }
      case 'in_last_days':
        return day >= this.today - (value as number) + 1;
      default:
        return day <= this.today - (value as number);
    }
  }

  private holds(guest: SegmentData['guests'][number], rule: SegmentRule, scope: Set<number>[]): boolean {
    const all = this.checksByGuest.get(guest.id) ?? [];
    const scoped = all.filter((check) => scope.every((set) => set.has(check.location_id)));
    const windowed =
      rule.window_days === undefined
        ? scoped
        : scoped.filter((check) => check.day >= this.today - rule.window_days! + 1);
    const subscribers = this.subscribersOf.get(guest.id) ?? [];
    const anyOf = (found: boolean) => (rule.operator === 'none' ? !found : found);
    const values = rule.value as unknown[];
    switch (rule.type) {
      case 'visit_count':
        return this.compare(windowed.length, rule);
      case 'total_spend':
        if (rule.operator === 'top_percent') return this.topSpender(guest.id, rule, scope);
        return this.compare(
          windowed.reduce((sum, check) => sum + check.total_cents, 0),
          rule,
          100,
        );
      case 'days_since_last_visit':
        return (
          scoped.length > 0 && this.compare(this.today - Math.max(...scoped.map((check) => check.day)), rule)
        );
      case 'first_visit':
        return scoped.length > 0 && this.dayHolds(Math.min(...scoped.map((check) => check.day)), rule);
      case 'location': {
        const set = this.locationsOf(rule);
        return all.some((check) => set.has(check.location_id));
      }
      case 'ordered_item':
        return anyOf(
          windowed.some((check) =>
            (this.itemsOfCheck.get(check.id) ?? []).some((item) => values.includes(item)),
          ),
        );
      case 'ordered_category':
        return anyOf(
          windowed.some((check) =>
            (this.itemsOfCheck.get(check.id) ?? []).some((item) =>
              values.includes(this.categoryOfItem.get(item)),
            ),
          ),
        );
      case 'day_part':
        return anyOf(windowed.some((check) => values.includes(check.dayPart)));
      case 'weekday':
        return anyOf(windowed.some((check) => values.includes(check.weekday)));
      case 'birthday_month': {
        const months =
          rule.operator === 'current' ? [new Date(this.today * DAY_MS).getUTCMonth() + 1] : values;
        return subscribers.some(
          (s) => s.birthday !== null && months.includes(Number(s.birthday.slice(5, 7))),
        );
      }
      case 'birthday_within_days':
        return subscribers.some(
          (s) => s.birthday !== null && this.daysToBirthday(s.birthday) <= (rule.value as number),
        );
      case 'subscribed':
        return subscribers.length > 0 === rule.value;
      case 'marketable':
        return subscribers.some((s) => s.subscribed) === rule.value;
      case 'trackable':
        return this.trackable(guest) === rule.value;
      case 'in_list':
        return anyOf(
          subscribers.some((s) => values.some((list) => this.listsOf.get(s.id)?.has(list as number))),
        );
      case 'zip':
        return subscribers.some((s) => values.includes(s.zip));
      case 'rfm_cell':
        return values.includes(this.cellOf(guest.id));
      case 'predicted_clv': {
        const prediction = this.prediction.get(guest.id);
        return prediction !== undefined && this.compare(prediction.clv_cents, rule, 100);
      }
      case 'probability_alive': {
        const alive = this.prediction.get(guest.id)?.probability_alive;
        return alive !== undefined && alive !== null && this.compare(alive, rule);
      }
      default:
        throw new Error(`no model for ${rule.type}`);
    }
  }

  /**
   * Top N % by spend: sort the spends of every guest with a check in the scope and window, highest first; the
   * guest is in when it has such a check and spent at least the k-th of them, k = ceil(n × N / 100).
   */
  private topSpender(guestId: number, rule: SegmentRule, scope: Set<number>[]): boolean {
    const spendOf = new Map<number, number>();
    for (const [id, checks] of this.checksByGuest) {
      const counted = checks.filter(
        (check) =>
          scope.every((set) => set.has(check.location_id)) &&
          (rule.window_days === undefined || check.day >= this.today - rule.window_days + 1),
      );
      if (counted.length > 0)
        spendOf.set(
          id,
          counted.reduce((sum, check) => sum + check.total_cents, 0),
        );
    }
    const spend = spendOf.get(guestId);
    if (spend === undefined) return false;
    const sorted = [...spendOf.values()].sort((a, b) => b - a);
    const k = Math.ceil((sorted.length * (rule.value as number)) / 100);
    return spend >= sorted[k - 1]!;
  }

  private daysToBirthday(birthday: string): number {
    const [, month, day] = birthday.split('-').map(Number) as [number, number, number];
    const year = new Date(this.today * DAY_MS).getUTCFullYear();
    // Day 1 of the month plus (day − 1): 29 February is 1 March in other years.
    const on = (y: number) => Date.UTC(y, month - 1, 1) / DAY_MS + day - 1;
    return on(year) >= this.today ? on(year) - this.today : on(year + 1) - this.today;
  }

  trackable(guest: SegmentData['guests'][number]): boolean {
    const visited = (this.checksByGuest.get(guest.id) ?? []).length > 0;
    return (
      visited &&
      (guest.pos_id !== guest.hashid || (guest.customer_name !== '' && guest.last_four_digits !== ''))
    );
  }

  /** The ids of the guests in the segment, among those who visited a picked location (none picked: all). */
  members(ruleSet: SegmentRuleSet, picked: readonly number[]): number[] {
    return this.data.guests
      .filter(
        (guest) =>
          picked.length === 0 ||
          (this.checksByGuest.get(guest.id) ?? []).some((check) => picked.includes(check.location_id)),
      )
      .filter(
        (guest) =>
          ruleSet.segment_groups.length === 0 ||
          ruleSet.segment_groups.some((group) => {
            const scope = group.segment_rules
              .filter((rule) => rule.type === 'location')
              .map((rule) => this.locationsOf(rule));
            return group.segment_rules.every((rule) => this.holds(guest, rule, scope));
          }),
      )
      .map((guest) => guest.id)
      .sort((a, b) => a - b);
  }

  /** All, marketable and trackable counts of the members, and the company's guests. */
  counts(ruleSet: SegmentRuleSet, picked: readonly number[]) {
    const members = new Set(this.members(ruleSet, picked));
    const guests = this.data.guests.filter((guest) => members.has(guest.id));
    return {
      all: guests.length,
      marketable: guests.filter((guest) => (this.subscribersOf.get(guest.id) ?? []).some((s) => s.subscribed))
        .length,
      trackable: guests.filter((guest) => this.trackable(guest)).length,
      company_guests: this.data.guests.length,
    };
  }
}
