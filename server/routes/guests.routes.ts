import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { GuestListQuerySchema, ProfileKeyQuerySchema } from '../../src/schemas/customers.js';
import { GuestPageSchema, GuestProfileSchema } from '../../src/schemas/guests.js';
import { access } from '../http/access.js';
import { decodeCursor, keysetWindow, toCountedPage } from '../http/cursor-paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { GuestsService } from '../services/guests.service.js';
import { sendCsv } from './csv-download.js';
import { profileExtrasRoutes } from './profile-extras.routes.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Guests'];
// Guest pages belong to the Subscribers feature (spec section 6 has no separate guest feature).
const READ = access('Subscribers', 'analyst');
const DELETE = access('Subscribers', 'admin');

/** The Guests calls of spec section 7 (the big-data calls and the CSV upload live elsewhere). */
export function guestsRoutes(service: GuestsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/pos/guests/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'List guests, searched and filtered by location or group',
          querystring: GuestListQuerySchema,
          response: { 200: GuestPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        // Newest first: the key is the id.
        const cursor = decodeCursor(query.cursor, '-id');
        const read = await service.list(companyOf(request), query, keysetWindow(query, cursor, 1));
        return toCountedPage(request, query, '-id', cursor, read);
      },
    );

    app.get(
      '/pos/guests/export/',
      {
        config: READ,
        schema: {
          tags,
          summary: 'Every guest matching the list filters, as CSV',
          querystring: GuestListQuerySchema.omit({ page: true, page_size: true, cursor: true, count: true }),
          response: errors,
        },
      },
      async (request, reply) =>
        sendCsv(reply, 'guests.csv', service.exportCsv(companyOf(request), request.query)),
    );

    app.get(
      '/pos/guests/:id/',
      {
        config: READ,
        schema: {
          tags,
          summary: "A guest's profile: details, visits, metrics and CLV, and subscription",
          params: IdParamSchema,
          querystring: ProfileKeyQuerySchema,
          response: { 200: GuestProfileSchema, ...errors },
        },
      },
      async (request) => service.profile(companyOf(request), request.params.id, request.query),
    );

    app.delete(
      '/pos/guests/:id/',
      {
        config: DELETE,
        schema: {
          tags,
          summary: 'Delete a guest and their personal data everywhere; their checks stay, unlinked',
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

    await app.register(profileExtrasRoutes(service, { base: '/pos/guests', tag: 'Guests', noun: 'guest' }));
  };
}
