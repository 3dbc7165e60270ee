import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import {
  CustomerListQuerySchema,
  SubscriberListQuerySchema,
  ProfileKeyQuerySchema,
} from '../../src/schemas/customers.js';
import {
  SubscriberCreateSchema,
  SubscriberPageSchema,
  SubscriberProfileSchema,
  SubscriberProfileUpdateSchema,
  SubscriberSchema,
} from '../../src/schemas/subscribers.js';
import { access } from '../http/access.js';
import { decodeCursor, keysetWindow, toCountedPage } from '../http/cursor-paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import { sendCsv } from './csv-download.js';
import { profileExtrasRoutes } from './profile-extras.routes.js';
import type { SubscribersService } from '../services/subscribers.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Subscribers'];
const READ = access('Subscribers', 'analyst');
const WRITE = access('Subscribers', 'marketer');
const DELETE = access('Subscribers', 'admin');

/** The Subscribers calls of spec section 7 (the CSV upload lives with the imports). */
export function subscribersRoutes(service: SubscribersService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/subscriptions/subscribers/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'List subscribers, searched and filtered by location or group',
          querystring: SubscriberListQuerySchema,
          response: { 200: SubscriberPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const cursor = decodeCursor(query.cursor, query.ordering);
        const read = await service.list(companyOf(request), query, keysetWindow(query, cursor, 1));
        return toCountedPage(request, query, query.ordering, cursor, read);
      },
    );

    app.post(
      '/subscriptions/subscribers/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Add a subscriber',
          body: SubscriberCreateSchema,
          response: { 201: SubscriberSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(writeScopeOf(request), request.body)),
    );

    app.get(
      '/subscriptions/subscribers/export/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'Every subscriber matching the list filters, as CSV',
          querystring: CustomerListQuerySchema.omit({ page: true, page_size: true, cursor: true }),
          response: errors,
        },
      },
      async (request, reply) =>
        sendCsv(reply, 'subscribers.csv', service.exportCsv(companyOf(request), request.query)),
    );

    app.get(
      '/subscriptions/subscribers/:id/',
      {
        config: READ,
        schema: {
          tags,
          summary: "A subscriber's profile: details, visits of the linked guest and lists",
          params: IdParamSchema,
          querystring: ProfileKeyQuerySchema,
          response: { 200: SubscriberProfileSchema, ...errors },
        },
      },
      async (request) => service.profile(companyOf(request), request.params.id, request.query),
    );

    app.put(
      '/subscriptions/subscribers/:id/profile/',
      {
        config: WRITE,
        schema: {
          tags,
          summary: "Replace a subscriber's profile fields",
          params: IdParamSchema,
          body: SubscriberProfileUpdateSchema,
          response: { 200: SubscriberSchema, ...errors },
        },
      },
      async (request) => service.updateProfile(writeScopeOf(request), request.params.id, request.body),
    );

    app.delete(
      '/subscriptions/subscribers/:id/',
      {
        config: DELETE,
        schema: {
          tags,
          summary: 'Delete a subscriber and their personal data everywhere',
          params: IdParamSchema,
          querystring: ProfileKeyQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.remove(writeScopeOf(request), request.params.id, request.query);
        return reply.status(204).send(null);
      },
    );

    await app.register(
      profileExtrasRoutes(service, {
        base: '/subscriptions/subscribers',
        tag: 'Subscribers',
        noun: 'subscriber',
      }),
    );
  };
}
