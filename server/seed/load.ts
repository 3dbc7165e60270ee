/**
 * Writes the demo data set in two steps. `loadDemoAccounts` writes every company's parent rows (INSERT ...
 * RETURNING), guests and subscribers in one transaction, so a failure leaves nothing half-written.
 * `loadDemoHistory` then writes the checks and their lines in batches, one transaction each that also moves
 * the company's progress in `demo_loads`, so it can run while the server answers and resume after a stop.
 * Bulk rows go through the bulk writer (bulk.ts), which hands back the new ids.
 *
 * Each transaction is an owner transaction with the platform flag set: PGlite's COPY reads its data as a
 * server file, which the application role may not do, and `owner` is the door meant for bulk loading.
 * Row-level security is forced on every table, so with the flag set the owner's writes pass the same
 * policies a platform transaction's would (a superuser owner, as in PGlite, bypasses them anyway).
 */
import { hashPassword } from '../auth/passwords.js';
import type { Database, DatabaseKind, Sql } from '../db/database.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { DEMO_PASSWORD, type Scale } from './blueprints.js';
import { bulkWriter, checksPerCopyOn, type BulkWriter } from './bulk.js';
import { companyChecks, type CheckRecord } from './checks.js';
import {
  GUEST_CHECK_FIGURES,
  GUEST_ITEM_FIGURES,
  GUEST_LOCATION_FIGURES,
} from '../repositories/pos.repository.js';
import { rebuildCohortRollups } from '../repositories/cohort-rollups.repository.js';
import { guestsWithChecks } from '../repositories/guest-presence.repository.js';
import {
  rebuildRollups,
  rollupRebuildSteps,
  labelledStep,
  type RollupStep,
} from '../repositories/pos-rollups.repository.js';
import { companyCompetitors } from './competitors.js';
import { batches, csvPieces, isoTime } from './csv.js';
import { DEFAULT_SEED, planDemo, type CompanyPlan } from './generate.js';
import { guestIndexOfPosId, guestProfile, guestProfiles } from './guests.js';
import { companySubscribers, subscribedGuestIndexes } from './subscribers.js';
import { insertSupportCompany, SUPPORT_COMPANY, SUPPORT_STAFF, type SupportSummary } from './support.js';
import { refreshSegmentCaches } from '../services/segment-figures.js';
import { forgetKeptAudiences } from '../services/kept-audiences.js';
import { createStarterSegments } from '../services/starter-segments.service.js';
import { createStarterTemplates } from '../services/starter-templates.service.js';
import { createDemoCampaigns } from './campaigns.js';
import { createDemoFlows, enrolDemoFlowGuests } from './flows.js';

/** What to load. */
export interface LoadDemoOptions {
  scale: Scale;
  /** Same seed (and same `until` date), same data. */
  seed?: number;
  /** The history ends two days before this date; defaults to today, so the demo always looks current. */
  until?: Date;
  /** Progress messages. */
  log?: (message: string) => void;
  /** The installation's public address, for the starter templates' images; http://localhost:3000 when omitted. */
  installationUrl?: string;
}

/** One loaded demo company and how to sign in to it. */
export interface DemoCompanySummary {
  id: number;
  name: string;
  slug: string;
  ownerEmail: string;
  /** The published demo password, not a secret. */
  ownerPassword: string;
}

/** What `loadDemoData` wrote: the accounts, and the rows per table of the demo companies once loaded. */
export type DemoSummary = DemoAccounts & {
  /** Rows per table belonging to the demo companies. */
  counts: Record<string, number>;
  elapsedMs: number;
};

/** The tables the demo fills, in the order the summary lists them. */
export const DEMO_TABLES = [
  'companies',
  'company_features',
  'users',
  'account_settings',
  'locations',
  'location_groups',
  'location_group_members',
  'menu_categories',
  'menu_items',
  'revenue_centers',
  'guests',
  'pos_checks',
  'pos_check_lines',
  'guest_locations',
  'guest_menu_items',
  'subscribers',
  'subscriber_lists',
  'subscriber_list_members',
  'competitors',
] as const;

const GUEST_COLUMNS = [
  'company_id',
  'pos_id',
  'hashid',
  'customer_name',
  'last_four_digits',
  'first_location_id',
];
const SUBSCRIBER_COLUMNS = [
  'company_id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'zip',
  'birthday',
  'subscribed',
  'pos_id',
  'hashid',
  'guest_id',
  'source_location_id',
  'consent_at',
  'unsubscribed_at',
  'created_at',
  'updated_at',
];
const CHECK_COLUMNS = [
  'company_id',
  'location_id',
  'revenue_center_id',
  'guest_id',
  'check_number',
  'opened_at',
  'closed_at',
  'guest_count',
  'subtotal_cents',
  'discount_cents',
  'tax_cents',
  'tip_cents',
  'total_cents',
];
const LINE_COLUMNS = [
  'company_id',
  'check_id',
  'menu_item_id',
  'quantity',
  'unit_price_cents',
  'amount_cents',
];
const COMPETITOR_COLUMNS = [
  'company_id',
  'location_id',
  'name',
  'category',
  'latitude',
  'longitude',
  'price_level',
  'rating',
];

/** Looks up a name in a map built from RETURNING rows, failing loudly on a blueprint typo. */
function idOf(ids: Map<string, number>, key: string): number {
  const id = ids.get(key);
  if (id === undefined) throw new Error(`Demo data: no id for ${key}`);
  return id;
}

/** The ids of a company's parent rows, by blueprint index or name. */
interface CompanyIds {
  companyId: number;
  locations: number[];
  /** Keyed by `${locationIndex}/${revenue center name}`. */
  revenueCenters: Map<string, number>;
  menuItems: number[];
  /** Guest ids by guest index. */
  guests: Float64Array;
}

/** Company, features, owner, locations, groups, menu and revenue centers: a few dozen rows. */
async function insertParents(
  sql: Sql,
  plan: CompanyPlan,
  passwordHash: string,
): Promise<Omit<CompanyIds, 'guests'>> {
  const { blueprint } = plan;
  const company = await sql.query<{ id: number }>(
    'INSERT INTO companies (name, slug, time_zone) VALUES ($1, $2, $3) RETURNING id',
    [blueprint.name, blueprint.slug, blueprint.timeZone],
  );
  const companyId = company.rows[0]!.id;

  await sql.query('INSERT INTO company_features (company_id, feature) SELECT $1, unnest($2::text[])', [
    companyId,
    [...ALL_FEATURES],
  ]);
  const owner = await sql.query<{ id: number }>(
    `INSERT INTO users (company_id, email, username, first_name, last_name, password_hash, role, verified_at)
     VALUES ($1, $2, $2, $3, $4, $5, 'owner', now()) RETURNING id`,
    [companyId, blueprint.owner.email, blueprint.owner.firstName, blueprint.owner.lastName, passwordHash],
  );
  await sql.query('INSERT INTO account_settings (user_id, company_id, time_zone) VALUES ($1, $2, $3)', [
    owner.rows[0]!.id,
    companyId,
    blueprint.timeZone,
  ]);

  const locations = blueprint.locations;
  const locationRows = await sql.query<{ id: number; name: string }>(
    `INSERT INTO locations (company_id, name, street, city, state, zip, latitude, longitude, time_zone)
     SELECT $1, l.*, $9 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                    $7::float8[], $8::float8[]) AS l
     RETURNING id, name`,
    [
      companyId,
      locations.map((l) => l.name),
      locations.map((l) => l.street),
      locations.map((l) => l.city),
      locations.map((l) => l.state),
      locations.map((l) => l.zip),
      locations.map((l) => l.latitude),
      locations.map((l) => l.longitude),
      blueprint.timeZone,
    ],
  );
  const locationIdByName = new Map(locationRows.rows.map((row) => [row.name, row.id]));
  const locationIds = locations.map((location) => idOf(locationIdByName, location.name));

  for (const group of blueprint.groups) {
    const created = await sql.query<{ id: number }>(
      'INSERT INTO location_groups (company_id, name, description) VALUES ($1, $2, $3) RETURNING id',
      [companyId, group.name, group.description],
    );
    await sql.query(
      `INSERT INTO location_group_members (company_id, group_id, location_id)
       SELECT $1, $2, unnest($3::bigint[])`,
      [companyId, created.rows[0]!.id, group.locations.map((index) => locationIds[index]!)],
    );
  }

  const categoryRows = await sql.query<{ id: number; name: string }>(
    'INSERT INTO menu_categories (company_id, name) SELECT $1, unnest($2::text[]) RETURNING id, name',
    [companyId, blueprint.menu.map((category) => category.name)],
  );
  const categoryIdByName = new Map(categoryRows.rows.map((row) => [row.name, row.id]));
  const itemRows = await sql.query<{ id: number; name: string }>(
    `INSERT INTO menu_items (company_id, category_id, name, price_cents)
     SELECT $1, i.* FROM unnest($2::bigint[], $3::text[], $4::int[]) AS i
     RETURNING id, name`,
    [
      companyId,
      plan.items.map((item) => idOf(categoryIdByName, blueprint.menu[item.categoryIndex]!.name)),
      plan.items.map((item) => item.name),
      plan.items.map((item) => item.priceCents),
    ],
  );
  const itemIdByName = new Map(itemRows.rows.map((row) => [row.name, row.id]));
  const menuItems = plan.items.map((item) => idOf(itemIdByName, item.name));

  const centers = locations.flatMap((location, index) =>
    location.revenueCenters.map((name) => ({ index, name })),
  );
  const centerRows = await sql.query<{ id: number; location_id: number; name: string }>(
    `INSERT INTO revenue_centers (company_id, location_id, name)
     SELECT $1, c.* FROM unnest($2::bigint[], $3::text[]) AS c
     RETURNING id, location_id, name`,
    [companyId, centers.map((center) => locationIds[center.index]!), centers.map((center) => center.name)],
  );
  const revenueCenters = new Map<string, number>();
  for (const row of centerRows.rows) {
    revenueCenters.set(`${locationIds.indexOf(row.location_id)}/${row.name}`, row.id);
  }
  return { companyId, locations: locationIds, revenueCenters, menuItems };
}

/** Guests in chunks, each chunk's new ids mapped back to guest indexes by POS id. */
async function copyGuests(
  bulk: BulkWriter,
  plan: CompanyPlan,
  ids: Omit<CompanyIds, 'guests'>,
): Promise<Float64Array> {
  const guestIds = new Float64Array(plan.size.guests);
  for (const batch of batches(guestProfiles(plan), bulk.rowsPerCopy)) {
    const rows = await bulk.copy<{ id: number; pos_id: string }>(
      'guests',
      GUEST_COLUMNS,
      csvPieces(batch, (guest) => [
        ids.companyId,
        guest.posId,
        guest.hashid,
        guest.customerName,
        guest.lastFourDigits,
        ids.locations[guest.homeLocation]!,
      ]),
      'id, pos_id',
    );
    for (const row of rows) guestIds[guestIndexOfPosId(row.pos_id)] = row.id;
  }
  return guestIds;
}

/** Subscribers in chunks; the matching guests' ids come from the guests already loaded. */
async function copySubscribers(bulk: BulkWriter, plan: CompanyPlan, ids: CompanyIds): Promise<void> {
  const matched = subscribedGuestIndexes(plan);
  for (const batch of batches(companySubscribers(plan, matched), bulk.rowsPerCopy)) {
    await bulk.copy(
      'subscribers',
      SUBSCRIBER_COLUMNS,
      csvPieces(batch, (subscriber) => [
        ids.companyId,
        subscriber.email,
        subscriber.firstName,
        subscriber.lastName,
        subscriber.phone,
        subscriber.zip,
        subscriber.birthday,
        subscriber.subscribed,
        subscriber.posId,
        subscriber.hashid,
        subscriber.guestIndex === null ? null : ids.guests[subscriber.guestIndex]!,
        subscriber.sourceLocationIndex === null ? null : ids.locations[subscriber.sourceLocationIndex]!,
        isoTime(subscriber.consentAt),
        subscriber.unsubscribedAt === null ? null : isoTime(subscriber.unsubscribedAt),
        isoTime(subscriber.consentAt),
        isoTime(subscriber.unsubscribedAt ?? subscriber.consentAt),
      ]),
    );
  }
}

/** One chunk of checks, their new ids mapped by location and check number, then their lines. */
async function copyCheckBatch(bulk: BulkWriter, ids: CompanyIds, batch: CheckRecord[]): Promise<void> {
  const rows = await bulk.copy<{ id: number; location_id: number; check_number: string }>(
    'pos_checks',
    CHECK_COLUMNS,
    csvPieces(batch, (check) => [
      ids.companyId,
      ids.locations[check.locationIndex]!,
      ids.revenueCenters.get(`${check.locationIndex}/${check.revenueCenter}`)!,
      // A guest deleted while the history loads (id unknown, 0) gets the check unlinked, as a deletion does.
      check.guestIndex === null ? null : ids.guests[check.guestIndex]! || null,
      check.checkNumber,
      isoTime(check.openedAt),
      isoTime(check.closedAt),
      check.guestCount,
      check.subtotalCents,
      check.discountCents,
      check.taxCents,
      check.tipCents,
      check.totalCents,
    ]),
    'id, location_id, check_number',
  );
  const checkIds = new Map(rows.map((row) => [`${row.location_id}/${row.check_number}`, row.id]));
  const lines = batch.flatMap((check) => {
    const checkId = checkIds.get(`${ids.locations[check.locationIndex]}/${check.checkNumber}`);
    if (checkId === undefined) throw new Error(`Demo data: check ${check.checkNumber} was not read back`);
    return check.lines.map((line) => ({ checkId, line }));
  });
  await bulk.copy(
    'pos_check_lines',
    LINE_COLUMNS,
    csvPieces(lines, ({ checkId, line }) => [
      ids.companyId,
      checkId,
      ids.menuItems[line.itemIndex]!,
      line.quantity,
      line.unitPriceCents,
      line.amountCents,
    ]),
  );
}

/**
 * Sets every guest's running metrics from their checks, one statement per table: the same figures
 * `addChecksToGuests` keeps up check by check (pos.repository.ts), counted here in bulk. Replaces what an earlier
 * run filled, so it can run again (a demo load resumed after an interruption); a location row without visits
 * (a walk-in's) stays.
 */
export async function updateGuestTotals(sql: Sql, companyId: number): Promise<void> {
  for (const step of guestTotalsSteps(companyId, [EVERY_GUEST])) await step(sql);
}

/** The guests with ids in [from, to); null leaves that side open. */
export type GuestRange = { from: number | null; to: number | null };

const EVERY_GUEST: GuestRange = { from: null, to: null };

// Guests whose totals one PGlite step counts: about 2 s for the demo (the whole UPDATE of 20,000 guests took 8 s,
// their items 8.5 s, on a busy machine).
const GUESTS_PER_TOTALS_STEP = 5000;

/** Cuts a company's guests with checks (in id order) into ranges of `size`, open at both ends. */
export function guestRanges(guests: readonly number[], size = GUESTS_PER_TOTALS_STEP): GuestRange[] {
  const ranges: GuestRange[] = [];
  for (let start = 0; start < guests.length; start += size)
    ranges.push({ from: start === 0 ? null : guests[start]!, to: guests[start + size] ?? null });
  return ranges.length > 0 ? ranges : [EVERY_GUEST];
}

/** Holds `c.guest_id` to a range given as the statement's parameters `$2` and `$3`. */
const IN_GUEST_RANGE = '($2::bigint IS NULL OR c.guest_id >= $2) AND ($3::bigint IS NULL OR c.guest_id < $3)';

/**
 * `updateGuestTotals` as steps, each a transaction of its own: the guests' totals a range at a time, their
 * locations, then their items a range at a time. The ranges must cover every guest.
 */
export function guestTotalsSteps(companyId: number, ranges: readonly GuestRange[]): RollupStep[] {
  const totals = ranges.map((range, index): RollupStep =>
    labelledStep(`guest totals ${index + 1}/${ranges.length}`, async (sql) => {
      // Fresh statistics first: with none, PostgreSQL may join the aggregate to the guests by nested loop.
      if (index === 0) await sql.exec('ANALYZE guests, pos_checks, pos_check_lines');
      await sql.query(
        `UPDATE guests g
           SET visit_count = a.visits, total_spend_cents = a.spend, first_visit_at = a.first_at,
               last_visit_at = a.last_at, first_location_id = a.first_location_id,
               breakfast_visits = a.breakfast, lunch_visits = a.lunch, dinner_visits = a.dinner, late_visits = a.late,
               created_at = a.first_at, updated_at = a.last_at
           FROM (SELECT ${GUEST_CHECK_FIGURES}
                 FROM pos_checks c
                 JOIN locations loc ON loc.company_id = $1 AND loc.id = c.location_id
                 WHERE c.company_id = $1 AND c.guest_id IS NOT NULL AND ${IN_GUEST_RANGE}
                 GROUP BY c.guest_id) a
           WHERE g.company_id = $1 AND g.id = a.guest_id`,
        [companyId, range.from, range.to],
      );
    }),
  );
  const items = ranges.map((range, index): RollupStep =>
    labelledStep(`guest items ${index + 1}/${ranges.length}`, async (sql) => {
      await sql.query(
        `INSERT INTO guest_menu_items (company_id, guest_id, menu_item_id, quantity, checks)
           SELECT ${GUEST_ITEM_FIGURES}
           WHERE l.company_id = $1 AND c.guest_id IS NOT NULL AND ${IN_GUEST_RANGE}
           GROUP BY c.company_id, c.guest_id, l.menu_item_id`,
        [companyId, range.from, range.to],
      );
    }),
  );
  return [
    ...totals,
    labelledStep('guest locations', async (sql) => {
      await sql.query('DELETE FROM guest_locations WHERE company_id = $1 AND visits > 0', [companyId]);
      // Seeded first locations are always a location with a check, so the checks alone fill the table.
      await sql.query(
        `INSERT INTO guest_locations (company_id, guest_id, location_id, visits, spend_cents, first_visit_at,
                                      last_visit_at)
         SELECT ${GUEST_LOCATION_FIGURES} FROM pos_checks
         WHERE company_id = $1 AND guest_id IS NOT NULL
         GROUP BY company_id, guest_id, location_id`,
        [companyId],
      );
      // The item steps after this one add their rows, so a sequence run again starts from none.
      await sql.query('DELETE FROM guest_menu_items WHERE company_id = $1', [companyId]);
    }),
    ...items,
  ];
}

/** The company's subscriber lists: the most frequent guests, or an even pseudo-random sample. */
async function insertSubscriberLists(sql: Sql, plan: CompanyPlan, companyId: number): Promise<void> {
  const size = Math.min(200, Math.max(10, Math.round(plan.size.subscribers * 0.04)));
  for (const list of plan.blueprint.subscriberLists) {
    const created = await sql.query<{ id: number }>(
      'INSERT INTO subscriber_lists (company_id, name) VALUES ($1, $2) RETURNING id',
      [companyId, list.name],
    );
    // Hashids are seeded, so ordering by them (or their md5) picks the same members on every load.
    const members =
      list.members === 'most-visits'
        ? `SELECT s.id, s.consent_at FROM subscribers s
           JOIN guests g ON g.company_id = s.company_id AND g.id = s.guest_id
           WHERE s.company_id = $1 AND s.subscribed
           ORDER BY g.visit_count DESC, g.total_spend_cents DESC, s.hashid COLLATE "C" LIMIT $3`
        : `SELECT s.id, s.consent_at FROM subscribers s
           WHERE s.company_id = $1 AND s.subscribed
           ORDER BY md5(s.hashid) COLLATE "C" LIMIT $3`;
    await sql.query(
      `INSERT INTO subscriber_list_members (company_id, list_id, subscriber_id, added_at)
       SELECT $1, $2, m.id, m.consent_at FROM (${members}) m`,
      [companyId, created.rows[0]!.id, size],
    );
  }
}

/**
 * Runs `fn` in one owner transaction with the platform flag set (see the top of this file). With
 * `checkReferences` off (only before the server answers anyone, and only on PGlite, whose owner is a superuser),
 * foreign-key triggers are skipped for the transaction: the loader makes every reference itself, and the
 * checks cost half the load.
 */
function bulkTransaction<T>(
  db: Database,
  fn: (sql: Sql) => Promise<T>,
  options: { checkReferences: boolean } = { checkReferences: true },
): Promise<T> {
  return db.owner(async (sql) => {
    await sql.query(`SELECT set_config('app.platform', 'on', true)`);
    if (!options.checkReferences && db.kind === 'pglite') {
      await sql.exec('SET LOCAL session_replication_role = replica');
    }
    return fn(sql);
  });
}

/**
 * Writes one company's accounts, locations, menu, competitors, guests and subscribers, and records that its
 * POS history is still to load (`demo_loads`). Returns the company id.
 */
async function insertCompanyAccounts(
  sql: Sql,
  kind: DatabaseKind,
  plan: CompanyPlan,
  demo: { scale: Scale; seed: number; until: string },
  passwordHash: string,
  log: (message: string) => void,
): Promise<number> {
  const name = plan.blueprint.name;
  const parents = await insertParents(sql, plan, passwordHash);
  const bulk = bulkWriter(sql, kind, parents.companyId);
  await bulk.copy(
    'competitors',
    COMPETITOR_COLUMNS,
    csvPieces(companyCompetitors(plan), (competitor) => [
      parents.companyId,
      parents.locations[competitor.locationIndex]!,
      competitor.name,
      competitor.category,
      competitor.latitude,
      competitor.longitude,
      competitor.priceLevel,
      competitor.rating,
    ]),
  );
  const ids: CompanyIds = { ...parents, guests: await copyGuests(bulk, plan, parents) };
  log(`${name}: ${plan.size.guests.toLocaleString('en-US')} guests loaded`);
  await copySubscribers(bulk, plan, ids);
  log(`${name}: ${plan.size.subscribers.toLocaleString('en-US')} subscribers loaded`);
  await sql.query(
    `INSERT INTO demo_loads (company_id, scale, seed, until_date, checks_total) VALUES ($1, $2, $3, $4, $5)`,
    [parents.companyId, demo.scale, demo.seed, demo.until, plan.size.checks],
  );
  return parents.companyId;
}

/** The ids of a company's demo rows read back from the database, so a load can resume in a new process. */
async function readCompanyIds(sql: Sql, plan: CompanyPlan, companyId: number): Promise<CompanyIds> {
  const locations = await sql.query<{ id: number; name: string }>(
    'SELECT id, name FROM locations WHERE company_id = $1',
    [companyId],
  );
  const locationIdByName = new Map(locations.rows.map((row) => [row.name, row.id]));
  // A demo location deleted while the history loads gets no more checks (its id stays unknown).
  const locationIds = plan.blueprint.locations.map((location) => locationIdByName.get(location.name) ?? 0);
  const centers = await sql.query<{ id: number; location_id: number; name: string }>(
    'SELECT id, location_id, name FROM revenue_centers WHERE company_id = $1',
    [companyId],
  );
  const revenueCenters = new Map<string, number>();
  for (const row of centers.rows) {
    revenueCenters.set(`${locationIds.indexOf(row.location_id)}/${row.name}`, row.id);
  }
  const items = await sql.query<{ id: number; name: string }>(
    'SELECT id, name FROM menu_items WHERE company_id = $1',
    [companyId],
  );
  const itemIdByName = new Map(items.rows.map((row) => [row.name, row.id]));
  const guests = new Float64Array(plan.size.guests);
  const guestRows = await sql.query<{ id: number; pos_id: string; hashid: string }>(
    'SELECT id, pos_id, hashid FROM guests WHERE company_id = $1',
    [companyId],
  );
  for (const row of guestRows.rows) {
    const index = guestIndexOfPosId(row.pos_id);
    // Only the demo's own guests: a guest added meanwhile with a look-alike POS id has another hashid.
    if (Number.isSafeInteger(index) && index >= 0 && index < guests.length) {
      if (guestProfile(plan, index).hashid === row.hashid) guests[index] = row.id;
    }
  }
  return {
    companyId,
    locations: locationIds,
    revenueCenters,
    menuItems: plan.items.map((item) => itemIdByName.get(item.name) ?? 0),
    guests,
  };
}

/** One unfinished demo history, as `demo_loads` keeps it. */
interface PendingHistory {
  company_id: number;
  slug: string;
  scale: Scale;
  /** Text: a seed may be any safe integer, beyond PostgreSQL's int. */
  seed: string;
  until_date: string;
  checks_loaded: number;
}

/** Milliseconds between two history batches, for the requests the server answers meanwhile. */
const BATCH_PAUSE_MS = 10;

/** Raised when another process has moved a company's demo history on: this one leaves it to that one. */
class DemoHistoryTakenOver extends Error {
  constructor(companyId: number) {
    super(`Another process is loading the demo history of company ${companyId}`);
    this.name = 'DemoHistoryTakenOver';
  }
}

/** The records of `records` after the first `skip`. */
function* after<T>(records: Iterable<T>, skip: number): Generator<T> {
  let seen = 0;
  for (const record of records) if (seen++ >= skip) yield record;
}

/**
 * Locks the company's progress row for this transaction and checks it still says `expected` checks: a second
 * process (several API replicas on one PostgreSQL) that loaded meanwhile makes this one stop, never load twice.
 */
async function claimProgress(sql: Sql, companyId: number, expected: number): Promise<void> {
  const { rows } = await sql.query<{ checks_loaded: number; finished: boolean }>(
    `SELECT checks_loaded, finished_at IS NOT NULL AS finished FROM demo_loads WHERE company_id = $1 FOR UPDATE`,
    [companyId],
  );
  const row = rows[0];
  if (!row || row.finished || row.checks_loaded !== expected) throw new DemoHistoryTakenOver(companyId);
}

/**
 * On PGlite, which works in the server's thread: the guest totals, the cohorts and the rollups in steps of a
 * transaction each (`rollupRebuildSteps`), with a pause before each so the server answers in between, then
 * `finish`, which marks the load finished. Stopped between two steps, the next start does every step again (the
 * totals and the daily rollups replace what they fill; the basket and presence rows are cleared before their
 * steps add them). Changes to the company's checks are refused meanwhile (`lockCompanyIngestion`).
 */
async function finishInSteps(
  db: Database,
  companyId: number,
  checks: number,
  finish: RollupStep,
  options: { log: (message: string) => void; signal: AbortSignal; name: string },
): Promise<void> {
  const { guests, rollups } = await bulkTransaction(db, async (sql) => {
    const withChecks = await guestsWithChecks(sql, companyId);
    return { guests: withChecks, rollups: await rollupRebuildSteps(sql, companyId, withChecks) };
  });
  const steps: RollupStep[] = [
    ...guestTotalsSteps(companyId, guestRanges(guests)),
    labelledStep('cohorts', (sql) => rebuildCohortRollups(sql, companyId)),
    ...rollups,
    labelledStep('subscriber lists, flow guests, finished', (sql) => finish(sql)),
  ];
  let nextReport = 1;
  // The longest step is how long a request may wait: the log names it, so a step that grew shows.
  const slowest = { ms: 0, index: 0 };
  for (let index = 0; index < steps.length; index += 1) {
    options.signal.throwIfAborted();
    await new Promise((resolve) => setTimeout(resolve, BATCH_PAUSE_MS));
    const started = performance.now();
    await bulkTransaction(db, async (sql) => {
      await claimProgress(sql, companyId, checks);
      await steps[index]!(sql);
    });
    const ms = performance.now() - started;
    if (ms > slowest.ms) Object.assign(slowest, { ms, index });
    // Progress in the log at each quarter of the steps.
    if ((index + 1) * 4 >= nextReport * steps.length) {
      options.log(`${options.name}: guest totals and rollups ${nextReport * 25} % filled`);
      nextReport += 1;
    }
  }
  options.log(
    `${options.name}: ${steps.length} steps, the longest (step ${slowest.index + 1}, ${steps[slowest.index]!.label ?? 'unnamed'}) ${Math.round(slowest.ms)} ms`,
  );
}

/**
 * Loads one company's POS history after `checks_loaded` checks, a batch per transaction that also moves the
 * progress, then the guests' totals and the subscriber lists, and marks the load finished.
 */
async function loadCompanyHistory(
  db: Database,
  pending: PendingHistory,
  options: { log: (message: string) => void; signal: AbortSignal; checksPerBatch: number },
): Promise<void> {
  const demo = planDemo({
    scale: pending.scale,
    seed: Number(pending.seed),
    until: new Date(pending.until_date),
  });
  const plan = demo.companies.find((company) => company.blueprint.slug === pending.slug);
  if (!plan) throw new Error(`Demo data: no company ${pending.slug} in the demo plan`);
  const name = plan.blueprint.name;
  const companyId = pending.company_id;
  const ids = await bulkTransaction(db, (sql) => readCompanyIds(sql, plan, companyId));

  let checks = pending.checks_loaded;
  const quarter = plan.size.checks / 4;
  let nextReport = (Math.floor(checks / quarter) + 1) * quarter;
  for (const batch of batches(after(companyChecks(plan), checks), options.checksPerBatch)) {
    options.signal.throwIfAborted();
    // PGlite works in this thread and answers in microtasks: a short pause between two batches lets waiting
    // requests in and lets a response being streamed (a page's script) go out in the meantime.
    await new Promise((resolve) => setTimeout(resolve, BATCH_PAUSE_MS));
    const usable = batch.filter((check) => ids.locations[check.locationIndex]! > 0);
    const loaded = checks + batch.length;
    await bulkTransaction(db, async (sql) => {
      await claimProgress(sql, companyId, checks);
      await copyCheckBatch(bulkWriter(sql, db.kind, companyId), ids, usable);
      await sql.query('UPDATE demo_loads SET checks_loaded = $2 WHERE company_id = $1', [companyId, loaded]);
    });
    checks = loaded;
    if (checks >= nextReport) {
      options.log(`${name}: ${checks.toLocaleString('en-US')} checks loaded`);
      nextReport += quarter;
    }
  }
  const finish = async (sql: Sql) => {
    await insertSubscriberLists(sql, plan, companyId);
    // Real people in the live flows, once their visits are in (docs/flows.md, "Demo data").
    await enrolDemoFlowGuests(sql, companyId, new Date());
    await sql.query('UPDATE demo_loads SET finished_at = now() WHERE company_id = $1', [companyId]);
  };
  if (db.kind === 'pglite') {
    await finishInSteps(db, companyId, checks, finish, { ...options, name });
  } else {
    // PostgreSQL answers meanwhile from other connections: the bulk statements, in one transaction that keeps a
    // second loading process out.
    await bulkTransaction(db, async (sql) => {
      await claimProgress(sql, companyId, checks);
      await updateGuestTotals(sql, companyId);
      await rebuildCohortRollups(sql, companyId);
      await rebuildRollups(sql, companyId);
      await finish(sql);
    });
  }
  await refreshSegmentCaches(db, companyId, options.signal);
  // Audiences a dashboard counted while the history was loading are counted again.
  await forgetKeptAudiences(db, companyId);
  options.log(`${name}: ${checks.toLocaleString('en-US')} checks, guest totals and segment figures done`);
}

/**
 * Loads the POS history of every demo company whose load is unfinished — right after `loadDemoAccounts`, or
 * in a later process after an interruption — then refreshes the planner's statistics. Safe while the server
 * answers: each batch is its own transaction and keeps every reference checked. An abort (the server stopping)
 * ends it between two batches; the next start resumes. Resolves true when there was anything to load.
 */
export async function loadDemoHistory(
  db: Database,
  options: { log?: (message: string) => void; signal?: AbortSignal; checksPerBatch?: number } = {},
): Promise<boolean> {
  const settings = {
    log: options.log ?? (() => undefined),
    signal: options.signal ?? new AbortController().signal,
    checksPerBatch: options.checksPerBatch ?? checksPerCopyOn(db.kind),
  };
  const pending = await bulkTransaction(db, async (sql) => {
    // A load that failed before is tried again.
    const { rows } = await sql.query<PendingHistory>(
      `UPDATE demo_loads d SET failure = NULL FROM companies c
       WHERE c.id = d.company_id AND d.finished_at IS NULL
       RETURNING d.company_id, c.slug, d.scale, d.seed::text AS seed,
                 to_char(d.until_date, 'YYYY-MM-DD') AS until_date, d.checks_loaded`,
    );
    return rows.sort((a, b) => a.company_id - b.company_id);
  });
  if (pending.length === 0) return false;
  for (const history of pending) {
    try {
      await loadCompanyHistory(db, history, settings);
    } catch (error) {
      if (error instanceof DemoHistoryTakenOver) continue;
      if (!settings.signal.aborted) {
        // Kept so the status says the load stopped (the banner goes); the next start tries again.
        const reason = error instanceof Error ? error.message : String(error);
        await bulkTransaction(db, (sql) =>
          sql.query('UPDATE demo_loads SET failure = $2 WHERE company_id = $1', [history.company_id, reason]),
        );
      }
      throw error;
    }
  }
  // Statistics for the planner, and every page of the fresh rows marked all-visible so the rollups' index-only
  // reads need not visit the table (PGlite runs no autovacuum; server/db/planner-statistics.ts).
  await db.vacuum();
  return true;
}

/** Refuses to load over an existing demo: the slugs and owner emails are unique across the installation. */
async function assertNotLoaded(db: Database, plans: readonly CompanyPlan[]): Promise<void> {
  const existing = await db.platform(async (sql) => {
    const { rows } = await sql.query<{ slug: string }>(
      `SELECT slug FROM companies WHERE slug = ANY($1::text[])
       UNION ALL
       SELECT email FROM users WHERE lower(email) = ANY($2::text[])`,
      [
        [...plans.map((plan) => plan.blueprint.slug), SUPPORT_COMPANY.slug],
        [...plans.map((plan) => plan.blueprint.owner.email.toLowerCase()), SUPPORT_STAFF.email],
      ],
    );
    return rows.map((row) => row.slug);
  });
  if (existing.length > 0) {
    throw new Error(
      `The demo data is already loaded (${existing.join(', ')} exist); reset the database first`,
    );
  }
}

/** Rows per demo table for the given companies. */
async function countRows(db: Database, companyIds: readonly number[]): Promise<Record<string, number>> {
  return db.platform(async (sql) => {
    const counts: Record<string, number> = {};
    for (const table of DEMO_TABLES) {
      const column = table === 'companies' ? 'id' : 'company_id';
      const { rows } = await sql.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM ${table} WHERE ${column} = ANY($1::bigint[])`,
        [companyIds],
      );
      counts[table] = rows[0]!.count;
    }
    return counts;
  });
}

/** What `loadDemoAccounts` wrote: the companies and sign-ins, usable at once; their history is still to load. */
export interface DemoAccounts {
  scale: Scale;
  seed: number;
  /** The date the history is generated up to (YYYY-MM-DD). */
  until: string;
  companies: DemoCompanySummary[];
  /** The platform support company and its staff sign-in (not counted among the demo companies). */
  support: SupportSummary;
}

/**
 * The first step of the demo: a Portland restaurant group (company 1, the demo sign-in) and a small Denver
 * diner (company 2, to show isolation) with their locations, menus, competitors, guests and subscribers, plus
 * the platform's "Regulars Support" company whose staff member may impersonate users (/hijack), all in one
 * transaction. Their two years of POS checks follow with `loadDemoHistory`.
 */
export async function loadDemoAccounts(db: Database, options: LoadDemoOptions): Promise<DemoAccounts> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? DEFAULT_SEED;
  const plan = planDemo({ scale: options.scale, seed, until: options.until ?? new Date() });
  await assertNotLoaded(db, plan.companies);
  const until = plan.until.toISOString().slice(0, 10);

  const passwordHash = await hashPassword(DEMO_PASSWORD);
  // One transaction for every account: a start stopped halfway leaves none, and the next start loads them all.
  const { companies, supportId } = await bulkTransaction(
    db,
    async (sql) => {
      const loaded: DemoCompanySummary[] = [];
      for (const company of plan.companies) {
        const demo = { scale: plan.scale, seed, until };
        const id = await insertCompanyAccounts(sql, db.kind, company, demo, passwordHash, log);
        // Like a sign-up, the starter segments; their figures are worked out again once the history is in.
        await createStarterSegments(sql, { companyId: id, userId: null, actorUserId: null });
        // And the six starter templates (docs/templates.md), so the templates screen has something true to show.
        await createStarterTemplates(
          sql,
          { companyId: id, userId: null, actorUserId: null },
          options.installationUrl ?? 'http://localhost:3000',
        );
        // A postal address, a verified sender and a few campaigns with true figures (docs/campaigns.md).
        await createDemoCampaigns(
          sql,
          { companyId: id, userId: null, actorUserId: null },
          {
            name: company.blueprint.name,
            slug: company.blueprint.slug,
            city: company.blueprint.locations[0]?.city ?? '',
            timeZone: company.blueprint.timeZone,
            until,
            seed,
          },
        );
        // A live welcome flow, a live win-back flow and a draft, published through the flows service (docs/flows.md).
        await createDemoFlows(sql, { companyId: id, userId: null, actorUserId: null });
        loaded.push({
          id,
          name: company.blueprint.name,
          slug: company.blueprint.slug,
          ownerEmail: company.blueprint.owner.email,
          ownerPassword: DEMO_PASSWORD,
        });
      }
      return { companies: loaded, supportId: await insertSupportCompany(sql, passwordHash) };
    },
    { checkReferences: false },
  );
  const support: SupportSummary = {
    id: supportId,
    name: SUPPORT_COMPANY.name,
    staffEmail: SUPPORT_STAFF.email,
    staffPassword: DEMO_PASSWORD,
  };
  return { scale: plan.scale, seed, until, companies, support };
}

/**
 * Loads the whole demo data set (`loadDemoAccounts`, then `loadDemoHistory`) and counts what it wrote. The
 * same scale, seed and `until` date always write the same rows.
 */
export async function loadDemoData(db: Database, options: LoadDemoOptions): Promise<DemoSummary> {
  const started = performance.now();
  const accounts = await loadDemoAccounts(db, options);
  await loadDemoHistory(db, { log: options.log });
  const counts = await countRows(
    db,
    accounts.companies.map((company) => company.id),
  );
  return { ...accounts, counts, elapsedMs: Math.round(performance.now() - started) };
}
