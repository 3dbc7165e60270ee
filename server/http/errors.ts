import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { frameworkErrorCode, isMalformedMultipart } from './framework-error-codes.js';
import { DemoStillSummingError } from '../repositories/pos-ingestion.repository.js';
import {
  fieldProblemOf,
  type FieldFailure,
  type FieldProblemCode,
} from '../../src/schemas/field-problems.js';

/** Field name → what is wrong with it: a code the interface translates, and an English message. */
export type FieldErrors = Record<string, FieldFailure>;

/** A field failure: what kind (spec §5) and the English message API callers read. */
export function fieldFailure(
  code: FieldProblemCode,
  message: string,
  limits: { min?: number; max?: number } = {},
) {
  return { code, message, ...limits } satisfies FieldFailure;
}

/** The body's two views of field errors: English messages (`fields`) and codes (`field_problems`). */
function fieldsBody(fields: FieldErrors) {
  const entries = Object.entries(fields);
  return {
    fields: Object.fromEntries(entries.map(([name, failure]) => [name, failure.message])),
    field_problems: Object.fromEntries(
      entries.map(([name, { message: _message, ...problem }]) => [name, problem]),
    ),
  };
}

/** An error that reaches the client as `{error: {code, message, fields?}}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    /** More of the error's body beside code and message (a flow conflict's current `revision`, …). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 404 for a record that does not exist or belongs to another company: never reveal which. */
export function notFound(entity: string): ApiError {
  return new ApiError(404, 'not_found', `${entity} not found`);
}

/** 400 naming the fields that are wrong. */
export function invalid(fields: FieldErrors, message = 'The request has invalid fields'): ApiError {
  return new ApiError(400, 'validation_failed', message, fields);
}

/** PostgreSQL error codes the API turns into client errors. */
const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';
const PG_CHECK_VIOLATION = '23514';

/** Registers the JSON error shape for every failure, including validation and unknown routes. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send({
        error: {
          code: error.code,
          message: error.message,
          ...(error.fields ? fieldsBody(error.fields) : {}),
          ...error.details,
        },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: FieldErrors = {};
      for (const issue of error.validation) {
        // instancePath is "/location_ids/0"; the field is named "location_ids.0", or the part when empty.
        const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        fields[path || error.validationContext || 'request'] ??= {
          ...fieldProblemOf({ code: issue.keyword, ...issue.params }),
          message: issue.message ?? 'Field is not valid',
        };
      }
      return reply.status(400).send({
        error: {
          code: 'validation_failed',
          message: 'The request has invalid fields',
          ...fieldsBody(fields),
        },
      });
    }
    if (error instanceof DemoStillSummingError) {
      // Minutes at most, on a fresh installation's demo companies only.
      return reply
        .status(503)
        .header('retry-after', '60')
        .send({ error: { code: 'demo_loading', message: error.message } });
    }
    const pgCode = (error as { code?: string }).code;
    if (pgCode === PG_UNIQUE_VIOLATION) {
      return reply
        .status(409)
        .send({ error: { code: 'conflict', message: 'A record with these values already exists' } });
    }
    if (pgCode === PG_FOREIGN_KEY_VIOLATION || pgCode === PG_CHECK_VIOLATION) {
      return reply.status(400).send({
        error: {
          code: 'invalid_reference',
          message: 'The request refers to something that does not exist or is not allowed',
        },
      });
    }
    if (isMalformedMultipart(error)) {
      return reply
        .status(400)
        .send({ error: { code: 'malformed_form', message: `The form cannot be read: ${error.message}` } });
    }
    if (error.statusCode && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send({ error: { code: frameworkErrorCode(error.code), message: error.message } });
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send({ error: { code: 'internal', message: 'Something went wrong on our side' } });
  });
}
