import { FIRST_NAMES, LAST_NAMES } from './catalog.js';
import { STREAMS, type CompanyPlan } from './generate.js';
import { seededHashid } from './hashid.js';
import { Random } from './random.js';
import { drawVisits } from './visits.js';

/** One guest as planned: identity, home location and visit behaviour. */
export interface GuestProfile {
  index: number;
  /** 'G000123': the POS's own id, unique per company. */
  posId: string;
  hashid: string;
  firstName: string;
  lastName: string;
  /** 'FIRST LAST' in capitals, as card names appear on POS receipts. */
  customerName: string;
  lastFourDigits: string;
  homeLocation: number;
  /** Visits per month while active (gamma-distributed). */
  rate: number;
  /** True when the guest was already coming before the history begins; their first visit is any day. */
  existing: boolean;
  /** Day index of the first visit of a new guest; day 0 for an existing one. */
  startDay: number;
  /** Day index after which the guest churns (or the window's last day). */
  endDay: number;
  /** How many checks the guest has; at least one. */
  visits: number;
  /** A uniform draw that decides whether the guest also joined the mailing list. */
  joinDraw: number;
}

/** The POS id of the `index`-th guest (0-based). */
export function guestPosId(index: number): string {
  return `G${String(index + 1).padStart(6, '0')}`;
}

/** The guest index behind a POS id made by `guestPosId`. */
export function guestIndexOfPosId(posId: string): number {
  return Number(posId.slice(1)) - 1;
}

/**
 * The `index`-th guest of a company. Each guest has its own random stream, so any guest can be
 * regenerated alone (subscribers and checks do this) and always comes out the same.
 */
export function guestProfile(plan: CompanyPlan, index: number): GuestProfile {
  const random = Random.derive(plan.seed, plan.number, STREAMS.guest, index);
  const firstName = random.pick(FIRST_NAMES);
  const lastName = random.pick(LAST_NAMES);
  const lastFourDigits = String(random.int(0, 9999)).padStart(4, '0');
  const homeLocation = random.weightedIndex(plan.locationWeights);
  const { existing, startDay, endDay, rate, visits } = drawVisits(random, plan.calendar, plan.rateScale);
  return {
    index,
    posId: guestPosId(index),
    hashid: seededHashid(plan.guestHashidKey, index),
    firstName,
    lastName,
    customerName: `${firstName} ${lastName}`.toUpperCase(),
    lastFourDigits,
    homeLocation,
    rate,
    existing,
    startDay,
    endDay,
    visits,
    joinDraw: random.next(),
  };
}

/** Every guest of a company in index order, one at a time. */
export function* guestProfiles(plan: CompanyPlan): Generator<GuestProfile> {
  for (let index = 0; index < plan.size.guests; index++) yield guestProfile(plan, index);
}
