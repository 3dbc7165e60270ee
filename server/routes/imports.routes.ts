import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, IdParamSchema } from '../../src/schemas/common.js';
import { ImportJobSchema, type ImportJob, type ImportKind } from '../../src/schemas/imports.js';
import { principalOf } from '../auth/principal.js';
import { access } from '../http/access.js';
import { ApiError, fieldFailure, invalid } from '../http/errors.js';
import { companyOf, writeScopeOf } from '../http/scope.js';
import { storableText } from '../http/text-rule.js';
import type { ImportsService, Upload } from '../services/imports.service.js';

const errors = { 400: ApiErrorSchema, 401: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema };
const uploadErrors = { ...errors, 413: ApiErrorSchema, 415: ApiErrorSchema, 429: ApiErrorSchema };
const tags = ['Imports'];
const UPLOAD = { ...access('Subscribers', 'marketer'), limit: 'upload' } as const;
/** POS checks come in as `POST /pos/checks/` does: no feature gates a company's own sales; admins and tokens. */
const CHECKS_UPLOAD = { ...access(null, 'admin'), limit: 'upload' } as const;
/** Any company may follow its checks imports; guest and subscriber imports need the feature (`followable`). */
const READ = access(null, 'analyst');

/** Content types a raw CSV body may come with (spreadsheet programs on Windows send the Excel one). */
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'application/vnd.ms-excel']);
/** Types a browser may give a .csv file part in a form. */
const CSV_PART_TYPES = new Set([...CSV_TYPES, 'text/plain', 'application/octet-stream']);
/** Room for a form's boundaries, part headers and other small fields around the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** The name a file gets when the caller gives none. */
const DEFAULT_FILE_NAME = 'upload.csv';

const UploadQuerySchema = z.object({
  file_name: z.string().trim().max(255, 'file_name must be at most 255 characters').optional(),
});

const UNSUPPORTED = new ApiError(
  415,
  'unsupported_media_type',
  'Upload a CSV file: Content-Type text/csv, or multipart/form-data with the file in a field named file',
);

/** The media type of a Content-Type header, lower-cased, without parameters. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` or `filename="…"`), if any. */
function dispositionFileName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      return undefined;
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim();
}

/** A file name fit to show: trimmed to 255 characters, the default when blank. */
function fileNameOr(name: string | undefined): string {
  // Headers and form parts skip the text rule, and a percent-encoded NUL would otherwise reach the database;
  // replaced after the cut, which may split a surrogate pair.
  const trimmed = storableText((name ?? '').trim().slice(0, 255));
  return trimmed === '' ? DEFAULT_FILE_NAME : trimmed;
}

/**
 * A size the caller announced that is already over the limit (plus `overhead` for a form's wrapping):
 * refused before a byte is read.
 */
function refuseAnnouncedSize(request: FastifyRequest, maxBytes: number, overhead = 0): void {
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > maxBytes + overhead) {
    throw new ApiError(413, 'file_too_large', `The file is larger than ${maxBytes} bytes`);
  }
}

/** The uploaded file of a request: a raw CSV body or the `file` part of a form, streamed, never buffered. */
async function uploadOf(
  request: FastifyRequest,
  query: z.infer<typeof UploadQuerySchema>,
  kind: ImportKind,
  maxBytes: number,
): Promise<Upload> {
  const type = mediaType(request.headers['content-type']);
  if (CSV_TYPES.has(type)) {
    refuseAnnouncedSize(request, maxBytes);
    const fileName = query.file_name ?? dispositionFileName(request.headers['content-disposition']);
    // An empty body is never parsed and arrives as undefined: it is an empty file. A file refused part-way
    // leaves the body open (not destroyed), so the rest is drained after the answer (./http/oversize-bodies.ts).
    const body = request.body instanceof Readable ? request.body : Readable.from([]);
    return { kind, fileName: fileNameOr(fileName), source: body.iterator({ destroyOnReturn: false }) };
  }
  if (type !== 'multipart/form-data') throw UNSUPPORTED;
  refuseAnnouncedSize(request, maxBytes, FORM_OVERHEAD_BYTES);
  // One more byte than allowed reaches the service, which refuses the file with the same 413 as a raw body.
  const part = await request.file({ limits: { files: 1, fileSize: maxBytes + 1, fields: 20 } });
  if (!part || part.fieldname !== 'file') {
    throw invalid(
      { file: fieldFailure('required', 'Send the CSV file in a form field named file') },
      'The form has no file field',
    );
  }
  if (!CSV_PART_TYPES.has(mediaType(part.mimetype))) throw UNSUPPORTED;
  return { kind, fileName: fileNameOr(query.file_name ?? part.filename), source: part.file };
}

/** A guest or subscriber import is the Subscribers feature's, as its upload was; a checks import every company's. */
function followable(request: FastifyRequest, job: ImportJob): ImportJob {
  if (job.kind !== 'checks' && !principalOf(request).features.has('Subscribers')) {
    throw new ApiError(403, 'feature_not_enabled', 'Your company does not have the Subscribers feature');
  }
  return job;
}

/** Maps the multipart plugin's own size error to the API's shape (the service's check usually comes first). */
function sizeErrorOr(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string }).code;
  return code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT'
    ? new ApiError(413, 'file_too_large', `The file is larger than ${maxBytes} bytes`)
    : error;
}

/**
 * CSV uploads of subscribers and guests, and the import jobs they start: progress and rejected rows.
 * Uploads stream into the import pipeline; `maxBytes` is the largest file accepted.
 */
export function importsRoutes(service: ImportsService, maxBytes: number): FastifyPluginAsyncZod {
  return async (app) => {
    // Bodies of these routes are left unread for the handler to stream (this plugin's scope only).
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    await app.register(fastifyMultipart, { throwFileSizeLimit: true });

    const uploadRoute = (
      url: string,
      kind: ImportKind,
      summary: string,
      config: typeof UPLOAD | typeof CHECKS_UPLOAD = UPLOAD,
      about = '',
    ) =>
      app.post(
        url,
        {
          config,
          schema: {
            tags,
            summary,
            description:
              about +
              'Send the file as the raw body (Content-Type text/csv, name in ?file_name= or Content-Disposition) ' +
              'or as multipart/form-data in a field named file. Answers 200 with the finished job, or 202 ' +
              'with a queued or running job to follow at GET /imports/{id}/.',
            querystring: UploadQuerySchema,
            response: { 200: ImportJobSchema, 202: ImportJobSchema, ...uploadErrors },
          },
        },
        async (request, reply) => {
          try {
            const upload = await uploadOf(request, request.query, kind, maxBytes);
            const { job, finished } = await service.upload(writeScopeOf(request), upload);
            return reply.status(finished ? 200 : 202).send(job);
          } catch (error) {
            throw sizeErrorOr(error, maxBytes);
          }
        },
      );

    uploadRoute(
      '/subscriptions/subscribers/upload/',
      'subscriber',
      'Import subscribers from a CSV file (email required; first_name, last_name, phone, zip, birthday, pos_id, subscribed)',
    );
    uploadRoute(
      '/pos/guests/upload/',
      'guest',
      'Import guests from a CSV file (customer_name, last_four_digits and pos_id required)',
    );
    uploadRoute(
      '/pos/checks/upload/',
      'checks',
      'Import POS checks from a CSV file, one row per check line (idempotent)',
      CHECKS_UPLOAD,
      'Columns: location_id, check_number, opened_at, closed_at, total (required); subtotal, tax, tip, discount, ' +
        'guest_count, revenue_center, customer_name, last_four_digits, pos_id (the check, repeated on each of its ' +
        'rows); menu_item, category, quantity, amount (the line). Amounts in dollars with at most two decimals, ' +
        'times in ISO 8601 with a zone. A check is its consecutive rows with the same location_id, check_number ' +
        'and closed_at, which must agree on every check column; the rules are those of POST /pos/checks/. A check ' +
        'with a rejected row is rejected whole; a check stored before is left unchanged (rows counted as ' +
        'duplicates, `checks.unchanged`). ',
    );

    app.get(
      '/imports/:id/',
      {
        config: READ,
        schema: {
          tags,
          summary: "An import's progress and counts",
          params: IdParamSchema,
          response: { 200: ImportJobSchema, ...errors },
        },
      },
      async (request) => followable(request, await service.get(companyOf(request), request.params.id)),
    );

    app.get(
      '/imports/:id/rejected/',
      {
        config: READ,
        schema: {
          tags,
          summary: "An import's rejected rows as CSV: line, reason, then the row's columns as written",
          params: IdParamSchema,
          response: { 200: z.string().describe('text/csv'), ...errors },
        },
      },
      async (request, reply) => {
        const { job, lines } = await service.rejected(companyOf(request), request.params.id);
        followable(request, job);
        return (
          reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="import-${job.id}-rejected.csv"`)
            // Personal data: no browser or proxy may keep a copy.
            .header('cache-control', 'no-store')
            // A stream goes out as it comes; the string schema only documents the body.
            .send(Readable.from(lines) as unknown as string)
        );
      },
    );
  };
}
