/**
 * The demo data set as a plan: everything fixed about each company for a scale, seed and end date. The
 * rows themselves come lazily from the generators in guests.ts, checks.ts, subscribers.ts and
 * competitors.ts, which read this plan and never touch the database.
 */
import { DEMO_COMPANIES, type CompanyBlueprint, type CompanySize, type Scale } from './blueprints.js';
import { buildCalendar, ZoneClock, type Calendar } from './calendar.js';
import type { Daypart, MenuRole } from './catalog.js';
import { hashPath, Random } from './random.js';
import { calibrateRateScale } from './visits.js';

/** The default seed of `npm run seed` and of the first start. */
export const DEFAULT_SEED = 20_240_601;

/** Months of POS history. */
export const HISTORY_MONTHS = 24;

/** Share of checks paid without a known guest (cash, or a card the POS could not name). */
export const UNKNOWN_GUEST_SHARE = 0.15;

/**
 * Separate random streams per kind of entity: each entity draws from `Random.derive(seed, company,
 * stream, index)`, so adding draws to one kind never shifts the data of another.
 */
export const STREAMS = {
  guest: 1,
  visits: 2,
  unknownGuestChecks: 3,
  subscriber: 4,
  competitors: 5,
  calibration: 6,
  guestHashid: 7,
  subscriberHashid: 8,
} as const;

/** One menu item of a company's plan. */
export interface MenuItemPlan {
  index: number;
  name: string;
  priceCents: number;
  categoryIndex: number;
  role: MenuRole;
  daypart: Daypart | undefined;
}

/** The items that can fill one role on a check, with how often each is chosen. */
export interface RoleItems {
  items: MenuItemPlan[];
  weights: number[];
}

/** Everything the generators need to know about one company. */
export interface CompanyPlan {
  /** 1 for the main demo company, 2 for the isolation company; part of every random path. */
  number: number;
  seed: number;
  blueprint: CompanyBlueprint;
  size: CompanySize;
  calendar: Calendar;
  /** All demo locations of a company share its time zone. */
  clock: ZoneClock;
  items: MenuItemPlan[];
  itemsByRole: Map<MenuRole, RoleItems>;
  locationWeights: number[];
  /** Gamma scale of the guests' visit rates (visits per month), calibrated to the target check count. */
  rateScale: number;
  /** Key of the Feistel permutation behind guest hashids. */
  guestHashidKey: number;
  /** Key of the Feistel permutation behind subscriber hashids. */
  subscriberHashidKey: number;
}

/** The whole demo data set to load. */
export interface DemoPlan {
  scale: Scale;
  seed: number;
  /** Checks end two days before this date; the same date and seed give the same rows. */
  until: Date;
  companies: CompanyPlan[];
}

/** Flattens a blueprint's menu and groups it by role, the earlier items of a category selling more. */
function planMenu(blueprint: CompanyBlueprint): {
  items: MenuItemPlan[];
  itemsByRole: Map<MenuRole, RoleItems>;
} {
  const items: MenuItemPlan[] = [];
  const itemsByRole = new Map<MenuRole, RoleItems>();
  blueprint.menu.forEach((category, categoryIndex) => {
    category.items.forEach((item, position) => {
      const plan: MenuItemPlan = {
        index: items.length,
        name: item.name,
        priceCents: item.priceCents,
        categoryIndex,
        role: category.role,
        daypart: category.daypart,
      };
      items.push(plan);
      const group = itemsByRole.get(category.role) ?? { items: [], weights: [] };
      group.items.push(plan);
      group.weights.push(1 / (1 + 0.15 * position));
      itemsByRole.set(category.role, group);
    });
  });
  return { items, itemsByRole };
}

/** Plans one company: calendar, menu, and the visit-rate scale that hits its target check count. */
function planCompany(
  blueprint: CompanyBlueprint,
  number: number,
  scale: Scale,
  seed: number,
  until: Date,
): CompanyPlan {
  const size = blueprint.sizes[scale];
  const calendar = buildCalendar(until, HISTORY_MONTHS, blueprint.profile);
  const { items, itemsByRole } = planMenu(blueprint);
  const rateScale = calibrateRateScale(
    () => Random.derive(seed, number, STREAMS.calibration),
    calendar,
    (size.checks * (1 - UNKNOWN_GUEST_SHARE)) / size.guests,
  );
  return {
    number,
    seed,
    blueprint,
    size,
    calendar,
    clock: new ZoneClock(blueprint.timeZone, calendar),
    items,
    itemsByRole,
    locationWeights: blueprint.locations.map((location) => location.popularity),
    rateScale,
    guestHashidKey: hashPath([seed, number, STREAMS.guestHashid]),
    subscriberHashidKey: hashPath([seed, number, STREAMS.subscriberHashid]),
  };
}

/** Plans the demo data set of a scale; pure, so the same arguments always give the same plan. */
export function planDemo(options: { scale: Scale; seed: number; until: Date }): DemoPlan {
  return {
    scale: options.scale,
    seed: options.seed,
    until: options.until,
    companies: DEMO_COMPANIES.map((blueprint, index) =>
      planCompany(blueprint, index + 1, options.scale, options.seed, options.until),
    ),
  };
}
