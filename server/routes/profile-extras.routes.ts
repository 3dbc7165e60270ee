import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { urlWholeNumber } from '../../src/schemas/numbers.js';
import {
  NoteCreateSchema,
  NoteSchema,
  ProfileCardCreateSchema,
  ProfileCardSchema,
} from '../../src/schemas/customers.js';
import { access } from '../http/access.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { ProfileExtrasService } from '../services/customer-profiles.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };

/** `…/{id}/cards/{cardId}/`. */
export const CardParamSchema = IdParamSchema.extend({
  cardId: urlWholeNumber('cardId must be a positive integer'),
});

/** Where the routes hang and how their documentation names the person. */
export interface ProfileExtrasOptions {
  /** The profile's path without the id, e.g. `/pos/guests`. */
  base: string;
  /** OpenAPI tag. */
  tag: string;
  /** 'guest' or 'subscriber', for the summaries. */
  noun: string;
}

/** The cards and notes of a guest or a subscriber: the same five calls under each kind's path. */
export function profileExtrasRoutes(
  service: ProfileExtrasService,
  { base, tag, noun }: ProfileExtrasOptions,
): FastifyPluginAsyncZod {
  const tags = [tag];
  const READ = access('Subscribers', 'analyst');
  const WRITE = access('Subscribers', 'marketer');
  const DELETE = access('Subscribers', 'admin');
  return async (app) => {
    app.get(
      `${base}/:id/cards/`,
      {
        config: READ,
        schema: {
          tags,
          summary: `A ${noun}'s linked cards`,
          params: IdParamSchema,
          response: { 200: z.array(ProfileCardSchema), ...errors },
        },
      },
      async (request) => service.listCards(companyOf(request), request.params.id),
    );

    app.post(
      `${base}/:id/cards/`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: `Link a card to a ${noun}`,
          params: IdParamSchema,
          body: ProfileCardCreateSchema,
          response: { 201: ProfileCardSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.addCard(writeScopeOf(request), request.params.id, request.body)),
    );

    app.delete(
      `${base}/:id/cards/:cardId/`,
      {
        config: DELETE,
        schema: {
          tags,
          summary: `Unlink one of a ${noun}'s cards`,
          params: CardParamSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.removeCard(writeScopeOf(request), request.params.id, request.params.cardId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      `${base}/:id/notes/`,
      {
        config: READ,
        schema: {
          tags,
          summary: `Notes about a ${noun}, newest first`,
          params: IdParamSchema,
          response: { 200: z.array(NoteSchema), ...errors },
        },
      },
      async (request) => service.listNotes(companyOf(request), request.params.id),
    );

    app.post(
      `${base}/:id/notes/`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: `Write a note about a ${noun}`,
          params: IdParamSchema,
          body: NoteCreateSchema,
          response: { 201: NoteSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.addNote(writeScopeOf(request), request.params.id, request.body)),
    );
  };
}
