import { sampleDay } from './calendar.js';
import type { MenuRole, RevenueCenterName } from './catalog.js';
import { STREAMS, UNKNOWN_GUEST_SHARE, type CompanyPlan, type MenuItemPlan } from './generate.js';
import { guestProfile } from './guests.js';
import { Random } from './random.js';

/** Share of a guest's visits made at their home location; the rest go to any location of the company. */
const HOME_SHARE = 0.85;

/** One line of a check: a menu item, how many, and the amount. */
export interface CheckLine {
  itemIndex: number;
  quantity: number;
  unitPriceCents: number;
  amountCents: number;
}

/** One POS check with its lines; times are UTC milliseconds. */
export interface CheckRecord {
  locationIndex: number;
  revenueCenter: RevenueCenterName;
  /** Null when the check has no known guest (cash). */
  guestIndex: number | null;
  /** Unique within its location, so the loader can find the row it wrote. */
  checkNumber: string;
  openedAt: number;
  closedAt: number;
  guestCount: number;
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  tipCents: number;
  totalCents: number;
  lines: CheckLine[];
}

// Where checks are rung up; the patio is open from May to September only.
const CENTER_WEIGHTS: Record<RevenueCenterName, number> = {
  'Dining Room': 0.58,
  Bar: 0.2,
  Patio: 0.14,
  Takeout: 0.12,
};
const PATIO_MONTHS = new Set([4, 5, 6, 7, 8]);

// Party sizes at a table: mostly couples.
const PARTY_SIZES = [1, 2, 3, 4, 5, 6];
const PARTY_WEIGHTS = [0.18, 0.45, 0.14, 0.15, 0.05, 0.03];

// What else is ordered after the first line, by kind of service.
const TABLE_ROLES: Partial<Record<MenuRole, number>> = {
  cocktail: 0.18,
  wine: 0.2,
  soft: 0.12,
  starter: 0.2,
  side: 0.1,
  dessert: 0.12,
  main: 0.08,
};
const BAR_ROLES: Partial<Record<MenuRole, number>> = { cocktail: 0.35, wine: 0.3, starter: 0.25, side: 0.1 };
const TAKEOUT_ROLES: Partial<Record<MenuRole, number>> = {
  starter: 0.3,
  side: 0.3,
  dessert: 0.15,
  soft: 0.15,
  main: 0.1,
};

/** Hands out check numbers, counting up per location. */
class CheckNumbers {
  private readonly next: number[];

  constructor(locations: number) {
    this.next = new Array<number>(locations).fill(1);
  }

  take(location: number): string {
    const number = this.next[location]!;
    this.next[location] = number + 1;
    return String(number).padStart(6, '0');
  }
}

/** Draws a role from weights, considering only roles the company's menu has. */
function pickRole(plan: CompanyPlan, random: Random, weights: Partial<Record<MenuRole, number>>): MenuRole {
  const roles = (Object.keys(weights) as MenuRole[]).filter((role) => plan.itemsByRole.has(role));
  return roles[random.weightedIndex(roles.map((role) => weights[role]!))]!;
}

/** Draws an item of a role; a diner serves breakfast mains in the morning and lunch mains later. */
function pickItem(plan: CompanyPlan, random: Random, role: MenuRole, hour: number): MenuItemPlan {
  const group = plan.itemsByRole.get(role)!;
  if (role !== 'main' || !group.items.some((item) => item.daypart)) {
    return group.items[random.weightedIndex(group.weights)]!;
  }
  // Mostly breakfast before eleven and lunch after, with some of each all day.
  const usual = hour < 11 ? 'morning' : 'midday';
  const wanted = random.chance(0.85) ? usual : usual === 'morning' ? 'midday' : 'morning';
  const weights = group.items.map((item, i) => (item.daypart === wanted ? group.weights[i]! : 0));
  return group.items[random.weightedIndex(weights)]!;
}

/** One to five lines for a check; a repeated item adds to its line instead of opening a second one. */
function buildLines(
  plan: CompanyPlan,
  random: Random,
  center: RevenueCenterName,
  guestCount: number,
  hour: number,
): CheckLine[] {
  let lineCount: number;
  let firstRole: MenuRole;
  let laterRoles: Partial<Record<MenuRole, number>>;
  if (center === 'Takeout') {
    lineCount = 1 + random.weightedIndex([0.45, 0.35, 0.2]);
    firstRole = 'main';
    laterRoles = TAKEOUT_ROLES;
  } else if (center === 'Bar') {
    lineCount = 1 + random.weightedIndex([0.3, 0.35, 0.2, 0.1, 0.05]);
    firstRole = random.chance(0.55) ? 'cocktail' : 'wine';
    laterRoles = BAR_ROLES;
  } else {
    lineCount = Math.min(5, Math.max(1, Math.round(random.normal(1.2 + 0.8 * guestCount, 0.8))));
    firstRole = 'main';
    laterRoles = TABLE_ROLES;
  }
  // A menu without drinks at the bar (none of the demo menus) still starts the check with a main.
  if (!plan.itemsByRole.has(firstRole)) firstRole = 'main';
  const lines: CheckLine[] = [];
  for (let i = 0; i < lineCount; i++) {
    const role = i === 0 ? firstRole : pickRole(plan, random, laterRoles);
    const item = pickItem(plan, random, role, hour);
    // Mains and drinks are ordered per person, shared plates once or twice per table.
    const perPerson = role === 'main' || role === 'cocktail' || role === 'wine' || role === 'soft';
    const quantity = perPerson
      ? random.int(1, guestCount)
      : random.int(1, Math.max(1, Math.ceil(guestCount / 2)));
    const existing = lines.find((line) => line.itemIndex === item.index);
    if (existing) {
      existing.quantity += quantity;
      existing.amountCents = existing.quantity * existing.unitPriceCents;
    } else {
      lines.push({
        itemIndex: item.index,
        quantity,
        unitPriceCents: item.priceCents,
        amountCents: quantity * item.priceCents,
      });
    }
  }
  return lines;
}

/** Minutes between opening and closing a check. */
function serviceMinutes(
  plan: CompanyPlan,
  random: Random,
  center: RevenueCenterName,
  guestCount: number,
): number {
  if (center === 'Takeout') return random.int(3, 15);
  if (center === 'Bar') return Math.min(150, Math.max(10, random.normal(50, 20)));
  const typical = plan.blueprint.profile.dineInMinutes;
  const minutes = random.normal(typical + 5 * (guestCount - 2), typical / 4);
  return Math.min(typical * 2, Math.max(typical * 0.4, minutes));
}

/** A whole check at a location on a day, with its lines and money: total = subtotal − discount + tax + tip. */
function buildCheck(
  plan: CompanyPlan,
  random: Random,
  numbers: CheckNumbers,
  visit: { day: number; locationIndex: number; guestIndex: number | null },
): CheckRecord {
  const { calendar, blueprint } = plan;
  const month = calendar.months[visit.day]!;
  const weekday = calendar.weekdays[visit.day]!;
  const centers = blueprint.locations[visit.locationIndex]!.revenueCenters;
  const center =
    centers[
      random.weightedIndex(
        centers.map((name) => (name === 'Patio' && !PATIO_MONTHS.has(month) ? 0 : CENTER_WEIGHTS[name])),
      )
    ]!;
  const weekend = weekday === 0 || weekday === 6;
  const hour = random.weightedIndex(
    weekend ? blueprint.profile.weekendHours : blueprint.profile.weekdayHours,
  );
  const openedAt = plan.clock.toUtc(visit.day, hour * 3600 + random.int(0, 3599));

  let guestCount = 1;
  if (center === 'Bar') guestCount = random.chance(0.45) ? 2 : 1;
  else if (center !== 'Takeout') guestCount = PARTY_SIZES[random.weightedIndex(PARTY_WEIGHTS)]!;
  const closedAt = openedAt + Math.round(serviceMinutes(plan, random, center, guestCount) * 60) * 1000;

  const lines = buildLines(plan, random, center, guestCount, hour);
  const subtotalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  let discountCents = 0;
  if (random.chance(0.06)) {
    // A percentage promotion, or a comped five dollars on a bigger check.
    discountCents =
      subtotalCents >= 2000 && random.chance(0.3)
        ? 500
        : Math.round(subtotalCents * random.pick([0.1, 0.15, 0.2]));
  }
  const taxCents = Math.round((subtotalCents - discountCents) * blueprint.taxRate);
  let tipCents = 0;
  // Card tips are on the check; cash tips rarely are.
  const tipChance = visit.guestIndex === null ? 0.05 : center === 'Takeout' ? 0.3 : 0.88;
  if (random.chance(tipChance)) {
    const rate = center === 'Takeout' ? random.uniform(0.05, 0.12) : random.uniform(0.15, 0.25);
    tipCents = Math.round(subtotalCents * rate);
  }
  return {
    locationIndex: visit.locationIndex,
    revenueCenter: center,
    guestIndex: visit.guestIndex,
    checkNumber: numbers.take(visit.locationIndex),
    openedAt,
    closedAt,
    guestCount,
    subtotalCents,
    discountCents,
    taxCents,
    tipCents,
    totalCents: subtotalCents - discountCents + taxCents + tipCents,
    lines,
  };
}

/**
 * Every check of a company, one at a time: each guest's visits in guest order (a new guest's first visit
 * at the home location on their first day, other visits on weighted days until the guest churns), then the checks
 * without a known guest spread over the whole window. Nothing is held beyond the current check.
 */
export function* companyChecks(plan: CompanyPlan): Generator<CheckRecord> {
  const numbers = new CheckNumbers(plan.blueprint.locations.length);
  for (let guestIndex = 0; guestIndex < plan.size.guests; guestIndex++) {
    const guest = guestProfile(plan, guestIndex);
    const random = Random.derive(plan.seed, plan.number, STREAMS.visits, guestIndex);
    for (let visit = 0; visit < guest.visits; visit++) {
      // A new guest's first visit opens their window, at their home location.
      const first = visit === 0 && !guest.existing;
      const day = first ? guest.startDay : sampleDay(random, plan.calendar, guest.startDay, guest.endDay);
      const locationIndex =
        first || random.chance(HOME_SHARE) ? guest.homeLocation : random.weightedIndex(plan.locationWeights);
      yield buildCheck(plan, random, numbers, { day, locationIndex, guestIndex });
    }
  }
  const unknownGuestChecks = Math.round(plan.size.checks * UNKNOWN_GUEST_SHARE);
  for (let index = 0; index < unknownGuestChecks; index++) {
    const random = Random.derive(plan.seed, plan.number, STREAMS.unknownGuestChecks, index);
    const day = sampleDay(random, plan.calendar, 0, plan.calendar.days - 1);
    const locationIndex = random.weightedIndex(plan.locationWeights);
    yield buildCheck(plan, random, numbers, { day, locationIndex, guestIndex: null });
  }
}
