import type { Readable } from 'node:stream';
import type { GuestListQuery, ProfileKeyQuery } from '../../src/schemas/customers.js';
import type { EmailConsent, Guest, GuestProfile } from '../../src/schemas/guests.js';
import type { Database } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { KeysetRead, KeysetWindow } from '../http/cursor-paging.js';
import {
  countGuests,
  countGuestsUpTo,
  getGuest,
  guestPage,
  guestsAfter,
  type GuestListRow,
  type GuestRow,
} from '../repositories/guests.repository.js';
import { emailConsentOfGuest } from '../repositories/email-consent.js';
import type { WriteScope } from '../repositories/scope.js';
import { findSubscriptionOfGuest } from '../repositories/subscribers.repository.js';
import { keysetCsv } from './csv-export.service.js';
import { listCounts, readCounted, type ListCounts } from './list-counts.js';
import { eraseGuest } from './customer-erasure.js';
import { dollars, isoOrNull, type CustomerProfilesService } from './customer-profiles.service.js';
import { readGuestMetrics } from './guest-metrics.service.js';

/** The columns of the guest CSV export, in order. */
export const GUEST_EXPORT_COLUMNS = [
  'id',
  'pos_id',
  'customer_name',
  'last_four_digits',
  'first_location_id',
  'visit_count',
  'total_spend',
  'first_visit_at',
  'last_visit_at',
  'is_subscriber',
  'email_consent',
] as const;

/** A guest row as the API shows it; money in dollars. */
export function presentGuest(row: GuestRow, isSubscriber: boolean, consent: EmailConsent): Guest {
  return {
    id: row.id,
    hashid: row.hashid,
    pos_id: row.pos_id,
    customer_name: row.customer_name,
    last_four_digits: row.last_four_digits,
    first_location_id: row.first_location_id,
    visit_count: row.visit_count,
    total_spend: dollars(row.total_spend_cents),
    first_visit_at: isoOrNull(row.first_visit_at),
    last_visit_at: isoOrNull(row.last_visit_at),
    is_subscriber: isSubscriber,
    email_consent: consent,
    created_at: row.created_at.toISOString(),
  };
}

/** One line of the guest export. */
export function guestExportCells(row: GuestListRow) {
  return [
    row.id,
    row.pos_id,
    row.customer_name,
    row.last_four_digits,
    row.first_location_id,
    row.visit_count,
    dollars(row.total_spend_cents).toFixed(2),
    isoOrNull(row.first_visit_at),
    isoOrNull(row.last_visit_at),
    row.is_subscriber,
    row.email_consent,
  ];
}

/** The guest list's query without paging: its filters. */
export type GuestFilterQuery = Omit<GuestListQuery, 'page' | 'page_size'>;

/** The list filters of a query as the repository takes them. */
export function guestFilterOf(query: GuestFilterQuery) {
  const isSubscriber = query.is_subscriber === undefined ? undefined : query.is_subscriber === 'true';
  return { q: query.q, locationIds: query.location_id, groupIds: query.location_group_id, isSubscriber };
}

/** Guests: list, profile, delete, cards, notes and export. */
export function guestsService(
  db: Database,
  profiles: CustomerProfilesService,
  counts: ListCounts = listCounts(),
) {
  const keyOf = (id: number, query: ProfileKeyQuery) => ({ id, hashid: query.hashid, pos_id: query.pos_id });
  return {
    /**
     * One page of the list, newest first, by offset or keyset (`window`; the cursor's id is the key itself), read with one
     * row more than it shows, and the list's total: exact when small, a recent full count labelled
     * estimated when large (list-counts.ts).
     */
    async list(companyId: number, query: GuestListQuery, window: KeysetWindow): Promise<KeysetRead<Guest>> {
      const filter = guestFilterOf(query);
      const { rows, total } = await readCounted(counts, `guests:${companyId}:${JSON.stringify(filter)}`, {
        transaction: (fn) => db.tenant(companyId, fn),
        page: (sql) =>
          guestPage(sql, companyId, filter, {
            limit: window.limit,
            offset: window.offset,
            afterId: window.afterId,
            beforeId: window.beforeId,
          }),
        countUpTo: (sql, atMost) => countGuestsUpTo(sql, companyId, filter, atMost),
        countAll: (sql) => countGuests(sql, companyId, filter),
        window,
        exact: query.count === 'exact',
      });
      return {
        items: rows.map((row) => presentGuest(row, row.is_subscriber, row.email_consent)),
        ids: rows.map((row) => row.id),
        count: total.count,
        countEstimated: total.estimated,
      };
    },
    /** The profile; 404 unless id, hashid and POS id all match a guest of the company. */
    async profile(companyId: number, id: number, query: ProfileKeyQuery): Promise<GuestProfile> {
      const found = await db.tenant(companyId, async (sql) => {
        const row = await getGuest(sql, companyId, keyOf(id, query));
        if (!row) return null;
        return {
          row,
          subscription: await findSubscriptionOfGuest(sql, companyId, row.id),
          // The same rule as the list's column, so both screens give one answer.
          consent: (await emailConsentOfGuest(sql, companyId, row.id)) ?? 'never_asked',
          metrics: await readGuestMetrics(sql, companyId, row.id),
        };
      });
      if (!found?.metrics) throw notFound('Guest');
      const { row, subscription, consent, metrics } = found;
      return {
        kind: 'guest',
        guest: presentGuest(row, subscription !== null, consent),
        activity: await profiles.activity(companyId, row.id),
        metrics,
        subscription,
      };
    },
    /**
     * Deletes the guest named by the link: personal data goes everywhere, their checks stay in the figures
     * unlinked, and a deleted-customer entry without personal data is kept.
     */
    async remove(scope: WriteScope, id: number, query: ProfileKeyQuery): Promise<void> {
      const deleted = await db.tenant(scope.companyId, async (sql) => {
        const row = await getGuest(sql, scope.companyId, keyOf(id, query));
        return row !== null && eraseGuest(sql, scope, row.id);
      });
      if (!deleted) throw notFound('Guest');
    },
    /** Every guest matching the list's filters as CSV, streamed. */
    exportCsv(companyId: number, query: GuestFilterQuery): Readable {
      const filter = guestFilterOf(query);
      return keysetCsv(
        GUEST_EXPORT_COLUMNS,
        (afterId, limit) =>
          db.tenant(companyId, (sql) => guestsAfter(sql, companyId, filter, afterId, limit)),
        guestExportCells,
      );
    },
    ...profiles.extrasOf('guest'),
  };
}

/** The guests service. */
export type GuestsService = ReturnType<typeof guestsService>;
