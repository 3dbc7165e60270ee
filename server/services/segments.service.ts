import type { Readable } from 'node:stream';
import type { Language } from '../../src/schemas/constants.js';
import type { Guest } from '../../src/schemas/guests.js';
import type { SegmentTypesAnswer } from '../../src/schemas/segment-catalogue.js';
import type {
  Segment,
  SegmentDashboard,
  SegmentPreview,
  SegmentWrite,
} from '../../src/schemas/segment-records.js';
import type { Database, Sql } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { countGuests, guestListRowsByIds, type GuestListRow } from '../repositories/guests.repository.js';
import {
  getSegmentCache,
  listSegmentCaches,
  type SegmentCacheRow,
} from '../repositories/segment-cache.repository.js';
import { countSegment, segmentMemberIds } from '../repositories/segment-rules.repository.js';
import {
  cloneSegment,
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  updateSegment,
  type SegmentRow,
} from '../repositories/segments.repository.js';
import type { WriteScope } from '../repositories/scope.js';
import { segmentTypeCatalogue } from '../segments/segment-types.js';
import { keysetCsv } from './csv-export.service.js';
import { GUEST_EXPORT_COLUMNS, guestExportCells, presentGuest } from './guests.service.js';
import { presentSegmentCache } from './segment-cache-view.js';
import { refreshCache, SEGMENT_PAGE } from './segment-figures.js';
import { scopeOf } from './pos-analytics.service.js';
import { percent, refusedAsInvalid, ruleSetOf, segmentLocations } from './segment-input.js';

/** The location picker of a call: repeated `location_id` and `location_group_id`. */
export interface LocationPicker {
  location_id: number[];
  location_group_id: number[];
}

/** Member ids the export reads per run of the rule set: 20 runs for a million members, 400 KB of ids held. */
const EXPORT_CHUNK = 50_000;

/** A stored segment as the API shows it, with its cached figures or the zeroed defaults. */
function presentSegment(row: SegmentRow, cache: SegmentCacheRow | null): Segment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    segment_type: row.segment_type,
    location_ids: row.location_ids.map(Number),
    group_ids: row.group_ids.map(Number),
    segment_groups: row.segment_groups.map((group) => ({
      id: Number(group.id),
      segment_rules: group.segment_rules as Record<string, unknown>[],
    })),
    segmentcache: presentSegmentCache(cache, row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A segment just saved, its figures worked out and cached in the save's transaction, as the API shows it. */
async function withFigures(sql: Sql, scope: WriteScope, row: SegmentRow): Promise<Segment> {
  await refreshCache(sql, scope, row);
  return presentSegment(row, await getSegmentCache(sql, scope.companyId, row.id));
}

/** The segment calls of spec section 7 (docs/segments.md). */
export function segmentsService(db: Database) {
  return {
    /** Every rule type with its operators and options, labelled in `language`. */
    types(language: Language): SegmentTypesAnswer {
      return segmentTypeCatalogue(language);
    },

    /** A page of the company's segments by name, each with its cached figures. */
    async list(companyId: number, filter: { q?: string | undefined; limit: number; offset: number }) {
      return db.tenant(companyId, async (sql) => {
        const page = await listSegments(sql, companyId, filter);
        const caches = await listSegmentCaches(
          sql,
          companyId,
          page.rows.map((row) => row.id),
        );
        const cacheOf = new Map(caches.map((cache) => [Number(cache.segment_id), cache]));
        return {
          count: page.count,
          results: page.rows.map((row) => presentSegment(row, cacheOf.get(Number(row.id)) ?? null)),
        };
      });
    },

    /** Every segment's cached figures side by side, by name (all pages of the list). */
    async dashboard(companyId: number): Promise<SegmentDashboard> {
      const results: SegmentDashboard['results'] = [];
      for (let offset = 0; ; offset += SEGMENT_PAGE) {
        const page = await this.list(companyId, { limit: SEGMENT_PAGE, offset });
        results.push(...page.results.map(({ id, name, segmentcache }) => ({ id, name, segmentcache })));
        if (page.results.length < SEGMENT_PAGE) return { results };
      }
    },

    /** One segment; 404 unless it is the company's. */
    async get(companyId: number, id: number): Promise<Segment> {
      const found = await db.tenant(companyId, async (sql) => {
        const row = await getSegment(sql, companyId, id);
        return row ? presentSegment(row, await getSegmentCache(sql, companyId, id)) : null;
      });
      if (!found) throw notFound('Segment');
      return found;
    },

    /** Saves a new segment and its figures together; bad rules or ids of another company save nothing. */
    async create(scope: WriteScope, body: SegmentWrite): Promise<Segment> {
      ruleSetOf(body.segment_groups);
      return db
        .tenant(scope.companyId, async (sql) => {
          const row = await createSegment(sql, scope, {
            name: body.name,
            description: body.description ?? '',
            location_ids: body.location_ids ?? [],
            group_ids: body.group_ids ?? [],
            segment_groups: (body.segment_groups ?? []).map((group) => ({
              id: null,
              segment_rules: (group as { segment_rules?: unknown[] }).segment_rules ?? [],
            })),
          });
          return withFigures(sql, scope, row);
        })
        .catch(refusedAsInvalid);
    },

    /** Replaces a segment's fields and groups and works its figures out again; 404 unless the company's. */
    async update(scope: WriteScope, id: number, body: SegmentWrite): Promise<Segment> {
      ruleSetOf(body.segment_groups);
      const saved = await db
        .tenant(scope.companyId, async (sql) => {
          const row = await updateSegment(sql, scope, id, {
            name: body.name,
            description: body.description ?? '',
            location_ids: body.location_ids ?? [],
            group_ids: body.group_ids ?? [],
            segment_groups: (body.segment_groups ?? []).map((group) => {
              const sent = group as { id?: number | null; segment_rules?: unknown[] };
              return { id: sent.id ?? null, segment_rules: sent.segment_rules ?? [] };
            }),
          });
          if (!row) return null;
          return withFigures(sql, scope, row);
        })
        .catch(refusedAsInvalid);
      if (!saved) throw notFound('Segment');
      return saved;
    },

    /** A copy of a segment under a new name, with its figures; 404 unless the company's. */
    async clone(scope: WriteScope, id: number, name: string | undefined): Promise<Segment> {
      const copy = await db
        .tenant(scope.companyId, async (sql) => {
          const row = await cloneSegment(sql, scope, id, name);
          if (!row) return null;
          return withFigures(sql, scope, row);
        })
        .catch(refusedAsInvalid);
      if (!copy) throw notFound('Segment');
      return copy;
    },

    /**
     * A page of a segment's members over its own locations, oldest first after a guest id (keyset: any depth
     * costs the same), with its size: the cached count, or a count now while the cache is being worked out.
     */
    async members(
      companyId: number,
      id: number,
      page: { after?: number | undefined; limit: number },
    ): Promise<{ count: number; guests: Guest[]; lastId: number | null }> {
      const found = await db
        .tenant(companyId, async (sql) => {
          const row = await getSegment(sql, companyId, id);
          if (!row) return null;
          const ruleSet = ruleSetOf(row.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
          const locationIds = await segmentLocations(sql, companyId, row);
          if (locationIds !== null && locationIds.length === 0) return { count: 0, rows: [], lastId: null };
          const ids = await segmentMemberIds(
            sql,
            companyId,
            ruleSet,
            { afterId: page.after, limit: page.limit },
            { locationIds },
          );
          const cache = await getSegmentCache(sql, companyId, id);
          const count = cache
            ? cache.all_customers
            : (await countSegment(sql, companyId, ruleSet, { locationIds })).all;
          // The next page starts after the last id asked for, even if that guest was deleted meanwhile.
          const lastId = ids.length === page.limit ? ids.at(-1)! : null;
          return { count, rows: await guestListRowsByIds(sql, companyId, ids), lastId };
        })
        .catch(refusedAsInvalid);
      if (!found) throw notFound('Segment');
      return {
        count: found.count,
        guests: found.rows.map((row) => presentGuest(row, row.is_subscriber, row.email_consent)),
        lastId: found.lastId,
      };
    },

    /**
     * Every member of a segment as CSV (the guest export's columns), streamed in batches by guest id; 404 before
     * anything is sent unless the segment is the company's.
     */
    async exportCsv(companyId: number, id: number): Promise<Readable> {
      const found = await db
        .tenant(companyId, async (sql) => {
          const row = await getSegment(sql, companyId, id);
          if (!row) return null;
          const ruleSet = ruleSetOf(row.segment_groups.map(({ segment_rules }) => ({ segment_rules })));
          const locationIds = await segmentLocations(sql, companyId, row);
          if (locationIds !== null && locationIds.length === 0) return { ruleSet, locationIds, first: [] };
          // The first chunk of members read here, so a segment that cannot be counted is a 400, not a cut file.
          const first = await segmentMemberIds(
            sql,
            companyId,
            ruleSet,
            { limit: EXPORT_CHUNK },
            { locationIds },
          );
          return { ruleSet, locationIds, first };
        })
        .catch(refusedAsInvalid);
      if (!found) throw notFound('Segment');
      const { ruleSet, locationIds } = found;
      // Member ids a chunk at a time (each chunk runs the rule set once), their guest rows a batch at a time.
      let pending = found.first;
      let exhausted = pending.length < EXPORT_CHUNK;
      let lastMember = 0;
      const nextIds = async (count: number): Promise<number[]> => {
        if (pending.length === 0 && !exhausted) {
          const after = lastMember;
          pending = await db.tenant(companyId, (sql) =>
            segmentMemberIds(
              sql,
              companyId,
              ruleSet,
              { afterId: after, limit: EXPORT_CHUNK },
              { locationIds },
            ),
          );
          exhausted = pending.length < EXPORT_CHUNK;
        }
        const taken = pending.slice(0, count);
        pending = pending.slice(taken.length);
        if (taken.length > 0) lastMember = taken.at(-1)!;
        return taken;
      };
      return keysetCsv(
        GUEST_EXPORT_COLUMNS,
        // Full batches until the ids run out (a guest deleted meanwhile is skipped, not taken for the end).
        async (_afterId, limit) => {
          const rows: GuestListRow[] = [];
          for (;;) {
            const ids = await nextIds(limit - rows.length);
            if (ids.length === 0) return rows;
            rows.push(...(await db.tenant(companyId, (sql) => guestListRowsByIds(sql, companyId, ids))));
            if (rows.length >= limit) return rows;
          }
        },
        guestExportCells,
      );
    },

    /** Deletes a segment with its groups and figures; 404 unless the company's. */
    async remove(scope: WriteScope, id: number): Promise<void> {
      if (!(await db.tenant(scope.companyId, (sql) => deleteSegment(sql, scope, id))))
        throw notFound('Segment');
    },

    /**
     * Counts the rules as sent without saving: all, marketable and trackable guests, over the picker's
     * locations (none: every location), with the segment's share of the company's guests.
     */
    async preview(companyId: number, groups: unknown, picker: LocationPicker): Promise<SegmentPreview> {
      const ruleSet = ruleSetOf(groups);
      return db
        .tenant(companyId, async (sql) => {
          // The picker as every call reads it (both given: the locations in both; another company's id a 404).
          const locationIds = await scopeOf(sql, companyId, picker);
          // The counts alone: the preview follows every edit, so it skips the CLV averages a save caches.
          const counts =
            locationIds !== null && locationIds.length === 0
              ? { all: 0, marketable: 0, trackable: 0, company_guests: await countGuests(sql, companyId, {}) }
              : await countSegment(sql, companyId, ruleSet, { locationIds });
          return {
            all_customers: counts.all,
            all_customers_pct: percent(counts.all, counts.company_guests),
            marketable_customers: counts.marketable,
            marketable_pct: percent(counts.marketable, counts.all),
            trackable_customers: counts.trackable,
            trackable_pct: percent(counts.trackable, counts.all),
          };
        })
        .catch(refusedAsInvalid);
    },
  };
}

/** The segment service's calls. */
export type SegmentsService = ReturnType<typeof segmentsService>;
