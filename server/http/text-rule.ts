import type { FastifyInstance } from 'fastify';
import { fieldFailure, invalid, type FieldErrors } from './errors.js';

/** Deeper than this, a request's JSON is refused: no form or call of the product nests past a few levels. */
export const MAX_REQUEST_DEPTH = 32;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a text, or null when it may be stored: PostgreSQL refuses U+0000, and a lone surrogate is no character. */
function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

/** Whether a text may be stored or looked up: no U+0000 (PostgreSQL refuses it) and no lone surrogate. */
export function isStorableText(text: string): boolean {
  return textProblem(text) === null;
}

/**
 * A text with what PostgreSQL cannot store (U+0000) and lone surrogates replaced by U+FFFD: for names the
 * caller does not type as a field (an upload's file name from Content-Disposition or a form part), which are
 * shown, never refused.
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD');
}

/** A field path as the error shape names it (`address.street`, `location_ids.0`), printable whatever the key held. */
function fieldName(path: readonly (string | number)[], part: string): string {
  if (path.length === 0) return part;
  return path.map((step) => storableText(String(step))).join('.');
}

/**
 * The first thing in a parsed request part that breaks the text rule (a NUL or lone surrogate in any string
 * or key, or nesting past MAX_REQUEST_DEPTH), as the field it names; iterative so deep input cannot overflow
 * the stack.
 */
export function textRuleFailure(part: string, value: unknown): FieldErrors | null {
  const pending: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem)
        return { [fieldName(path, part)]: fieldFailure('not_valid', `${fieldName(path, part)} ${problem}`) };
      continue;
    }
    if (current === null || typeof current !== 'object' || !isPlainData(current)) continue;
    if (path.length >= MAX_REQUEST_DEPTH) {
      const name = fieldName(path, part);
      return {
        [name]: fieldFailure('not_valid', `${name} is nested more than ${MAX_REQUEST_DEPTH} levels deep`),
      };
    }
    for (const [key, child] of Object.entries(current)) {
      const childPath = [...path, Array.isArray(current) ? Number(key) : key];
      const keyProblem = textProblem(key);
      if (keyProblem) {
        const name = fieldName(childPath, part);
        return { [name]: fieldFailure('not_valid', `The field name ${name} ${keyProblem}`) };
      }
      pending.push({ value: child, path: childPath });
    }
  }
  return null;
}

/** Parsed JSON, a query or path parameters; never a buffer or a stream (uploads are checked by their own reader). */
function isPlainData(value: object): boolean {
  return !ArrayBuffer.isView(value) && typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/**
 * One text rule for every route, present and future: before a route's schema runs (and after its access
 * check), every string and key of the path parameters, query and JSON body must be storable text — no
 * U+0000, no unpaired surrogate — and nested at most MAX_REQUEST_DEPTH deep; otherwise 400 naming the field.
 */
export function registerTextRule(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const fields = textRuleFailure(part, value);
      if (fields) throw invalid(fields);
    }
  });
}
