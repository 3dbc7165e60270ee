import type { CustomerKind, ExistingRecords, FileUrls, FileUrlsQuery } from '../../src/schemas/customers.js';
import type { GuestsBigdataRowSchema } from '../../src/schemas/guests.js';
import { LIMITS } from '../../src/schemas/constants.js';
import type { z } from 'zod';
import type { Database } from '../db/database.js';
import {
  listDeletedCustomers,
  type CustomerType,
  type DeletedCustomerRow,
} from '../repositories/deleted-customers.repository.js';
import {
  countGuests,
  existingGuestPosIds,
  guestFileRows,
  listGuests,
} from '../repositories/guests.repository.js';
import {
  countSubscribers,
  existingSubscriberPosIds,
  subscriberFileRows,
} from '../repositories/subscribers.repository.js';
import { csvText } from './csv-export.service.js';

/** The header of each kind's big-data file. */
export const FILE_COLUMNS: Record<CustomerKind, readonly string[]> = {
  guest: ['customer_name', 'last_four_digits', 'pos_id'],
  subscriber: ['email', 'pos_id'],
};

/** Location filters of the file calls. */
export interface FileFilter {
  location_id: number[];
  location_group_id: number[];
}

/** A deleted-customer row as the API shows it: never who they were. */
export function presentDeletedCustomer(row: DeletedCustomerRow) {
  return {
    id: row.id,
    customer_type: row.customer_type,
    pos_id: row.pos_id,
    original_id: row.original_id,
    deleted_at: row.deleted_at.toISOString(),
  };
}

/** The URL of one file: the kind, its number, and the same location filters as query parameters. */
export function fileUrl(kind: CustomerKind, fileNumber: number, filter: FileFilter): string {
  const search = new URLSearchParams();
  for (const id of filter.location_id) search.append('location_id', String(id));
  for (const id of filter.location_group_id) search.append('location_group_id', String(id));
  const query = search.toString();
  return `/api/bigdata/files/${kind}/${fileNumber}/${query ? `?${query}` : ''}`;
}

/** Big-data calls: the lean guest list, deleted customers, file URLs and files, existing records. */
export function bigdataService(db: Database) {
  const repositoryFilter = (filter: FileFilter) => ({
    locationIds: filter.location_id,
    groupIds: filter.location_group_id,
  });
  return {
    /** A stable (oldest first) page of guests, optionally only subscribers or non-subscribers. */
    async guests(
      companyId: number,
      query: { is_subscriber?: 'true' | 'false' | undefined; location_id: number[] },
      window: { limit: number; offset: number },
    ): Promise<{ count: number; results: z.infer<typeof GuestsBigdataRowSchema>[] }> {
      const isSubscriber = query.is_subscriber === undefined ? undefined : query.is_subscriber === 'true';
      const { count, rows } = await db.tenant(companyId, (sql) =>
        listGuests(sql, companyId, {
          locationIds: query.location_id,
          isSubscriber,
          ...window,
          oldestFirst: true,
        }),
      );
      return {
        count,
        results: rows.map((row) => ({
          id: row.id,
          hashid: row.hashid,
          pos_id: row.pos_id,
          customer_name: row.customer_name,
          last_four_digits: row.last_four_digits,
          is_subscriber: row.is_subscriber,
        })),
      };
    },
    async deletedCustomers(
      companyId: number,
      query: { customer_type?: CustomerType | undefined; pos_id?: string | undefined },
      window: { limit: number; offset: number },
    ) {
      const { count, rows } = await db.tenant(companyId, (sql) =>
        listDeletedCustomers(sql, companyId, {
          customerType: query.customer_type,
          posId: query.pos_id,
          ...window,
        }),
      );
      return { count, results: rows.map(presentDeletedCustomer) };
    },
    /** How many rows the filter holds, the rows per file, and the URLs of this page's files. */
    async fileUrls(companyId: number, query: FileUrlsQuery): Promise<FileUrls> {
      const kind: CustomerKind = query.is_subscriber === 'true' ? 'subscriber' : 'guest';
      const filter = repositoryFilter(query);
      const count =
        kind === 'guest'
          ? await db.tenant(companyId, (sql) => countGuests(sql, companyId, filter))
          : await db.tenant(companyId, (sql) => countSubscribers(sql, companyId, filter));
      const files = Math.ceil(count / LIMITS.fileRowsPerFile);
      const first = (query.page - 1) * LIMITS.fileUrlsPerPage + 1;
      const last = Math.min(files, first + LIMITS.fileUrlsPerPage - 1);
      const urls: string[] = [];
      for (let fileNumber = first; fileNumber <= last; fileNumber += 1)
        urls.push(fileUrl(kind, fileNumber, query));
      return { count, max_count: LIMITS.fileRowsPerFile, urls };
    },
    /** One file as CSV text: a header line and up to `LIMITS.fileRowsPerFile` rows, oldest first. */
    async file(
      companyId: number,
      kind: CustomerKind,
      fileNumber: number,
      query: FileFilter,
    ): Promise<string> {
      const window = { limit: LIMITS.fileRowsPerFile, offset: (fileNumber - 1) * LIMITS.fileRowsPerFile };
      const filter = repositoryFilter(query);
      if (kind === 'guest') {
        const rows = await db.tenant(companyId, (sql) => guestFileRows(sql, companyId, filter, window));
        return csvText(
          FILE_COLUMNS.guest,
          rows.map((row) => [row.customer_name, row.last_four_digits, row.pos_id]),
        );
      }
      const rows = await db.tenant(companyId, (sql) => subscriberFileRows(sql, companyId, filter, window));
      return csvText(
        FILE_COLUMNS.subscriber,
        rows.map((row) => [row.email, row.pos_id ?? '']),
      );
    },
    /** Which of the POS ids already have a record of the kind in the company. */
    async existingRecords(companyId: number, kind: CustomerKind, posIds: string[]): Promise<ExistingRecords> {
      const found =
        kind === 'guest'
          ? await db.tenant(companyId, (sql) => existingGuestPosIds(sql, companyId, posIds))
          : await db.tenant(companyId, (sql) => existingSubscriberPosIds(sql, companyId, posIds));
      return { kind, pos_ids: found };
    },
  };
}

/** The big-data service. */
export type BigdataService = ReturnType<typeof bigdataService>;
