import type { Readable } from 'node:stream';
import type { CustomerListQuery, ProfileKeyQuery, SubscriberOrdering } from '../../src/schemas/customers.js';
import type {
  Subscriber,
  SubscriberCreate,
  SubscriberProfile,
  SubscriberProfileUpdate,
} from '../../src/schemas/subscribers.js';
import type { Database } from '../db/database.js';
import { canonicalPhone } from '../../src/format/phone.js';
import { staleCursor, type KeysetRead } from '../http/cursor-paging.js';
import { fieldFailure, invalid, notFound } from '../http/errors.js';
import { findGuestIdByPosId } from '../repositories/guests.repository.js';
import { UnknownReferenceError } from '../repositories/references.js';
import type { WriteScope } from '../repositories/scope.js';
import { subscriberListNames } from '../repositories/subscriber-lists.repository.js';
import {
  createSubscriber,
  DuplicateSubscriberEmailError,
  countSubscribers,
  countSubscribersUpTo,
  getSubscriber,
  subscriberPage,
  subscribersAfter,
  type SubscriberKeyset,
  updateSubscriber,
  type SubscriberKey,
  type SubscriberRow,
} from '../repositories/subscribers.repository.js';
import { keysetCsv } from './csv-export.service.js';
import { eraseSubscriber } from './customer-erasure.js';
import { isoOrNull, type CustomerProfilesService } from './customer-profiles.service.js';
import { readGuestMetrics } from './guest-metrics.service.js';
import { listCounts, readCounted, type ListCounts } from './list-counts.js';

/** The columns of the subscriber CSV export, in order. */
export const SUBSCRIBER_EXPORT_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'zip',
  'birthday',
  'subscribed',
  'pos_id',
  'source_location_id',
  'created_at',
] as const;

/** A subscriber row as the API shows it; `SUBSCRIBED` is the spec's string form of `subscribed`. */
export function presentSubscriber(row: SubscriberRow): Subscriber {
  return {
    id: row.id,
    hashid: row.hashid,
    pos_id: row.pos_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    zip: row.zip,
    birthday: row.birthday,
    subscribed: row.subscribed,
    SUBSCRIBED: row.subscribed ? 'True' : 'False',
    guest_id: row.guest_id,
    source_location_id: row.source_location_id,
    list_ids: row.list_ids,
    unsubscribed_at: isoOrNull(row.unsubscribed_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** One line of the subscriber export. */
export function subscriberExportCells(row: SubscriberRow) {
  return [
    row.id,
    row.email,
    row.first_name,
    row.last_name,
    row.phone,
    row.zip,
    row.birthday,
    row.subscribed,
    row.pos_id,
    row.source_location_id,
    row.created_at.toISOString(),
  ];
}

/** The list filters of a query as the repository takes them. */
export function subscriberFilterOf(query: Omit<CustomerListQuery, 'page' | 'page_size'>) {
  return { q: query.q, locationIds: query.location_id, groupIds: query.location_group_id };
}

/** The key of a profile link; an empty POS id names a subscriber the POS does not know. */
function keyOf(id: number, query: ProfileKeyQuery): SubscriberKey {
  return { id, hashid: query.hashid, pos_id: query.pos_id === '' ? null : query.pos_id };
}

/** Turns repository errors about the input into 400s naming the field. */
function rejectBadInput(error: unknown): never {
  if (error instanceof DuplicateSubscriberEmailError)
    throw invalid({ email: fieldFailure('in_use', 'Email already exists') });
  if (error instanceof UnknownReferenceError && error.field === 'source_location_id') {
    throw invalid({ source_location_id: fieldFailure('not_valid', 'Location is not valid') });
  }
  throw error;
}

/** Subscribers: list, add, profile, update, delete, cards, notes and export. */
export function subscribersService(
  db: Database,
  profiles: CustomerProfilesService,
  counts: ListCounts = listCounts(),
) {
  return {
    /**
     * One page of the list, by offset or keyset (`window`), read with one row more than it shows, and the
     * list's total: exact when small, a recent full count labelled estimated when large (list-counts.ts).
     */
    async list(
      companyId: number,
      query: CustomerListQuery & { ordering?: SubscriberOrdering },
      window: SubscriberKeyset,
    ): Promise<KeysetRead<Subscriber>> {
      const filter = subscriberFilterOf(query);
      const ordered = { ...filter, ordering: query.ordering ?? '-created_at' };
      const { rows, total } = await readCounted(
        counts,
        `subscribers:${companyId}:${JSON.stringify(filter)}`,
        {
          transaction: (fn) => db.tenant(companyId, fn),
          page: async (sql) => {
            const rows = await subscriberPage(sql, companyId, ordered, window);
            // The cursor's row is gone (deleted since the link was made) or never was this company's.
            if (rows === null) throw staleCursor();
            return rows;
          },
          countUpTo: (sql, atMost) => countSubscribersUpTo(sql, companyId, filter, atMost),
          countAll: (sql) => countSubscribers(sql, companyId, filter),
          window,
        },
      );
      return {
        items: rows.map((row) => presentSubscriber(row)),
        ids: rows.map((row) => row.id),
        count: total.count,
        countEstimated: total.estimated,
      };
    },
    /**
     * Adds a subscriber (the phone stored as E.164); one whose POS id names exactly one guest is linked to that guest. The guest look-up
     * and the insert share one transaction, so the link names a guest that exists when the subscriber does.
     */
    async create(scope: WriteScope, input: SubscriberCreate): Promise<Subscriber> {
      const posId = input.pos_id === '' ? null : input.pos_id;
      const row = await db
        .tenant(scope.companyId, async (sql) => {
          const guestId = posId === null ? null : await findGuestIdByPosId(sql, scope.companyId, posId);
          return createSubscriber(sql, scope, {
            email: input.email,
            first_name: input.first_name,
            last_name: input.last_name,
            phone: canonicalPhone(input.phone),
            zip: input.zip,
            birthday: input.birthday,
            subscribed: input.subscribed,
            pos_id: posId,
            guest_id: guestId,
            source_location_id: input.source_location_id,
            consent_at: input.subscribed ? new Date() : null,
          });
        })
        .catch(rejectBadInput);
      return presentSubscriber(row);
    },
    /** The profile; 404 unless id, hashid and POS id all match a subscriber of the company. */
    async profile(companyId: number, id: number, query: ProfileKeyQuery): Promise<SubscriberProfile> {
      const found = await db.tenant(companyId, async (sql) => {
        const row = await getSubscriber(sql, companyId, keyOf(id, query));
        if (!row) return null;
        return {
          row,
          lists: await subscriberListNames(sql, companyId, row.list_ids),
          metrics: row.guest_id === null ? null : await readGuestMetrics(sql, companyId, row.guest_id),
        };
      });
      if (!found) throw notFound('Subscriber');
      const { row, lists, metrics } = found;
      return {
        kind: 'subscriber',
        subscriber: presentSubscriber(row),
        activity: await profiles.activity(companyId, row.guest_id),
        metrics,
        lists,
      };
    },
    /** Replaces the profile fields; the phone is stored as E.164 like an added one. */
    async updateProfile(scope: WriteScope, id: number, input: SubscriberProfileUpdate): Promise<Subscriber> {
      const changes = { ...input, phone: canonicalPhone(input.phone) };
      const row = await db
        .tenant(scope.companyId, (sql) => updateSubscriber(sql, scope, id, changes))
        .catch(rejectBadInput);
      if (!row) throw notFound('Subscriber');
      return presentSubscriber(row);
    },
    /** Deletes the subscriber named by the link and everything personal about them. */
    async remove(scope: WriteScope, id: number, query: ProfileKeyQuery): Promise<void> {
      const deleted = await db.tenant(scope.companyId, async (sql) => {
        const row = await getSubscriber(sql, scope.companyId, keyOf(id, query));
        return row !== null && eraseSubscriber(sql, scope, row.id);
      });
      if (!deleted) throw notFound('Subscriber');
    },
    /** Every subscriber matching the list's filters as CSV, streamed. */
    exportCsv(companyId: number, query: Omit<CustomerListQuery, 'page' | 'page_size'>): Readable {
      const filter = subscriberFilterOf(query);
      return keysetCsv(
        SUBSCRIBER_EXPORT_COLUMNS,
        (afterId, limit) =>
          db.tenant(companyId, (sql) => subscribersAfter(sql, companyId, filter, afterId, limit)),
        subscriberExportCells,
      );
    },
    ...profiles.extrasOf('subscriber'),
  };
}

/** The subscribers service. */
export type SubscribersService = ReturnType<typeof subscribersService>;
