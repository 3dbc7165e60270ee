import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../server/app.js';
import type { TestDatabase } from '../support/database.js';
import { makeOwnerWithAllFeatures, openRouteProbeApp } from '../support/route-probe-app.js';
import {
  fillPath,
  isWholeNumber,
  registeredApiRoutes,
  sampleOf,
  singleTypeOf,
  urlSampleOf,
  type JsonSchema,
  type Operation,
} from '../support/openapi.js';

/**
 * A schema-guided fuzz of every operation in the app's OpenAPI document (`app.swagger()`): for each path
 * id, query value and body field, a fixed list of malformed values (wrong types, missing and extra fields,
 * NUL bytes, lone surrogates, 1 MB strings, 10 000 levels of nesting, `__proto__` and `constructor` keys,
 * `1e3`, `NaN`, `Infinity`, negative and huge numbers), sent as the owner of a company with every feature
 * so that requests get past access control. Every answer must be below 500, every 4xx in the
 * `{error: {code, message, fields?}}` shape, and a broken field must be named in `fields`.
 *
 * Nothing here names a route: a route added later appears in the OpenAPI document (its zod schemas are
 * the document) and is fuzzed with no new test code. A route missing from the document fails the first
 * test, and the last one fails unless every operation was exercised.
 */

/** A number written in a URL that must be refused, never read as another number. */
const BAD_URL_NUMBERS = [
  '1e3',
  '0x10',
  ' 12',
  '12.0',
  '-1',
  '+5',
  '99999999999999999999',
  '9007199254740993',
  'abc',
  'NaN',
  'Infinity',
];
/** Ten thousand levels of arrays: the JSON parser copes, the text rule refuses it. */
const DEEP_JSON = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const ONE_MEGABYTE_TEXT = 'x'.repeat(1_000_000);
/** An invalid UTF-8 sequence (a lone surrogate's encoding) in a URL. */
const LONE_SURROGATE_IN_URL = '%ED%A0%80';

/** One request of the fuzz, what it breaks, and what the answer must say. */
interface Variant {
  label: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
  /** The field `error.fields` must name (itself or a path under it), with a 400. */
  field?: string;
  /** The statuses allowed besides the general rule (below 500, 4xx in the shape). */
  statuses?: number[];
}

/** A JSON body with `rawValue` (JSON text) at `field`, the rest of the baseline kept; without it, the field left out. */
function bodyWith(baseline: Record<string, unknown>, field: string, rawValue: string | undefined): string {
  const { [field]: _dropped, ...rest } = baseline;
  if (rawValue === undefined) return JSON.stringify(rest);
  const others = JSON.stringify(rest).slice(1, -1);
  return `{${others}${others ? ',' : ''}${JSON.stringify(field)}:${rawValue}}`;
}

/** A value of another JSON type than the field's, which its schema must refuse. */
function wrongTypeFor(type: string): string {
  if (type === 'string') return '12345';
  if (type === 'integer' || type === 'number') return '"text"';
  if (type === 'boolean') return '"yes"';
  return '"x"';
}

/** The string leaves of a sample body, as dotted paths. */
function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => stringPaths(child, [...path, key]));
}

/** The sample body with `text` at the dotted `path`. */
function withTextAt(sample: Record<string, unknown>, path: string[], text: string): string {
  const copy = structuredClone(sample);
  let node: Record<string, unknown> = copy;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string, unknown>;
  node[path.at(-1)!] = text;
  return JSON.stringify(copy);
}

function pathVariants(
  operation: Operation,
  baseQuery: string,
  pathValues: Record<string, string>,
): Variant[] {
  const variants: Variant[] = [];
  for (const parameter of operation.pathParams) {
    const at = (value: string, raw = false) =>
      `${fillPath(operation.path, { ...pathValues, [parameter.name]: value }, raw)}${baseQuery}`;
    if (isWholeNumber(parameter.schema)) {
      for (const value of BAD_URL_NUMBERS) {
        variants.push({
          label: `path ${parameter.name}=${JSON.stringify(value)}`,
          url: at(value),
          field: parameter.name,
        });
      }
    }
    variants.push({ label: `path ${parameter.name} with NUL`, url: at('1\u0000'), field: parameter.name });
    variants.push({
      label: `path ${parameter.name} not UTF-8`,
      url: at(LONE_SURROGATE_IN_URL, true),
      statuses: [400],
    });
    variants.push({ label: `path ${parameter.name} 5000 characters`, url: at('9'.repeat(5000)) });
  }
  return variants;
}

function queryVariants(operation: Operation, basePath: string, baseQuery: URLSearchParams): Variant[] {
  const variants: Variant[] = [];
  const at = (name: string, values: string[], raw?: string) => {
    const query = new URLSearchParams(baseQuery);
    query.delete(name);
    for (const value of values) query.append(name, value);
    const text = query.toString();
    return `${basePath}?${text}${raw === undefined ? '' : `${text ? '&' : ''}${name}=${raw}`}`;
  };
  for (const parameter of operation.queryParams) {
    const { name } = parameter;
    variants.push({ label: `query ${name} with NUL`, url: at(name, ['a\u0000b']), field: name });
    variants.push({ label: `query ${name} not UTF-8`, url: at(name, [], LONE_SURROGATE_IN_URL) });
    variants.push({ label: `query ${name} 10 000 characters`, url: at(name, ['q'.repeat(10_000)]) });
    variants.push({ label: `query ${name} repeated`, url: at(name, ['1', '2']) });
    if (isWholeNumber(parameter.schema)) {
      for (const value of [...BAD_URL_NUMBERS, '']) {
        variants.push({
          label: `query ${name}=${JSON.stringify(value)}`,
          url: at(name, [value]),
          field: name,
        });
      }
    } else {
      variants.push({ label: `query ${name}=1e3`, url: at(name, ['1e3']) });
    }
  }
  return variants;
}

function bodyVariants(schema: JsonSchema, url: string): Variant[] {
  const sample = sampleOf(schema);
  const json = (label: string, payload: string, expected: Partial<Variant> = {}): Variant => ({
    label,
    url,
    payload,
    contentType: 'application/json',
    ...expected,
  });
  const variants: Variant[] = [
    json('body valid sample', JSON.stringify(sample)),
    json('body empty', '', { statuses: [400] }),
    json('body malformed JSON', '{"a":', { statuses: [400] }),
    json('body null', 'null'),
    json('body an array', '[]'),
    json('body a string', '"text"'),
    json('body nested 10 000 deep', DEEP_JSON),
    json('body with __proto__', '{"__proto__":{"is_admin":true}}', { statuses: [400] }),
    json('body with constructor.prototype', '{"constructor":{"prototype":{"is_admin":true}}}', {
      statuses: [400],
    }),
  ];
  if (sample === null || typeof sample !== 'object' || Array.isArray(sample)) return variants;
  const baseline = sample as Record<string, unknown>;
  variants.push(json('body with an extra field', JSON.stringify({ ...baseline, fuzz_extra: 'x' })));
  for (const path of stringPaths(baseline)) {
    const name = path.join('.');
    variants.push(json(`body ${name} with NUL`, withTextAt(baseline, path, 'a\u0000b'), { field: name }));
    variants.push(
      json(`body ${name} with a lone surrogate`, withTextAt(baseline, path, 'a\uD800b'), { field: name }),
    );
  }
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const broken = (label: string, raw: string | undefined, expected: Partial<Variant> = {}) =>
      variants.push(json(`body ${field} ${label}`, bodyWith(baseline, field, raw), expected));
    if (schema.required?.includes(field)) broken('missing', undefined, { field });
    broken('null', 'null');
    broken('1 MB string', JSON.stringify(ONE_MEGABYTE_TEXT));
    broken('nested 10 000 deep', DEEP_JSON, { field });
    broken('object with __proto__', '{"__proto__":{"x":1}}', { statuses: [400] });
    const type = singleTypeOf(property);
    if (type) broken(`of the wrong type (not ${type})`, wrongTypeFor(type), { field });
    if (type === 'integer' || type === 'number') {
      broken('1e3', '1e3');
      broken('Infinity (1e999)', '1e999', { field });
      broken('NaN as text', '"NaN"', { field });
      broken('negative', '-1');
      broken('huge', '1e300', type === 'integer' ? { field } : {});
      if (type === 'integer') {
        broken('past the safe integers', '9007199254740993', { field });
        broken('a fraction', '0.5', { field });
      }
    }
  }
  return variants;
}

/** Uploads and other calls that take no JSON: a few file bodies of the wrong kind. */
function fileVariants(url: string): Variant[] {
  const boundary = 'fuzzboundary';
  const part = (name: string, content: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="f.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  const multipart = `multipart/form-data; boundary=${boundary}`;
  return [
    {
      label: 'file CSV with NUL bytes',
      url,
      payload: 'email\na\u0000b@example.com\n',
      contentType: 'text/csv',
    },
    { label: 'file not UTF-8', url, payload: Buffer.from([0xff, 0xfe, 0x00, 0x41]), contentType: 'text/csv' },
    { label: 'file empty', url, payload: '', contentType: 'text/csv' },
    { label: 'file multipart without boundary', url, payload: 'x', contentType: 'multipart/form-data' },
    {
      label: 'file multipart field not named file',
      url,
      payload: part('other', 'email\n'),
      contentType: multipart,
    },
    { label: 'file multipart empty file', url, payload: part('file', ''), contentType: multipart },
    {
      label: 'file multipart cut short',
      url,
      payload: `--${boundary}\r\nContent-Disposition: form`,
      contentType: multipart,
    },
    { label: 'file as XML', url, payload: '<a/>', contentType: 'application/xml' },
  ];
}

/** Every variant of one operation. */
function variantsOf(operation: Operation): Variant[] {
  const pathValues: Record<string, string> = {};
  for (const parameter of operation.pathParams) pathValues[parameter.name] = urlSampleOf(parameter.schema);
  for (const name of Object.keys(pathValues)) if (/id$/i.test(name)) pathValues[name] = '999999';
  const baseQuery = new URLSearchParams();
  for (const parameter of operation.queryParams) {
    if (parameter.required && parameter.schema.type !== 'array') {
      baseQuery.set(parameter.name, urlSampleOf(parameter.schema));
    }
  }
  const basePath = fillPath(operation.path, pathValues);
  const queryText = baseQuery.toString() ? `?${baseQuery.toString()}` : '';
  const url = `${basePath}${queryText}`;
  const variants = [
    { label: 'the sample request', url },
    ...pathVariants(operation, queryText, pathValues),
    ...queryVariants(operation, basePath, baseQuery),
  ];
  if (operation.body) variants.push(...bodyVariants(operation.body, url));
  else if (operation.method !== 'GET' && operation.method !== 'DELETE') variants.push(...fileVariants(url));
  return variants;
}

/** What is wrong with an answer to a variant, or null. */
function problemWith(variant: Variant, status: number, body: string): string | null {
  if (status >= 500) return `answered ${status}: ${body.slice(0, 200)}`;
  if (variant.statuses && !variant.statuses.includes(status))
    return `answered ${status}, expected ${variant.statuses.join('/')}`;
  if (status < 400 && !variant.field) return null;
  let parsed: { error?: { code?: unknown; message?: unknown; fields?: Record<string, unknown> } };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return `answered ${status} with a body that is not JSON: ${body.slice(0, 200)}`;
  }
  const error = parsed.error;
  if (status >= 400) {
    if (typeof error?.code !== 'string' || typeof error.message !== 'string') {
      return `answered ${status} outside the error shape: ${body.slice(0, 200)}`;
    }
    const fields = error.fields ?? {};
    if (Object.values(fields).some((message) => typeof message !== 'string')) {
      return `answered ${status} with fields that are not messages: ${body.slice(0, 200)}`;
    }
  }
  if (variant.field) {
    const named = Object.keys(error?.fields ?? {}).some(
      (name) => name === variant.field || name.startsWith(`${variant.field}.`),
    );
    if (status !== 400 || !named)
      return `answered ${status} without naming ${variant.field}: ${body.slice(0, 300)}`;
  }
  return null;
}

describe('schema-guided fuzz of every OpenAPI operation', () => {
  let database: TestDatabase;
  let built: BuiltApp;
  let operations: Operation[];
  let ownerId: number;

  beforeAll(async () => {
    ({ database, built, operations } = await openRouteProbeApp());
    ({ ownerId } = await makeOwnerWithAllFeatures(database.db, 'Fuzz Co'));
  });
  afterAll(async () => {
    await built.app.close();
    await database.drop();
  });

  it('finds every /api route the app registers in the OpenAPI document', () => {
    const documented = new Set(operations.map((operation) => operation.name));
    const missing = registeredApiRoutes(built.routes).filter((name) => !documented.has(name));
    // A route hidden from the document would escape the fuzz and the tenancy probe: document it.
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThan(80);
  });

  it('answers every malformed request below 500, in the error shape, naming the broken field', async () => {
    const failures: string[] = [];
    const exercised = new Set<string>();
    // Signing out ends the caller's session, so it goes last; every operation gets a fresh token.
    const ordered = [...operations].sort(
      (a, b) => Number(a.path.includes('logout')) - Number(b.path.includes('logout')),
    );
    for (const operation of ordered) {
      const token = (await built.tokens.issue({ userId: ownerId })).access_token;
      for (const variant of variantsOf(operation)) {
        const response = await built.app
          .inject({
            method: operation.method as 'GET',
            url: variant.url,
            headers: {
              authorization: `Bearer ${token}`,
              ...(variant.contentType === undefined ? {} : { 'content-type': variant.contentType }),
            },
            ...(variant.payload === undefined ? {} : { payload: variant.payload }),
          })
          .catch((error: unknown) => error as Error);
        if (response instanceof Error) {
          failures.push(`${operation.name} ${variant.label}: no answer (${response.message})`);
          continue;
        }
        const problem = problemWith(variant, response.statusCode, response.body);
        if (problem) failures.push(`${operation.name} ${variant.label}: ${problem}`);
      }
      exercised.add(operation.name);
    }
    expect(failures, `${failures.length} failures:\n${failures.join('\n')}`).toEqual([]);
    expect([...exercised].sort()).toEqual(operations.map((operation) => operation.name).sort());
  });
});
