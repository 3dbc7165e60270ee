import type { z } from 'zod';
import { FieldProblemSchema, fieldProblemOf, type FieldFailure } from '../../schemas/field-problems.js';

/**
 * What is wrong with each field, by path (`email`, `communication.sms`) as the server and the zod schemas
 * name them: a code the view translates (with its limit) and the English message.
 */
export type FieldErrors = Record<string, FieldFailure>;

/**
 * What a failed call tells a machine: the server's error code and message, and its field messages.
 * Machines never see the API client's error class (services stay out of machines), only this shape.
 */
export interface ApiProblem {
  /** The HTTP status, or null when the call never got an answer. */
  status: number | null;
  /** The server's error code (`role_forbidden`, `last_owner`…), or `unexpected`. */
  code: string;
  /** The server's message, shown when the interface has no translation for the code. */
  message: string;
  fields: FieldErrors;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Reads an actor's error (an ApiRequestError, or anything else thrown) as an ApiProblem. */
export function problemOf(error: unknown): ApiProblem {
  if (!isRecord(error)) return { status: null, code: 'unexpected', message: String(error), fields: {} };
  const fields: FieldErrors = {};
  const problems = isRecord(error.fieldProblems) ? error.fieldProblems : {};
  if (isRecord(error.fields)) {
    for (const [name, message] of Object.entries(error.fields)) {
      if (typeof message !== 'string') continue;
      // A server that sent no code for the field still says something is wrong with it.
      const problem = FieldProblemSchema.safeParse(problems[name]);
      fields[name] = { ...(problem.success ? problem.data : { code: 'not_valid' }), message };
    }
  }
  return {
    status: typeof error.status === 'number' ? error.status : null,
    code: typeof error.code === 'string' && typeof error.status === 'number' ? error.code : 'unexpected',
    message: typeof error.message === 'string' ? error.message : 'Unexpected error',
    fields,
  };
}

/** The first problem of each field a schema refused, by field path. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    fields[issue.path.join('.') || 'form'] ??= { ...fieldProblemOf(issue), message: issue.message };
  }
  return fields;
}

/** The field errors without one field's message (the user just changed it). */
export function withoutField(fields: FieldErrors, field: string): FieldErrors {
  if (!(field in fields)) return fields;
  const { [field]: _changed, ...rest } = fields;
  return rest;
}
