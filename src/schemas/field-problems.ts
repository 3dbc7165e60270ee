import { z } from 'zod';

/**
 * What is wrong with one field, as a code the interface translates (spec §5's messages: '{name} is
 * required', '{name} is not valid', '{name} minimum length is {min}' …), with the limit it broke.
 */
export const FIELD_PROBLEM_CODES = ['required', 'not_valid', 'min_length', 'max_length', 'in_use'] as const;

/** One of the field problem codes. */
export type FieldProblemCode = (typeof FIELD_PROBLEM_CODES)[number];

/** A field's problem as the API sends it in `error.field_problems`. */
export const FieldProblemSchema = z.object({
  code: z.enum(FIELD_PROBLEM_CODES),
  min: z.number().int().optional(),
  max: z.number().int().optional(),
});
/** A field's problem as the API sends it in `error.field_problems`. */
export type FieldProblem = z.infer<typeof FieldProblemSchema>;

/** A field's problem with the English message API callers and logs read. */
export type FieldFailure = FieldProblem & { message: string };

/** The parts of a zod issue (or of Fastify's report of one) that say what kind of problem it is. */
export interface IssueLike {
  code: string;
  origin?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  params?: unknown;
}

/**
 * The field problem a zod issue describes: a missing value, or a string or list below one item, is
 * `required`, a longer minimum `min_length`, a maximum `max_length`, a refinement that names its code (`params: { code }`)
 * that code, anything else `not_valid`.
 */
export function fieldProblemOf(issue: IssueLike): FieldProblem {
  // Zod does not keep the input, so a value of the wrong type reads as missing: the forms always send
  // every field with its type, so only a field left out of a request gets here.
  if (issue.code === 'invalid_type') return { code: 'required' };
  const sized = issue.origin === 'string' || issue.origin === 'array';
  if (issue.code === 'too_small' && sized) {
    const min = Number(issue.minimum);
    return min <= 1 ? { code: 'required' } : { code: 'min_length', min };
  }
  if (issue.code === 'too_big' && issue.origin === 'string')
    return { code: 'max_length', max: Number(issue.maximum) };
  if (issue.code === 'custom') {
    const named = (issue.params as { code?: unknown } | undefined)?.code;
    const code = FIELD_PROBLEM_CODES.find((known) => known === named);
    if (code) return { code };
  }
  return { code: 'not_valid' };
}
