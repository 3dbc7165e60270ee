import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { LocationGroupSchema, LocationPageSchema, LocationSchema } from '../../src/schemas/locations.js';
import {
  DateRangeQuerySchema,
  GroupIdParamSchema,
  LocationCreateSchema,
  LocationGroupCreateSchema,
  LocationGroupPatchSchema,
  LocationGroupWithLocationsSchema,
  LocationListQuerySchema,
  LocationPatchSchema,
  LocationRoiQuerySchema,
  LocationRoiSchema,
  LocationUpdateSchema,
} from '../../src/schemas/location-writes.js';
import { access } from '../http/access.js';
import { pageWindow, toPage } from '../http/paging.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import { optionalPeriod, type LocationsService } from '../services/locations.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const tags = ['Locations'];
// Every screen's location picker reads locations and groups, so reading them needs no feature.
const READ_ANY = access(null, 'analyst');
const READ_LOCATIONS = access('Locations', 'analyst');
const MANAGE = access('Locations', 'admin');

/** The Locations calls of spec section 7: locations, their ROI, and location groups. */
export function locationsRoutes(service: LocationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/customers/locations/',
      {
        config: READ_ANY,
        schema: {
          tags,
          summary: 'List locations',
          querystring: LocationListQuerySchema,
          response: { 200: LocationPageSchema, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { count, results } = await service.list(companyOf(request), {
          q: query.q,
          groupIds: query.location_group_id,
          ...pageWindow(query),
        });
        return toPage(request, query, count, results);
      },
    );

    app.get(
      '/customers/locations/roi/',
      {
        config: READ_LOCATIONS,
        schema: {
          tags,
          summary: 'Revenue, checks and guests per location in a period',
          querystring: LocationRoiQuerySchema,
          response: { 200: LocationRoiSchema, ...errors },
        },
      },
      async (request) => service.roi(companyOf(request), request.query),
    );

    app.post(
      '/customers/locations/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Create a location',
          body: LocationCreateSchema,
          response: { 201: LocationSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.create(writeScopeOf(request), request.body)),
    );

    app.get(
      '/customers/locations/:id/',
      {
        config: READ_ANY,
        schema: {
          tags,
          summary: 'Get a location',
          params: IdParamSchema,
          response: { 200: LocationSchema, ...errors },
        },
      },
      async (request) => service.get(companyOf(request), request.params.id),
    );

    app.put(
      '/customers/locations/:id/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Replace a location',
          params: IdParamSchema,
          body: LocationUpdateSchema,
          response: { 200: LocationSchema, ...errors },
        },
      },
      async (request) => service.update(writeScopeOf(request), request.params.id, request.body),
    );

    app.patch(
      '/customers/locations/:id/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Change some fields of a location',
          params: IdParamSchema,
          body: LocationPatchSchema,
          response: { 200: LocationSchema, ...errors },
        },
      },
      async (request) => service.update(writeScopeOf(request), request.params.id, request.body),
    );

    app.delete(
      '/customers/locations/:id/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Delete a location',
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
      '/customers/groups/',
      {
        config: READ_ANY,
        schema: {
          tags,
          summary: 'List location groups, with revenue and checks when a date range is given',
          querystring: DateRangeQuerySchema,
          response: { 200: z.array(LocationGroupSchema), ...errors },
        },
      },
      async (request) =>
        service.listGroups(
          companyOf(request),
          optionalPeriod(request.query.from_date, request.query.to_date),
        ),
    );

    app.post(
      '/customers/groups/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Create a location group',
          body: LocationGroupCreateSchema,
          response: { 201: LocationGroupSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.createGroup(writeScopeOf(request), request.body)),
    );

    app.get(
      '/customers/groups/:id/locations/',
      {
        config: READ_ANY,
        schema: {
          tags,
          summary: "A group's locations (group 0 has none)",
          params: GroupIdParamSchema,
          response: { 200: z.array(LocationSchema), ...errors },
        },
      },
      async (request) => service.groupLocations(companyOf(request), request.params.id),
    );

    app.put(
      '/customers/groups/:id/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Replace a location group',
          params: IdParamSchema,
          body: LocationGroupCreateSchema,
          response: { 200: LocationGroupSchema, ...errors },
        },
      },
      async (request) => service.updateGroup(writeScopeOf(request), request.params.id, request.body),
    );

    app.patch(
      '/customers/groups/:id/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Change some fields of a location group',
          params: IdParamSchema,
          body: LocationGroupPatchSchema,
          response: { 200: LocationGroupSchema, ...errors },
        },
      },
      async (request) => service.updateGroup(writeScopeOf(request), request.params.id, request.body),
    );

    app.delete(
      '/customers/groups/:id/',
      {
        config: MANAGE,
        schema: {
          tags,
          summary: 'Delete a location group (its locations stay)',
          params: IdParamSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.removeGroup(writeScopeOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/customers/groups-with-locations/',
      {
        config: READ_ANY,
        schema: {
          tags,
          summary: 'Every group with its locations',
          response: { 200: z.array(LocationGroupWithLocationsSchema), ...errors },
        },
      },
      async (request) => service.groupsWithLocations(companyOf(request)),
    );
  };
}
