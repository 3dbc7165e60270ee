import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema, PagingQuerySchema } from '../../src/schemas/common.js';
import {
  ListMembersChangeSchema,
  SubscriberListPageSchema,
  SubscriberListSchema,
  SubscriberListWriteSchema,
  SubscriberPageSchema,
} from '../../src/schemas/subscribers.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { SubscriberListsService } from '../services/subscriber-lists.service.js';
import { sendCsv } from './csv-download.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Subscriber lists'];
const READ = access('Subscribers', 'analyst');
const WRITE = access('Subscribers', 'marketer');
const DELETE = access('Subscribers', 'admin');

/** Subscriber lists (spec section 7), their members and the members' export. */
export function subscriberListsRoutes(service: SubscriberListsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/subscriptions/subscribers/list/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'List subscriber lists by name, with member counts',
          querystring: PagingQuerySchema,
          response: { 200: SubscriberListPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await service.list(companyOf(request), pageWindow(query));
        return toPage(request, query, count, results);
      },
    );

    app.post(
      '/subscriptions/subscribers/list/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Create an empty subscriber list',
          body: SubscriberListWriteSchema,
          response: { 201: SubscriberListSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(writeScopeOf(request), request.body.name)),
    );

    app.put(
      '/subscriptions/subscribers/list/:id/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Rename a subscriber list',
          params: IdParamSchema,
          body: SubscriberListWriteSchema,
          response: { 200: SubscriberListSchema, ...errors },
        },
      },
      async (request) => service.rename(writeScopeOf(request), request.params.id, request.body.name),
    );

    app.delete(
      '/subscriptions/subscribers/list/:id/',
      {
        config: DELETE,
        schema: {
          tags,
          summary: 'Delete a subscriber list (its subscribers stay)',
          params: IdParamSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.remove(writeScopeOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/subscriptions/subscribers/list/:id/members/',
      {
        config: READ,
        schema: {
          tags,
          summary: "A list's subscribers, newest first",
          params: IdParamSchema,
          querystring: PagingQuerySchema,
          response: { 200: SubscriberPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await service.members(
          companyOf(request),
          request.params.id,
          pageWindow(query),
        );
        return toPage(request, query, count, results);
      },
    );

    app.post(
      '/subscriptions/subscribers/list/:id/members/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Put subscribers on a list (all or none); answers the list',
          params: IdParamSchema,
          body: ListMembersChangeSchema,
          response: { 200: SubscriberListSchema, ...errors },
        },
      },
      async (request) =>
        service.addMembers(writeScopeOf(request), request.params.id, request.body.subscriber_ids),
    );

    app.post(
      '/subscriptions/subscribers/list/:id/members/remove/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Take subscribers off a list; answers the list',
          params: IdParamSchema,
          body: ListMembersChangeSchema,
          response: { 200: SubscriberListSchema, ...errors },
        },
      },
      async (request) =>
        service.removeMembers(writeScopeOf(request), request.params.id, request.body.subscriber_ids),
    );

    app.get(
      '/subscriptions/subscribers/list/:id/export/',
      {
        config: READ,
        schema: {
          tags,
          summary: "A list's subscribers as CSV",
          params: IdParamSchema,
          response: errors,
        },
      },
      async (request, reply) =>
        sendCsv(reply, 'subscriber-list.csv', await service.exportCsv(companyOf(request), request.params.id)),
    );
  };
}
