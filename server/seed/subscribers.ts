import { sampleDay } from './calendar.js';
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES } from './catalog.js';
import { STREAMS, type CompanyPlan } from './generate.js';
import { guestProfile, guestProfiles, type GuestProfile } from './guests.js';
import { seededHashid } from './hashid.js';
import { Random } from './random.js';

/** Share of subscribers who are also POS guests. */
const MATCHED_SHARE = 0.6;

/** One mailing-list subscriber; times are UTC milliseconds. */
export interface SubscriberRecord {
  index: number;
  hashid: string;
  email: string;
  firstName: string;
  lastName: string;
  /** '+15035550142' (E.164, as every write path stores a phone), or empty when not given. */
  phone: string;
  zip: string;
  /** 'YYYY-MM-DD', or null when not given. */
  birthday: string | null;
  subscribed: boolean;
  /** The matching guest's POS id and index, when the subscriber is also a guest. */
  posId: string | null;
  guestIndex: number | null;
  sourceLocationIndex: number | null;
  consentAt: number;
  unsubscribedAt: number | null;
}

/**
 * The guests who also joined the mailing list, in index order: about 60% of the subscriber count, and the
 * more often a guest comes, the likelier they joined.
 */
export function subscribedGuestIndexes(plan: CompanyPlan): number[] {
  const target = Math.round(plan.size.subscribers * MATCHED_SHARE);
  const weights = new Float64Array(plan.size.guests);
  const draws = new Float64Array(plan.size.guests);
  let totalWeight = 0;
  for (const guest of guestProfiles(plan)) {
    weights[guest.index] = Math.sqrt(Math.min(guest.visits, 50));
    draws[guest.index] = guest.joinDraw;
    totalWeight += weights[guest.index]!;
  }
  const chosen: number[] = [];
  for (let index = 0; index < plan.size.guests; index++) {
    if (draws[index]! < (target * weights[index]!) / totalWeight) chosen.push(index);
  }
  return chosen;
}

/** Lower-case letters and digits of a name, for an address ("O'Brien" gives "obrien"). */
function addressPart(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * A believable address for a name, unique in the company whatever the case: a clash gets a number
 * added, as mail providers make people do. A few are typed with capitals to keep lookups honest.
 */
function emailFor(random: Random, firstName: string, lastName: string, used: Set<string>): string {
  const first = addressPart(firstName);
  const last = addressPart(lastName);
  const forms = [
    `${first}.${last}`,
    `${first}${last}`,
    `${first[0]}${last}`,
    `${first}_${last}`,
    `${first}.${last}${random.int(60, 99)}`,
    `${last}.${first}`,
    `${first}${random.int(1, 999)}`,
  ];
  let local = forms[random.weightedIndex([30, 15, 15, 8, 12, 8, 12])]!;
  if (random.chance(0.08))
    local = local.replace(
      /(^|[._])([a-z])/g,
      (_, separator: string, letter: string) => separator + letter.toUpperCase(),
    );
  const domain = random.weighted(EMAIL_DOMAINS, (entry) => entry.weight).domain;
  let email = `${local}@${domain}`;
  while (used.has(email.toLowerCase())) email = `${local}${random.int(2, 9999)}@${domain}`;
  used.add(email.toLowerCase());
  return email;
}

/** A valid 'YYYY-MM-DD' birthday of an adult guest. */
function birthdayFor(random: Random): string {
  const year = random.int(1950, 2004);
  const month = random.int(1, 12);
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(random.int(1, lastDay)).padStart(2, '0')}`;
}

/** One subscriber; a matching guest gives the name, home location and the days they could have signed up. */
function buildSubscriber(
  plan: CompanyPlan,
  index: number,
  guest: GuestProfile | null,
  used: Set<string>,
): SubscriberRecord {
  const { blueprint, calendar, clock } = plan;
  const random = Random.derive(plan.seed, plan.number, STREAMS.subscriber, index);
  const firstName = guest ? guest.firstName : random.pick(FIRST_NAMES);
  const lastName = guest ? guest.lastName : random.pick(LAST_NAMES);
  const email = emailFor(random, firstName, lastName, used);
  const sourceLocationIndex = guest
    ? guest.homeLocation
    : random.chance(0.75)
      ? random.weightedIndex(plan.locationWeights)
      : null; // signed up on the website
  const phone = random.chance(0.7)
    ? `+1${random.pick(blueprint.areaCodes)}555${String(random.int(0, 9999)).padStart(4, '0')}`
    : '';
  let zip = random.chance(0.15) ? '' : random.pick(blueprint.zips);
  if (sourceLocationIndex !== null && random.chance(0.4)) zip = blueprint.locations[sourceLocationIndex]!.zip;
  const birthday = random.chance(0.45) ? birthdayFor(random) : null;
  // Guests sign up on one of their visit days; others at any time.
  const consentDay = guest
    ? sampleDay(random, calendar, guest.startDay, guest.endDay)
    : sampleDay(random, calendar, 0, calendar.days - 1);
  const consentAt = clock.toUtc(consentDay, random.int(9 * 3600, 21 * 3600));
  const subscribed = random.chance(0.92);
  let unsubscribedAt: number | null = null;
  if (!subscribed) {
    const day = Math.min(calendar.days - 1, consentDay + 1 + Math.floor(random.exponential(150)));
    unsubscribedAt = Math.max(consentAt + 60_000, clock.toUtc(day, random.int(8 * 3600, 22 * 3600)));
  }
  return {
    index,
    hashid: seededHashid(plan.subscriberHashidKey, index),
    email,
    firstName,
    lastName,
    phone,
    zip,
    birthday,
    subscribed,
    posId: guest ? guest.posId : null,
    guestIndex: guest ? guest.index : null,
    sourceLocationIndex,
    consentAt,
    unsubscribedAt,
  };
}

/**
 * Every subscriber of a company, one at a time: the matching guests in order with the other subscribers
 * spread evenly between them, so ids do not split into two blocks. Only the set of addresses in use is
 * kept, to keep them unique.
 */
export function* companySubscribers(
  plan: CompanyPlan,
  matchedGuests: readonly number[],
): Generator<SubscriberRecord> {
  const unmatched = Math.max(0, plan.size.subscribers - matchedGuests.length);
  const used = new Set<string>();
  let index = 0;
  let unmatchedDone = 0;
  for (let m = 0; m <= matchedGuests.length; m++) {
    const due = matchedGuests.length === 0 ? unmatched : Math.floor((m * unmatched) / matchedGuests.length);
    for (; unmatchedDone < due; unmatchedDone++) yield buildSubscriber(plan, index++, null, used);
    if (m < matchedGuests.length) {
      yield buildSubscriber(plan, index++, guestProfile(plan, matchedGuests[m]!), used);
    }
  }
}
