import {
  sql as rawSql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { CompanyId, Sql } from '../db/database.js';
import { anyId, queryBuilder, runQuery } from '../db/query-builder.js';
import type { Tables } from '../db/tables.js';
import { recordAudit } from './audit.repository.js';
import { exitSubscribersFromFlows } from './flow-exits.repository.js';
import { newHashid } from './hashid.js';
import { likePattern } from './like-pattern.js';
import { assertOwned, isUniqueViolation } from './references.js';
import type { SubscriberOrdering } from '../../src/schemas/customers.js';
import type { WriteScope } from './scope.js';
import { findSubscribersByIds, SELECT_SUBSCRIBER, type SubscriberRow } from './subscriber-rows.js';
import { recordSubscriberFlowEvent } from './flow-events.repository.js';

/** The row reader lives in subscriber-rows.ts (shared with lists); callers know it from here. */
export { findSubscribersByIds, type SubscriberRow };

/** What creating a subscriber takes; the hashid is generated and the email trimmed. */
export interface NewSubscriber {
  email: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  zip?: string;
  birthday?: string | null;
  subscribed?: boolean;
  pos_id?: string | null;
  guest_id?: number | null;
  source_location_id?: number | null;
  consent_at?: Date | null;
}

/** The profile fields a user may change on a subscriber. */
export interface SubscriberProfileChanges {
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  zip: string;
  birthday: string | null;
  subscribed: boolean;
  /** Where the subscriber signed up; null for nowhere in particular (the website). */
  source_location_id: number | null;
}

/** The three values that together name a subscriber in a link: all must match or it is not found. */
export interface SubscriberKey {
  id: number;
  hashid: string;
  /** Null for a subscriber the POS does not know; it must then be null here too. */
  pos_id: string | null;
}

/** Filters of the subscriber list; locations are matched on where the subscriber signed up. */
export interface SubscriberFilter {
  q?: string | undefined;
  locationIds?: number[];
  groupIds?: number[];
  limit: number;
  offset: number;
}

/** Raised when the company already has a subscriber with this email, in any letter case. */
export class DuplicateSubscriberEmailError extends Error {
  constructor() {
    super('A subscriber with this email already exists');
    this.name = 'DuplicateSubscriberEmailError';
  }
}

const PROFILE = [
  'email',
  'first_name',
  'last_name',
  'phone',
  'zip',
  'birthday',
  'subscribed',
  'source_location_id',
] as const;

/** Throws DuplicateSubscriberEmailError when another subscriber of the company has this email (any case). */
async function assertEmailFree(
  sql: Sql,
  companyId: CompanyId,
  email: string,
  exceptId: number | null,
): Promise<void> {
  const { rows } = await sql.query(
    'SELECT 1 FROM subscribers WHERE company_id = $1 AND lower(email) = lower($2) AND ($3::bigint IS NULL OR id <> $3)',
    [companyId, email, exceptId],
  );
  if (rows.length > 0) throw new DuplicateSubscriberEmailError();
}

/** Turns the unique index's error (a concurrent insert won the race) into the typed error. */
function duplicateOr(error: unknown): unknown {
  return isUniqueViolation(error, 'subscribers_email_unique') ? new DuplicateSubscriberEmailError() : error;
}

/** What a subscriber file of the big-data download holds per subscriber. */
export interface SubscriberFileRow {
  email: string;
  pos_id: string | null;
}

/** The subscriber linked to a guest, as a guest's profile shows it. */
export interface GuestSubscriptionRow {
  subscriber_id: number;
  hashid: string;
  subscribed: boolean;
  email: string;
  /** The subscriber's own POS id, for the link to their profile. */
  pos_id: string | null;
}

type SubscriberExpressions = ExpressionBuilder<Tables & { s: Tables['subscribers'] }, 's'>;

/**
 * The conditions of a subscriber list. Locations match where the subscriber signed up; ids of another
 * company's locations or groups match nobody. The search terms are exactly the expressions of the trigram
 * indexes (migration 0006); the full name covers first and last name alone. Only the filters given are
 * in the statement.
 */
function subscriberConditions(companyId: CompanyId, filter: Omit<SubscriberFilter, 'limit' | 'offset'>) {
  return (eb: SubscriberExpressions) => {
    const conditions: Expression<SqlBool>[] = [eb('s.company_id', '=', companyId)];
    if (filter.q) {
      const pattern = likePattern(filter.q);
      // The space is part of the statement, not a parameter, so the expression matches its index.
      const fullName = rawSql<string>`(${rawSql.ref('s.first_name')} || ' ' || ${rawSql.ref('s.last_name')})`;
      // Phones are stored as E.164 (+15035554585) and shown as (503) 555-4585: typed punctuation is dropped.
      const digits = filter.q.replace(/\D/g, '');
      conditions.push(
        eb.or([
          eb('s.email', 'ilike', pattern),
          eb('s.phone', 'ilike', pattern),
          ...(digits.length >= 3 ? [eb('s.phone', 'like', likePattern(digits))] : []),
          eb(fullName, 'ilike', pattern),
        ]),
      );
    }
    const locationIds = filter.locationIds ?? [];
    if (locationIds.length > 0) conditions.push(eb('s.source_location_id', '=', anyId(locationIds)));
    const groupIds = filter.groupIds ?? [];
    if (groupIds.length > 0) {
      conditions.push(
        eb.exists(
          eb
            .selectFrom('location_group_members as m')
            .select(eb.lit(1).as('one'))
            .where('m.company_id', '=', companyId)
            .where('m.group_id', '=', anyId(groupIds))
            .whereRef('m.location_id', '=', 's.source_location_id'),
        ),
      );
    }
    return eb.and(conditions);
  };
}

/** The subscribers matching a filter, as a query to narrow further (order, window, columns). */
function matchingSubscribers(companyId: CompanyId, filter: Omit<SubscriberFilter, 'limit' | 'offset'>) {
  return queryBuilder.selectFrom('subscribers as s').where(subscriberConditions(companyId, filter));
}

/**
 * The key of each ordering: the columns it sorts by (on the list's row `s`, or on the cursor's boundary row
 * `b`), the id last as the tie-breaker, each indexed after company_id (migration 0009).
 */
function orderingKey(column: string, alias: 's' | 'b'): RawBuilder<unknown>[] {
  const lowered = (name: string) => rawSql`lower(${rawSql.ref(`${alias}.${name}`)})`;
  const id = rawSql`${rawSql.ref(`${alias}.id`)}`;
  if (column === 'email') return [lowered('email'), id];
  if (column === 'name') return [lowered('first_name'), lowered('last_name'), id];
  return [rawSql`${rawSql.ref(`${alias}.created_at`)}`, id];
}

/**
 * Where a subscriber page starts: an offset, or after (or before) the row with the given id, whose ordering
 * key is read in SQL (the cursor carries only the id), read straight from the ordering's index.
 */
export interface SubscriberKeyset {
  limit: number;
  offset: number;
  afterId?: number | undefined;
  beforeId?: number | undefined;
}

/** The subscribers of a filter in an ordering, from a window. */
function orderedSubscribers(
  companyId: CompanyId,
  query: ReturnType<typeof matchingSubscribers>,
  ordering: SubscriberOrdering,
  window: SubscriberKeyset,
) {
  const descending = ordering.startsWith('-');
  const column = descending ? ordering.slice(1) : ordering;
  const key = orderingKey(column, 's');
  const backwards = window.beforeId !== undefined;
  const direction = descending !== backwards ? 'desc' : 'asc';
  const boundaryId = window.afterId ?? window.beforeId;
  let ordered = query;
  if (boundaryId !== undefined) {
    // The boundary row's key, one scalar subquery per part (each run once), company-filtered so another
    // company's id matches nothing; a row comparison over the whole key, which the index reads as a range.
    const boundary = orderingKey(column, 'b').map((part, index) =>
      index === key.length - 1
        ? rawSql`${boundaryId}::bigint`
        : rawSql`(SELECT ${part} FROM subscribers b WHERE b.company_id = ${companyId} AND b.id = ${boundaryId})`,
    );
    const operator = direction === 'desc' ? '<' : '>';
    ordered = ordered.where(
      rawSql<SqlBool>`(${rawSql.join(key)}) ${rawSql.raw(operator)} (${rawSql.join(boundary)})`,
    );
  } else {
    ordered = ordered.offset(window.offset);
  }
  for (const part of key) ordered = ordered.orderBy(part, direction);
  return { query: ordered.limit(window.limit), backwards, boundaryId };
}

/** Whether a row of this company has this id (a cursor's boundary row still exists). */
async function subscriberExists(sql: Sql, companyId: CompanyId, id: number): Promise<boolean> {
  const rows = await runQuery(
    sql,
    queryBuilder
      .selectFrom('subscribers')
      .select(rawSql.lit(1).as('one'))
      .where('company_id', '=', companyId)
      .where('id', '=', id),
  );
  return rows.length > 0;
}

/**
 * One page of subscribers in the asked order (newest first by default) without a count, by offset or keyset
 * (see `SubscriberKeyset`); null when the cursor's boundary row is not (or no longer) the company's, so the
 * caller can say the list changed rather than show an empty page.
 */
export async function subscriberPage(
  sql: Sql,
  companyId: CompanyId,
  filter: Omit<SubscriberFilter, 'limit' | 'offset'> & { ordering?: SubscriberOrdering | undefined },
  window: SubscriberKeyset,
): Promise<SubscriberRow[] | null> {
  const { query, backwards, boundaryId } = orderedSubscribers(
    companyId,
    matchingSubscribers(companyId, filter),
    filter.ordering ?? '-created_at',
    window,
  );
  // Ids first, so list memberships are read for this page's rows only, not for every row skipped.
  const page = await runQuery(sql, query.select('s.id'));
  // A missing boundary row compares as NULL and yields no rows; only then is it looked for.
  if (page.length === 0 && boundaryId !== undefined && !(await subscriberExists(sql, companyId, boundaryId)))
    return null;
  if (backwards) page.reverse();
  const ids = page.map((row) => row.id);
  const byId = new Map((await findSubscribersByIds(sql, companyId, ids)).map((row) => [row.id, row]));
  // The rows come back by id; the page's order is the one asked for.
  return ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
}

/** One page of a company's subscribers in the asked order (newest first by default), searched by email, name or phone. */
export async function listSubscribers(
  sql: Sql,
  companyId: CompanyId,
  filter: SubscriberFilter & { ordering?: SubscriberOrdering },
): Promise<{ count: number; rows: SubscriberRow[] }> {
  const count = await countSubscribers(sql, companyId, filter);
  const rows = (await subscriberPage(sql, companyId, filter, filter)) ?? [];
  return { count, rows };
}

/** How many subscribers match a filter, counting no further than `atMost` (a bounded scan for large lists). */
export async function countSubscribersUpTo(
  sql: Sql,
  companyId: CompanyId,
  filter: Omit<SubscriberFilter, 'limit' | 'offset'>,
  atMost: number,
): Promise<number> {
  const [row] = await runQuery(
    sql,
    queryBuilder
      .selectFrom(
        matchingSubscribers(companyId, filter).select(rawSql.lit(1).as('one')).limit(atMost).as('m'),
      )
      .select((eb) => eb.fn.countAll<number>().as('count')),
  );
  return Number(row?.count ?? 0);
}

/** How many of a company's subscribers match a filter. */
export async function countSubscribers(
  sql: Sql,
  companyId: CompanyId,
  filter: Omit<SubscriberFilter, 'limit' | 'offset'>,
): Promise<number> {
  const [row] = await runQuery(
    sql,
    matchingSubscribers(companyId, filter).select((eb) => eb.fn.countAll<number>().as('count')),
  );
  return Number(row?.count ?? 0);
}

/**
 * The next batch of subscribers matching a filter with an id above `afterId`, oldest first: keyset paging
 * for exports, so a million subscribers stream in constant memory and constant time per batch.
 */
export async function subscribersAfter(
  sql: Sql,
  companyId: CompanyId,
  filter: Omit<SubscriberFilter, 'limit' | 'offset'>,
  afterId: number,
  limit: number,
): Promise<SubscriberRow[]> {
  const batch = await runQuery(
    sql,
    matchingSubscribers(companyId, filter)
      .select('s.id')
      .where('s.id', '>', afterId)
      .orderBy('s.id')
      .limit(limit),
  );
  return findSubscribersByIds(
    sql,
    companyId,
    batch.map((row) => row.id),
  );
}

/** The rows of one big-data subscriber file: subscribers matching a filter, oldest first, `limit` from `offset`. */
export async function subscriberFileRows(
  sql: Sql,
  companyId: CompanyId,
  filter: Omit<SubscriberFilter, 'limit' | 'offset'>,
  window: { limit: number; offset: number },
): Promise<SubscriberFileRow[]> {
  return runQuery(
    sql,
    matchingSubscribers(companyId, filter)
      .select(['s.email', 's.pos_id'])
      .orderBy('s.id')
      .limit(window.limit)
      .offset(window.offset),
  );
}

/** Which of these POS ids already belong to a subscriber of the company. */
export async function existingSubscriberPosIds(
  sql: Sql,
  companyId: CompanyId,
  posIds: readonly string[],
): Promise<string[]> {
  const { rows } = await sql.query<{ pos_id: string }>(
    `SELECT DISTINCT pos_id FROM subscribers WHERE company_id = $1 AND pos_id = ANY($2::text[]) ORDER BY pos_id`,
    [companyId, [...new Set(posIds)]],
  );
  return rows.map((row) => row.pos_id);
}

/** The subscriber linked to a guest (the oldest, should there be several); null when none is. */
export async function findSubscriptionOfGuest(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<GuestSubscriptionRow | null> {
  const { rows } = await sql.query<GuestSubscriptionRow>(
    `SELECT id AS subscriber_id, hashid, subscribed, email, pos_id FROM subscribers
     WHERE company_id = $1 AND guest_id = $2 ORDER BY id LIMIT 1`,
    [companyId, guestId],
  );
  return rows[0] ?? null;
}

/** The subscriber with this id, hashid and POS id; null when any of them does not match in this company. */
export async function getSubscriber(
  sql: Sql,
  companyId: CompanyId,
  key: SubscriberKey,
): Promise<SubscriberRow | null> {
  const { rows } = await sql.query<SubscriberRow>(
    `${SELECT_SUBSCRIBER}
     WHERE s.company_id = $1 AND s.id = $2 AND s.hashid = $3 AND s.pos_id IS NOT DISTINCT FROM $4::text`,
    [companyId, key.id, key.hashid, key.pos_id],
  );
  return rows[0] ?? null;
}

/**
 * Creates a subscriber with a new hashid and the email trimmed. Throws DuplicateSubscriberEmailError when
 * the company has the address already (any case), UnknownReferenceError for another company's guest or
 * location.
 */
export async function createSubscriber(
  sql: Sql,
  scope: WriteScope,
  input: NewSubscriber,
): Promise<SubscriberRow> {
  const email = input.email.trim();
  await assertEmailFree(sql, scope.companyId, email, null);
  await assertOwned(sql, scope.companyId, 'locations', 'source_location_id', [input.source_location_id]);
  await assertOwned(sql, scope.companyId, 'guests', 'guest_id', [input.guest_id]);
  let id: number;
  try {
    const { rows } = await sql.query<{ id: number }>(
      `INSERT INTO subscribers (company_id, email, first_name, last_name, phone, zip, birthday, subscribed, pos_id,
                                hashid, guest_id, source_location_id, consent_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
      [
        scope.companyId,
        email,
        input.first_name ?? '',
        input.last_name ?? '',
        input.phone ?? '',
        input.zip ?? '',
        input.birthday ?? null,
        input.subscribed ?? true,
        input.pos_id ?? null,
        newHashid(),
        input.guest_id ?? null,
        input.source_location_id ?? null,
        input.consent_at ?? null,
      ],
    );
    id = rows[0]!.id;
  } catch (error) {
    throw duplicateOr(error);
  }
  const created = (await findSubscribersByIds(sql, scope.companyId, [id]))[0]!;
  await recordAudit(sql, scope, { action: 'create', entity: 'subscriber', entityId: id, after: created });
  // The "new subscriber" flow trigger reads this event (docs/flows.md).
  await recordSubscriberFlowEvent(sql, scope.companyId, id);
  return created;
}

/**
 * Changes a subscriber's profile; unsubscribing stamps `unsubscribed_at`, resubscribing clears it. Null
 * when the subscriber does not exist in this company; DuplicateSubscriberEmailError for a taken email.
 */
export async function updateSubscriber(
  sql: Sql,
  scope: WriteScope,
  id: number,
  changes: Partial<SubscriberProfileChanges>,
): Promise<SubscriberRow | null> {
  const before = (await findSubscribersByIds(sql, scope.companyId, [id]))[0];
  if (!before) return null;
  const values: Partial<SubscriberProfileChanges> = { ...changes };
  if (values.email !== undefined) {
    values.email = values.email.trim();
    await assertEmailFree(sql, scope.companyId, values.email, id);
  }
  if (values.source_location_id !== undefined) {
    await assertOwned(sql, scope.companyId, 'locations', 'source_location_id', [values.source_location_id]);
  }
  const keys = PROFILE.filter((key) => values[key] !== undefined);
  if (keys.length > 0) {
    const assignments = keys.map((key, index) => `${key} = $${index + 3}`);
    const subscribedAt = keys.indexOf('subscribed');
    if (subscribedAt >= 0) {
      // SET expressions see the old row, so `subscribed` here is the value before this change.
      const param = `$${subscribedAt + 3}::boolean`;
      assignments.push(
        `unsubscribed_at = CASE WHEN ${param} THEN NULL WHEN subscribed THEN now() ELSE unsubscribed_at END`,
      );
    }
    try {
      await sql.query(
        `UPDATE subscribers SET ${assignments.join(', ')}, updated_at = now() WHERE company_id = $1 AND id = $2`,
        [scope.companyId, id, ...keys.map((key) => values[key])],
      );
    } catch (error) {
      throw duplicateOr(error);
    }
  }
  const after = (await findSubscribersByIds(sql, scope.companyId, [id]))[0]!;
  // An unsubscribe ends the person's flows at once (docs/flows.md, "Exits").
  if (before.subscribed && !after.subscribed) {
    await exitSubscribersFromFlows(sql, scope.companyId, [id], 'unsubscribed');
  }
  await recordAudit(sql, scope, { action: 'update', entity: 'subscriber', entityId: id, before, after });
  return after;
}

/**
 * Deletes a subscriber's row and records it in the audit log. The rows that point at it (list memberships, notes,
 * cards, messages) are the caller's to clear first: the subscribers service does it in the same transaction.
 */
export async function deleteSubscriber(sql: Sql, scope: WriteScope, before: SubscriberRow): Promise<void> {
  await sql.query('DELETE FROM subscribers WHERE company_id = $1 AND id = $2', [scope.companyId, before.id]);
  await recordAudit(sql, scope, { action: 'delete', entity: 'subscriber', entityId: before.id, before });
}

/** Forgets a deleted guest in the subscribers linked to them (the subscriber stays, without the link). */
export async function unlinkGuestFromSubscribers(
  sql: Sql,
  companyId: CompanyId,
  guestId: number,
): Promise<void> {
  await sql.query('UPDATE subscribers SET guest_id = NULL WHERE company_id = $1 AND guest_id = $2', [
    companyId,
    guestId,
  ]);
}
