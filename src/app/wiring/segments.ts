import { catchError, forkJoin, map, of, type Observable } from 'rxjs';
import { z } from 'zod';
import { fromPromise } from 'xstate';
import type { ListQuery, NoFilters, UpdateRequest } from '../../machines/kit/list-machine.js';
import {
  segmentBuilderMachine,
  type BuilderCatalogue,
  type BuilderChoice,
  type PreviewRequest,
} from '../../machines/segment-builder.machine.js';
import { segmentCloneMachine, type CloneRequest } from '../../machines/segment-clone.machine.js';
import { segmentExportMachine } from '../../machines/segment-export.machine.js';
import { segmentsMachine } from '../../machines/segments.machine.js';
import { LIMITS } from '../../schemas/constants.js';
import { displayLocationName, LocationGroupSchema } from '../../schemas/locations.js';
import { MenuCategoryFiguresSchema, MenuItemFiguresSchema } from '../../schemas/pos-analytics.js';
import { SegmentTypesAnswerSchema } from '../../schemas/segment-catalogue.js';
import {
  SegmentPageSchema,
  SegmentPreviewSchema,
  SegmentSchema,
  type Segment,
  type SegmentWrite,
} from '../../schemas/segment-records.js';
import { SubscriberListPageSchema } from '../../schemas/subscribers.js';
import { apiRequest } from '../../services/api-client.js';
import { downloadCsv } from '../../services/download.js';
import { storedLanguage } from '../../services/language.js';
import { answerOf, apiCall } from './answer.js';
import { everyLocation } from './locations.js';

const SEGMENTS = '/campaigns/segments/';

/** /segments' list machine with `/api/campaigns/segments/`. */
export const segmentsLogic = segmentsMachine.provide({
  actors: {
    loadList: apiCall((query: ListQuery<NoFilters>) =>
      apiRequest({ method: 'GET', path: SEGMENTS, query: { ...query }, schema: SegmentPageSchema }),
    ),
    createItem: apiCall((segment: SegmentWrite) =>
      apiRequest({ method: 'POST', path: SEGMENTS, body: segment, schema: SegmentSchema }),
    ),
    updateItem: apiCall(({ item, changes }: UpdateRequest<Segment, SegmentWrite>) =>
      apiRequest({ method: 'PUT', path: `${SEGMENTS}${item.id}/`, body: changes, schema: SegmentSchema }),
    ),
    deleteItem: apiCall((segment: Segment) =>
      apiRequest({ method: 'DELETE', path: `${SEGMENTS}${segment.id}/` }),
    ),
  },
});

/** A picker's choices, or none when the user may not read them (a feature the company lacks). */
function choices<T>(call: Observable<T>, pick: (answer: T) => BuilderChoice[]): Observable<BuilderChoice[]> {
  return call.pipe(
    map(pick),
    catchError(() => of([])),
  );
}

/** The rule types in the interface language, and every picker's choices, in one go. */
function catalogue(): Observable<BuilderCatalogue> {
  return forkJoin({
    types: apiRequest({
      method: 'GET',
      path: '/campaigns/segment-types/',
      query: { language: storedLanguage() },
      schema: SegmentTypesAnswerSchema,
    }).pipe(map((answer) => answer.results)),
    locations: choices(everyLocation(), (page) =>
      page.results.map((location) => ({ id: location.id, name: displayLocationName(location) })),
    ),
    groups: choices(
      apiRequest({ method: 'GET', path: '/customers/groups/', schema: z.array(LocationGroupSchema) }),
      (groups) => groups.map(({ id, name }) => ({ id, name })),
    ),
    items: choices(
      apiRequest({ method: 'GET', path: '/bigdata/menu-items/', schema: MenuItemFiguresSchema }),
      (answer) => answer.results.map((item) => ({ id: item.menu_item_id, name: item.name })),
    ),
    categories: choices(
      apiRequest({ method: 'GET', path: '/bigdata/menu-category/', schema: MenuCategoryFiguresSchema }),
      (answer) => answer.results.map((category) => ({ id: category.category_id, name: category.category })),
    ),
    lists: choices(
      apiRequest({
        method: 'GET',
        path: '/subscriptions/subscribers/list/',
        query: { page_size: LIMITS.maxPageSize },
        schema: SubscriberListPageSchema,
      }),
      (page) => page.results.map(({ id, name }) => ({ id, name })),
    ),
  }).pipe(map(({ types, ...rest }) => ({ types, choices: rest })));
}

/**
 * The rule builder with the catalogue and `POST …/segments/?preview=1`. Each count is its own actor: an edit
 * stops the one under way (the machine leaves `counting`), which aborts its request, so the last edit's
 * answer is the one shown.
 */
export const segmentBuilderLogic = segmentBuilderMachine.provide({
  actors: {
    loadCatalogue: fromPromise<BuilderCatalogue, void>(({ signal }) => answerOf(catalogue(), signal)),
    previewCount: apiCall(({ segment_groups, picker }: PreviewRequest) =>
      apiRequest({
        method: 'POST',
        path: SEGMENTS,
        query: { preview: 1, location_id: picker.location_id, location_group_id: picker.location_group_id },
        body: { segment_groups },
        schema: SegmentPreviewSchema,
      }),
    ),
  },
});

/** The clone dialog with `POST …/segments/{id}/clone/`. */
export const segmentCloneLogic = segmentCloneMachine.provide({
  actors: {
    cloneSegment: apiCall(({ segment, name }: CloneRequest) =>
      apiRequest({
        method: 'POST',
        path: `${SEGMENTS}${segment.id}/clone/`,
        body: { name },
        schema: SegmentSchema,
      }),
    ),
  },
});

/** A segment's members as a CSV file named after it (`GET …/segments/{id}/export/`). */
export const segmentExportLogic = segmentExportMachine.provide({
  actors: {
    exportSegment: fromPromise<unknown, Segment>(({ input, signal }) =>
      downloadCsv(`${SEGMENTS}${input.id}/export/`, `${fileNameOf(input.name)}.csv`, signal),
    ),
  },
});

/** A file name from a segment's name: letters, digits and dashes. */
function fileNameOf(name: string): string {
  return name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'segment';
}
