import type { FastifyRequest } from 'fastify';
import type { PagingQuery } from '../../src/schemas/common.js';
import type { CountedPage } from '../../src/schemas/customers.js';
import { fieldFailure, invalid } from './errors.js';

// Keyset paging beside page numbers: a list's `next` and `previous` links carry an opaque `cursor` (the id of
// the row the page starts after, or ends before, and the ordering it was made for), so following them reads
// the page straight from the ordering's index however deep it is. The cursor holds no personal data (no
// email, name or time): links reach proxy and load-balancer logs, and the repository reads the boundary row's
// key itself. `page` still numbers the pages, and a `page` without a cursor is read by offset as before (spec
// §7's paging shape keeps working for any caller).

/** Where a page starts: after (or before) the row with id `id`, in `ordering`. */
export interface PageCursor {
  ordering: string;
  direction: 'after' | 'before';
  id: number;
}

/** The window a list page is read with: an offset, or the id of the row to start after or end before. */
export interface KeysetWindow {
  limit: number;
  offset: number;
  afterId?: number | undefined;
  beforeId?: number | undefined;
}

/** The cursor as the links carry it: base64url of `[ordering, "a" | "b", id]`. */
export function encodeCursor(cursor: PageCursor): string {
  const direction = cursor.direction === 'after' ? 'a' : 'b';
  return Buffer.from(JSON.stringify([cursor.ordering, direction, cursor.id])).toString('base64url');
}

const badCursor = () =>
  invalid({ cursor: fieldFailure('not_valid', 'cursor is not valid: follow a next or previous link') });

/**
 * The 400 for a cursor whose row is no longer in the list's company (deleted since the link was made, or
 * never the caller's): the list changed, so the caller starts again from the first page.
 */
export function staleCursor() {
  return invalid({
    cursor: fieldFailure('not_valid', 'the list changed since this link was made: start again from page 1'),
  });
}

/**
 * The cursor of a request, or null for none; 400 when it is not one of ours for this ordering (another
 * ordering's, or not a row id).
 */
export function decodeCursor(raw: string | undefined, ordering: string): PageCursor | null {
  if (raw === undefined || raw === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw badCursor();
  const [cursorOrdering, direction, id] = parsed as unknown[];
  const validId = typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
  if (cursorOrdering !== ordering || (direction !== 'a' && direction !== 'b') || !validId) throw badCursor();
  return { ordering, direction: direction === 'a' ? 'after' : 'before', id };
}

/** The window of a request: by cursor when it has one (offset 0), by page number otherwise. */
export function keysetWindow(query: PagingQuery, cursor: PageCursor | null, extra = 0): KeysetWindow {
  const limit = query.page_size + extra;
  if (!cursor) return { limit, offset: (query.page - 1) * query.page_size };
  return cursor.direction === 'after'
    ? { limit, offset: 0, afterId: cursor.id }
    : { limit, offset: 0, beforeId: cursor.id };
}

/** A page read with one row more than it shows, so whether another page follows is known without a count. */
export interface KeysetRead<Item> {
  /** Up to page_size + 1 rows in the list's order. */
  items: Item[];
  /** The row id of each item (what the page's cursors carry). */
  ids: number[];
  count: number;
  countEstimated: boolean;
}

function linkTo(request: FastifyRequest, page: number, cursor: string | null): string {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('page', String(page));
  if (cursor) url.searchParams.set('cursor', cursor);
  else url.searchParams.delete('cursor');
  return `${url.pathname}${url.search}`;
}

/**
 * The `{count, count_estimated, next, previous, results}` answer of a keyset-read page. `next` carries a
 * cursor after the last row when another row follows; `previous` one before the first row (none to page 1,
 * which is cheapest by offset). A page past the end links back to the last page by number.
 */
export function toCountedPage<Item>(
  request: FastifyRequest,
  query: PagingQuery,
  ordering: string,
  cursor: PageCursor | null,
  read: KeysetRead<Item>,
): CountedPage<Item> {
  const backwards = cursor?.direction === 'before';
  // Read backwards, the extra row is the one before the page; the page it came from follows it.
  const extra = read.items.length > query.page_size;
  const items = extra ? (backwards ? read.items.slice(1) : read.items.slice(0, -1)) : read.items;
  const ids = extra ? (backwards ? read.ids.slice(1) : read.ids.slice(0, -1)) : read.ids;
  const hasNext = backwards ? items.length > 0 : extra;
  const at = (id: number | undefined, direction: PageCursor['direction']) =>
    id === undefined ? null : encodeCursor({ ordering, direction, id });
  const lastPage = Math.max(1, Math.ceil(read.count / query.page_size));
  let previous: string | null = null;
  if (query.page > 1) {
    previous =
      query.page === 2 || items.length === 0
        ? linkTo(request, Math.min(query.page - 1, lastPage), null)
        : linkTo(request, query.page - 1, at(ids[0], 'before'));
  }
  return {
    count: read.count,
    count_estimated: read.countEstimated,
    next: hasNext ? linkTo(request, query.page + 1, at(ids.at(-1), 'after')) : null,
    previous,
    results: items,
  };
}
