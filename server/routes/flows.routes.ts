import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParamSchema } from '../../src/schemas/common.js';
import {
  FlowActionCreateSchema,
  FlowActionUpdateSchema,
  FlowApiErrorSchema,
  FlowCreateSchema,
  FlowDelayCreateSchema,
  FlowDelayUpdateSchema,
  FlowItemPlacementSchema,
  FlowItemResultSchema,
  FlowListQuerySchema,
  FlowPageSchema,
  FlowSchema,
  FlowSequenceSchema,
  FlowTriggerCreateSchema,
  FlowTriggerUpdateSchema,
  FlowUpdateSchema,
} from '../../src/schemas/flows.js';
import { access } from '../http/access.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import type { FlowsService } from '../services/flows.service.js';
import { recordRoutes } from './support/record-routes.js';

const errors = {
  400: FlowApiErrorSchema,
  401: FlowApiErrorSchema,
  403: FlowApiErrorSchema,
  404: FlowApiErrorSchema,
  409: FlowApiErrorSchema,
};
const tags = ['Flows'];
const READ = access('Campaign Flows', 'analyst');
const WRITE = access('Campaign Flows', 'marketer');
const BASE = '/campaigns/flows/';

/** The item calls of each kind: their path, and the bodies that create and change one. */
const ITEM_KINDS = [
  { kind: 'trigger', path: 'triggers', create: FlowTriggerCreateSchema, update: FlowTriggerUpdateSchema },
  { kind: 'action', path: 'actions', create: FlowActionCreateSchema, update: FlowActionUpdateSchema },
  { kind: 'delay', path: 'delays', create: FlowDelayCreateSchema, update: FlowDelayUpdateSchema },
] as const;

/** Flows (spec §7 Flows calls; docs/flows.md): the list, a flow's draft graph and its items, publishing. */
export function flowsRoutes(flows: FlowsService): FastifyPluginAsyncZod {
  return async (app) => {
    recordRoutes(
      app,
      { base: BASE, tags, errors, read: READ, write: WRITE },
      {
        list: {
          summary: 'List flows, newest first, searched by name (q) and status, with their figures',
          query: FlowListQuerySchema,
          page: FlowPageSchema,
          rows: (companyId, query, window) =>
            flows.list(companyId, { q: query.q, status: query.status, ...window }),
        },
        create: {
          summary: 'Create a draft flow, optionally with a graph (a duplicate is a create with a copy)',
          body: FlowCreateSchema,
          record: FlowSchema,
          run: (scope, body) => flows.create(scope, body),
        },
        get: {
          summary: 'One flow with its draft graph',
          record: FlowSchema,
          run: (companyId, id) => flows.get(companyId, id),
        },
        update: {
          summary:
            'Save settings, the whole graph (409 flow_conflict on an old revision) and the status (live publishes: 400 flow_invalid with the problems)',
          body: FlowUpdateSchema,
          record: FlowSchema,
          run: (scope, id, body) => flows.update(scope, id, body),
        },
        remove: {
          summary: 'Delete a flow with its graph and versions',
          run: (scope, id) => flows.remove(scope, id),
        },
      },
    );

    app.get(
      `${BASE}sequence/:id/`,
      {
        config: READ,
        schema: {
          tags,
          summary: "A flow's draft graph with its revision (the id is the flow's)",
          params: IdParamSchema,
          response: { 200: FlowSequenceSchema, ...errors },
        },
      },
      async (request) => flows.sequence(companyOf(request), request.params.id),
    );

    for (const { kind, path, create, update } of ITEM_KINDS) {
      app.post(
        `${BASE}${path}/`,
        {
          config: WRITE,
          schema: {
            tags,
            summary: `Add a ${kind} to a flow's draft (409 flow_item_key_taken for a used key)`,
            body: create,
            response: { 201: FlowItemResultSchema, ...errors },
          },
        },
        async (request, reply) =>
          reply.status(201).send(await flows.createItem(writeScopeOf(request), kind, request.body)),
      );

      app.put(
        `${BASE}${path}/:id/`,
        {
          config: WRITE,
          schema: {
            tags,
            summary: `New settings for a ${kind} (the id is the item's; another kind is 404)`,
            params: IdParamSchema,
            body: update,
            response: { 200: FlowItemResultSchema, ...errors },
          },
        },
        async (request) =>
          flows.updateItemSettings(writeScopeOf(request), kind, request.params.id, request.body.settings),
      );
    }

    app.put(
      `${BASE}items/:id/`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: "Move an item or change what follows it (the id is the item's)",
          params: IdParamSchema,
          body: FlowItemPlacementSchema,
          response: { 200: FlowItemResultSchema, ...errors },
        },
      },
      async (request) => flows.placeItem(writeScopeOf(request), request.params.id, request.body),
    );

    app.delete(
      `${BASE}items/:id/`,
      {
        config: WRITE,
        schema: {
          tags,
          summary:
            'Delete an item; links that pointed at it become null. Answers the deleted item and the revision',
          params: IdParamSchema,
          response: { 200: FlowItemResultSchema, ...errors },
        },
      },
      async (request) => flows.deleteItem(writeScopeOf(request), request.params.id),
    );
  };
}
