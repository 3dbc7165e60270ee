import type { FastifyRequest } from 'fastify';
import type { Page, PagingQuery } from '../../src/schemas/common.js';

/** LIMIT/OFFSET for a page request. */
export function pageWindow(query: PagingQuery): { limit: number; offset: number } {
  return { limit: query.page_size, offset: (query.page - 1) * query.page_size };
}

/** The URL of another page of the same list, keeping every other query parameter. */
function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, 'http://local');
  url.searchParams.set('page', String(page));
  return `${url.pathname}${url.search}`;
}

/** Wraps rows in the `{count, next, previous, results}` list shape. */
export function toPage<Item>(
  request: FastifyRequest,
  query: PagingQuery,
  count: number,
  results: Item[],
): Page<Item> {
  const lastPage = Math.max(1, Math.ceil(count / query.page_size));
  return {
    count,
    next: query.page < lastPage ? pageUrl(request, query.page + 1) : null,
    previous: query.page > 1 ? pageUrl(request, Math.min(query.page - 1, lastPage)) : null,
    results,
  };
}
