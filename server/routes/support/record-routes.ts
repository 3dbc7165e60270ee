import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParamSchema, type PagingQuery } from '../../../src/schemas/common.js';
import type { access } from '../../http/access.js';
import { pageWindow, toPage } from '../../http/paging.js';
import { companyOf, writeScopeOf } from '../../http/scope.js';
import type { WriteScope } from '../../repositories/scope.js';

/** The Fastify instance a zod-typed route plugin is given. */
export type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

/** What every route of one kind of record shares: its path, OpenAPI tags and error answers, and who may read and write. */
export interface RecordShell {
  /** The collection's path (`/campaigns/flows/`); one record is `${base}:id/`. */
  base: string;
  tags: string[];
  /** The error answers each route documents (status → schema). */
  errors: Record<number, z.ZodType>;
  read: ReturnType<typeof access>;
  write: ReturnType<typeof access>;
}

/** `GET base`: a page of records for the caller's company. */
export interface ListRoute<Query extends z.ZodType<PagingQuery>> {
  summary: string;
  query: Query;
  page: z.ZodType;
  /** The rows of the page `window` asks for, and how many there are in all. */
  rows: (
    companyId: number,
    query: z.output<Query>,
    window: { limit: number; offset: number },
  ) => Promise<{ count: number; results: unknown[] }>;
}

/** `POST base` (201) and `PUT base:id/` (200): a body checked by its schema, the record answered. */
export interface WriteRoute<Body extends z.ZodType, Run> {
  summary: string;
  body: Body;
  record: z.ZodType;
  run: Run;
}

/** `GET base:id/`: one record of the caller's company (the service answers 404 for another's). */
export interface GetRoute {
  summary: string;
  record: z.ZodType;
  run: (companyId: number, id: number) => Promise<unknown>;
}

/** `DELETE base:id/` (204). */
export interface RemoveRoute {
  summary: string;
  run: (scope: WriteScope, id: number) => Promise<void>;
}

/**
 * The five calls every record collection has, registered in this order (list, create, one, update, delete)
 * with the shell's access rules, tags and error answers: the shape flows, campaigns and email templates
 * repeated. The route files keep their other calls and call this where their list used to start.
 */
export function recordRoutes<
  Query extends z.ZodType<PagingQuery>,
  Create extends z.ZodType,
  Update extends z.ZodType,
>(
  app: ZodApp,
  shell: RecordShell,
  routes: {
    list: ListRoute<Query>;
    /** Registered right after the list (templates' gallery sits there). */
    afterList?: () => void;
    create: WriteRoute<Create, (scope: WriteScope, body: z.output<Create>) => Promise<unknown>>;
    get: GetRoute;
    update: WriteRoute<Update, (scope: WriteScope, id: number, body: z.output<Update>) => Promise<unknown>>;
    remove: RemoveRoute;
  },
): void {
  const { base, tags, errors, read, write } = shell;
  const one = `${base}:id/`;
  const { list, create, get, update, remove } = routes;
  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        summary: list.summary,
        querystring: list.query,
        response: { 200: list.page, ...errors },
      },
    },
    async (request) => {
      // The provider cannot follow a generic schema: the hook has already parsed the query with it.
      const query = request.query as z.output<Query>;
      const { count, results } = await list.rows(companyOf(request), query, pageWindow(query));
      return toPage(request, query, count, results);
    },
  );
  routes.afterList?.();
  app.post(
    base,
    {
      config: write,
      schema: {
        tags,
        summary: create.summary,
        body: create.body,
        response: { 201: create.record, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await create.run(writeScopeOf(request), request.body as z.output<Create>)),
  );
  app.get(
    one,
    {
      config: read,
      schema: { tags, summary: get.summary, params: IdParamSchema, response: { 200: get.record, ...errors } },
    },
    async (request) => get.run(companyOf(request), request.params.id),
  );
  app.put(
    one,
    {
      config: write,
      schema: {
        tags,
        summary: update.summary,
        params: IdParamSchema,
        body: update.body,
        response: { 200: update.record, ...errors },
      },
    },
    async (request) => update.run(writeScopeOf(request), request.params.id, request.body as z.output<Update>),
  );
  app.delete(
    one,
    {
      config: write,
      schema: {
        tags,
        summary: remove.summary,
        params: IdParamSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await remove.run(writeScopeOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
