import { DINER_MENU, HARBOR_MENU, type MenuCategorySpec, type RevenueCenterName } from './catalog.js';

/** The sizes of the demo data set: `tiny` for tests, `small` for the app's first start, the rest for load tests. */
export const SCALES = ['tiny', 'small', 'medium', 'large'] as const;

/** One of the demo data sizes. */
export type Scale = (typeof SCALES)[number];

/** How much data one company gets. */
export interface CompanySize {
  guests: number;
  /** All checks, including the share paid without a known guest. */
  checks: number;
  subscribers: number;
}

/** The busy-ness of a business by weekday, hour and month; every array holds relative weights. */
export interface OperatingProfile {
  /** Sunday first, as `Date.getUTCDay()` counts. */
  weekday: readonly number[];
  /** Weights of the 24 local hours when a check is opened, Monday to Friday; zero means closed. */
  weekdayHours: readonly number[];
  /** The same for Saturday and Sunday (brunch). */
  weekendHours: readonly number[];
  /** January first. */
  month: readonly number[];
  /** Typical minutes between opening and closing a dine-in check. */
  dineInMinutes: number;
}

/** One location of a demo company. */
export interface LocationBlueprint {
  name: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  latitude: number;
  longitude: number;
  /** Relative share of the company's traffic. */
  popularity: number;
  revenueCenters: readonly RevenueCenterName[];
}

/** Everything fixed about one demo company; the sizes come from the scale. */
export interface CompanyBlueprint {
  name: string;
  slug: string;
  timeZone: string;
  owner: { email: string; firstName: string; lastName: string };
  locations: readonly LocationBlueprint[];
  /** Named groups of location indexes. */
  groups: ReadonlyArray<{ name: string; description: string; locations: readonly number[] }>;
  menu: readonly MenuCategorySpec[];
  taxRate: number;
  areaCodes: readonly string[];
  /** Zip codes of the metro area, for subscribers' home addresses. */
  zips: readonly string[];
  profile: OperatingProfile;
  sizes: Record<Scale, CompanySize>;
  /** Subscriber lists: members are the most frequent guests, or an even sample of subscribers. */
  subscriberLists: ReadonlyArray<{ name: string; members: 'most-visits' | 'sample' }>;
}

/** The published password of every demo owner account. */
export const DEMO_PASSWORD = 'regulars-demo';

// Hour weights are indexed 0..23; a restaurant group serving lunch and dinner, closed at night.
const RESTAURANT_PROFILE: OperatingProfile = {
  weekday: [1.1, 0.75, 0.8, 0.9, 1.0, 1.45, 1.55],
  weekdayHours: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 8, 6, 2.5, 1.5, 2.5, 6, 9, 9, 6, 3.5, 1.2, 0],
  weekendHours: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 7, 8, 6, 3, 2, 3, 6.5, 9.5, 9.5, 7, 4, 1.8, 0],
  month: [0.85, 0.88, 0.95, 1.0, 1.05, 1.1, 1.12, 1.1, 1.0, 1.0, 0.98, 1.08],
  dineInMinutes: 75,
};

// A diner: breakfast and lunch only, busiest on weekend mornings.
const DINER_PROFILE: OperatingProfile = {
  weekday: [1.6, 0.85, 0.8, 0.85, 0.9, 1.0, 1.5],
  weekdayHours: [0, 0, 0, 0, 0, 0, 0, 4, 8, 8, 6, 6, 8, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  weekendHours: [0, 0, 0, 0, 0, 0, 0, 5, 10, 12, 11, 8, 7, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  month: [0.92, 0.92, 0.97, 1.0, 1.02, 1.05, 1.05, 1.05, 1.0, 1.0, 0.97, 1.02],
  dineInMinutes: 40,
};

/** Company 1: a Portland restaurant group with six locations in two groups. */
export const HARBOR_AND_VINE: CompanyBlueprint = {
  name: 'Harbor & Vine Restaurant Group',
  slug: 'harbor-vine',
  timeZone: 'America/Los_Angeles',
  owner: { email: 'owner@harborvine.example', firstName: 'Dana', lastName: 'Whitfield' },
  locations: [
    {
      name: 'Harbor & Vine Pearl District',
      street: '1120 NW Couch St',
      city: 'Portland',
      state: 'OR',
      zip: '97209',
      latitude: 45.52362,
      longitude: -122.68291,
      popularity: 1.3,
      revenueCenters: ['Dining Room', 'Bar', 'Patio', 'Takeout'],
    },
    {
      name: 'Harbor & Vine Downtown',
      street: '815 SW Alder St',
      city: 'Portland',
      state: 'OR',
      zip: '97205',
      latitude: 45.51998,
      longitude: -122.67968,
      popularity: 1.25,
      revenueCenters: ['Dining Room', 'Bar', 'Takeout'],
    },
    {
      name: 'Harbor & Vine Nob Hill',
      street: '2281 NW Glisan St',
      city: 'Portland',
      state: 'OR',
      zip: '97210',
      latitude: 45.52641,
      longitude: -122.69934,
      popularity: 0.9,
      revenueCenters: ['Dining Room', 'Patio', 'Takeout'],
    },
    {
      name: 'Harbor & Vine Hawthorne',
      street: '3530 SE Hawthorne Blvd',
      city: 'Portland',
      state: 'OR',
      zip: '97214',
      latitude: 45.51208,
      longitude: -122.62731,
      popularity: 1.05,
      revenueCenters: ['Dining Room', 'Bar', 'Patio', 'Takeout'],
    },
    {
      name: 'Harbor & Vine Alberta',
      street: '1605 NE Alberta St',
      city: 'Portland',
      state: 'OR',
      zip: '97211',
      latitude: 45.55902,
      longitude: -122.64862,
      popularity: 0.85,
      revenueCenters: ['Dining Room', 'Bar', 'Takeout'],
    },
    {
      name: 'Harbor & Vine Sellwood',
      street: '7805 SE 13th Ave',
      city: 'Portland',
      state: 'OR',
      zip: '97202',
      latitude: 45.46757,
      longitude: -122.65302,
      popularity: 0.65,
      revenueCenters: ['Dining Room', 'Patio', 'Takeout'],
    },
  ],
  groups: [
    { name: 'West Side', description: 'Pearl District, Downtown and Nob Hill', locations: [0, 1, 2] },
    { name: 'East Side', description: 'Hawthorne, Alberta and Sellwood', locations: [3, 4, 5] },
  ],
  menu: HARBOR_MENU,
  taxRate: 0.08,
  areaCodes: ['503', '971'],
  // prettier-ignore
  zips: [
    '97201', '97202', '97203', '97205', '97206', '97209', '97210', '97211', '97212', '97213', '97214',
    '97215', '97217', '97218', '97219', '97221', '97227', '97230', '97232', '97239', '97005', '97035',
    '97124', '97223', '97225', '97229', '97266', '97080',
  ],
  profile: RESTAURANT_PROFILE,
  sizes: {
    tiny: { guests: 300, checks: 2_000, subscribers: 100 },
    small: { guests: 20_000, checks: 200_000, subscribers: 5_000 },
    medium: { guests: 100_000, checks: 1_000_000, subscribers: 25_000 },
    large: { guests: 1_000_000, checks: 10_000_000, subscribers: 250_000 },
  },
  subscriberLists: [
    { name: 'VIP Regulars', members: 'most-visits' },
    { name: 'Wine Club', members: 'sample' },
  ],
};

/** Company 2: a small Denver diner, there to prove that companies never see each other's data. */
export const COPPER_KETTLE: CompanyBlueprint = {
  name: 'Copper Kettle Diner',
  slug: 'copper-kettle',
  timeZone: 'America/Denver',
  owner: { email: 'owner@copperkettle.example', firstName: 'Ray', lastName: 'Delgado' },
  locations: [
    {
      name: 'Copper Kettle Highlands',
      street: '3210 Tejon St',
      city: 'Denver',
      state: 'CO',
      zip: '80211',
      latitude: 39.76272,
      longitude: -105.01107,
      popularity: 1.2,
      revenueCenters: ['Dining Room', 'Patio', 'Takeout'],
    },
    {
      name: 'Copper Kettle South Pearl',
      street: '1550 S Pearl St',
      city: 'Denver',
      state: 'CO',
      zip: '80210',
      latitude: 39.68853,
      longitude: -104.98079,
      popularity: 1.0,
      revenueCenters: ['Dining Room', 'Takeout'],
    },
  ],
  groups: [],
  menu: DINER_MENU,
  taxRate: 0.0881,
  areaCodes: ['303', '720'],
  // prettier-ignore
  zips: [
    '80202', '80203', '80204', '80205', '80206', '80209', '80210', '80211', '80212', '80218', '80219',
    '80220', '80222', '80223', '80224', '80231', '80237', '80246',
  ],
  profile: DINER_PROFILE,
  sizes: {
    tiny: { guests: 60, checks: 400, subscribers: 30 },
    small: { guests: 2_000, checks: 20_000, subscribers: 500 },
    medium: { guests: 10_000, checks: 100_000, subscribers: 2_500 },
    large: { guests: 100_000, checks: 1_000_000, subscribers: 25_000 },
  },
  subscriberLists: [],
};

/** The demo companies in load order; company 1 is the one the demo signs in to. */
export const DEMO_COMPANIES: readonly CompanyBlueprint[] = [HARBOR_AND_VINE, COPPER_KETTLE];
