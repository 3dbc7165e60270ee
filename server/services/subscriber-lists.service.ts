import type { Readable } from 'node:stream';
import type { SubscriberList } from '../../src/schemas/subscribers.js';
import type { Database } from '../db/database.js';
import { fieldFailure, invalid, notFound } from '../http/errors.js';
import type { WriteScope } from '../repositories/scope.js';
import {
  addListMembers,
  createSubscriberList,
  deleteSubscriberList,
  getSubscriberList,
  listListMembers,
  listMembersAfter,
  listSubscriberListsPage,
  removeListMembers,
  renameSubscriberList,
  UnknownSubscribersError,
  type SubscriberListRow,
} from '../repositories/subscriber-lists.repository.js';
import { keysetCsv } from './csv-export.service.js';
import {
  presentSubscriber,
  SUBSCRIBER_EXPORT_COLUMNS,
  subscriberExportCells,
} from './subscribers.service.js';

/** A list row as the API shows it. */
export function presentSubscriberList(row: SubscriberListRow): SubscriberList {
  return {
    id: row.id,
    name: row.name,
    member_count: row.member_count,
    created: row.created.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Turns ids that are not the company's subscribers into a 400 naming the field. */
function rejectUnknownSubscribers(error: unknown): never {
  if (error instanceof UnknownSubscribersError) {
    throw invalid({
      subscriber_ids: fieldFailure('not_valid', `Unknown subscriber ids: ${error.ids.join(', ')}`),
    });
  }
  throw error;
}

/** Subscriber lists: list, create, rename, delete, members and their export. */
export function subscriberListsService(db: Database) {
  return {
    async list(companyId: number, window: { limit: number; offset: number }) {
      const { count, rows } = await db.tenant(companyId, (sql) =>
        listSubscriberListsPage(sql, companyId, window),
      );
      return { count, results: rows.map(presentSubscriberList) };
    },
    async create(scope: WriteScope, name: string): Promise<SubscriberList> {
      return presentSubscriberList(
        await db.tenant(scope.companyId, (sql) => createSubscriberList(sql, scope, name)),
      );
    },
    async rename(scope: WriteScope, id: number, name: string): Promise<SubscriberList> {
      const row = await db.tenant(scope.companyId, (sql) => renameSubscriberList(sql, scope, id, name));
      if (!row) throw notFound('Subscriber list');
      return presentSubscriberList(row);
    },
    async remove(scope: WriteScope, id: number): Promise<void> {
      if (!(await db.tenant(scope.companyId, (sql) => deleteSubscriberList(sql, scope, id))))
        throw notFound('Subscriber list');
    },
    async members(companyId: number, id: number, window: { limit: number; offset: number }) {
      const page = await db.tenant(companyId, (sql) => listListMembers(sql, companyId, id, window));
      if (!page) throw notFound('Subscriber list');
      return { count: page.count, results: page.rows.map(presentSubscriber) };
    },
    /** Adds subscribers (all or none) and answers the list with its new member count. */
    async addMembers(scope: WriteScope, id: number, subscriberIds: number[]): Promise<SubscriberList> {
      const row = await db
        .tenant(scope.companyId, async (sql) => {
          if ((await addListMembers(sql, scope, id, subscriberIds)) === null) return null;
          // Read back in the same transaction, so the count is the one this change left.
          return getSubscriberList(sql, scope.companyId, id);
        })
        .catch(rejectUnknownSubscribers);
      if (!row) throw notFound('Subscriber list');
      return presentSubscriberList(row);
    },
    /** Takes subscribers off the list and answers the list with its new member count. */
    async removeMembers(scope: WriteScope, id: number, subscriberIds: number[]): Promise<SubscriberList> {
      const row = await db.tenant(scope.companyId, async (sql) => {
        if ((await removeListMembers(sql, scope, id, subscriberIds)) === null) return null;
        return getSubscriberList(sql, scope.companyId, id);
      });
      if (!row) throw notFound('Subscriber list');
      return presentSubscriberList(row);
    },
    /** The list's members as CSV, streamed; 404 before anything is sent when the list is not the company's. */
    async exportCsv(companyId: number, id: number): Promise<Readable> {
      if (!(await db.tenant(companyId, (sql) => getSubscriberList(sql, companyId, id))))
        throw notFound('Subscriber list');
      return keysetCsv(
        SUBSCRIBER_EXPORT_COLUMNS,
        (afterId, limit) =>
          db.tenant(companyId, (sql) => listMembersAfter(sql, companyId, id, afterId, limit)),
        subscriberExportCells,
      );
    },
  };
}

/** The subscriber-lists service. */
export type SubscriberListsService = ReturnType<typeof subscriberListsService>;
