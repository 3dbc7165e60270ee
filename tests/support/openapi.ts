import type { RouteOptions } from 'fastify';

/** A JSON Schema as the app's OpenAPI document writes it (only the keywords the checks read). */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** One parameter of an operation: where it goes, its name and schema. */
export interface OperationParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

/** One method on one path of the OpenAPI document. */
export interface Operation {
  method: string;
  /** The OpenAPI path, `/api/pos/guests/{id}/`. */
  path: string;
  /** `METHOD /path` as reports name it. */
  name: string;
  pathParams: OperationParameter[];
  queryParams: OperationParameter[];
  /** The JSON body's schema, when the operation takes one. */
  body: JsonSchema | null;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: OperationParameter[]; requestBody?: unknown }>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the app's OpenAPI document (`app.swagger()`). */
export function operationsOf(document: unknown): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries((document as OpenApiDocument).paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!METHODS.includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const content = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> })
        ?.content;
      operations.push({
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        pathParams: parameters.filter((parameter) => parameter.in === 'path'),
        queryParams: parameters.filter((parameter) => parameter.in === 'query'),
        body: content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

/** `METHOD /path` of every /api route the app registered, in OpenAPI's `{param}` spelling (docs and HEAD left out). */
export function registeredApiRoutes(routes: readonly RouteOptions[]): string[] {
  const names: string[] = [];
  for (const route of routes) {
    if (
      !route.url.startsWith('/api/') ||
      route.url.startsWith('/api/docs') ||
      route.url === '/api/openapi.json'
    )
      continue;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') names.push(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return names;
}

/** The path with each `{param}` replaced by its value, URL-encoded unless `raw`. */
export function fillPath(path: string, values: Record<string, string>, raw = false): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = values[name] ?? '999999';
    return raw ? value : encodeURIComponent(value);
  });
}

/** The schema's alternatives that are not `null`, or the schema itself. */
export function alternativesOf(schema: JsonSchema): JsonSchema[] {
  const options = schema.anyOf ?? schema.oneOf;
  if (!options) return [schema];
  return options.filter((option) => option.type !== 'null');
}

/** True for a whole number in a URL (`urlWholeNumber`) or an integer. */
export function isWholeNumber(schema: JsonSchema): boolean {
  const text = JSON.stringify(schema);
  return text.includes('"type":"integer"') || text.includes('[1-9][0-9]');
}

/** The one JSON type a field takes, or null when it takes several (or anything). */
export function singleTypeOf(schema: JsonSchema): string | null {
  const options = alternativesOf(schema);
  if (options.length !== 1) return null;
  const type = options[0]!.type;
  return typeof type === 'string' ? type : null;
}

/** A plausible valid value for a schema: what the fuzz starts from before breaking one field. */
export function sampleOf(schema: JsonSchema, name = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  if (schema.allOf?.[0]) return sampleOf(schema.allOf[0], name);
  const option = alternativesOf(schema)[0] ?? schema;
  if (option !== schema) return sampleOf(option, name);
  switch (schema.type) {
    case 'string':
      return sampleString(schema, name);
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return true;
    case 'array':
      return schema.minItems && schema.items ? [sampleOf(schema.items, name)] : [];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sampleOf(property, name)]),
      );
    default:
      return null;
  }
}

/** A string the field takes, from its format, pattern or (for plain strings) its name. */
function sampleString(schema: JsonSchema, name: string): string {
  if (schema.format === 'email' || /email|reply_to/.test(name)) return 'fuzz@example.com';
  if (/password/.test(name)) return 'Fuzz-password-123';
  if (schema.pattern?.includes('{4}-')) return '2024-01-15';
  if (schema.pattern?.includes('[0-9]{4}$')) return '4242';
  if (schema.pattern?.includes('\\d{5}')) return '97201';
  if (name === 'time_zone') return 'America/New_York';
  if (schema.format === 'date') return '2024-01-15';
  if (schema.format === 'date-time') return '2024-01-15T12:00:00.000Z';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
  if (schema.pattern?.includes('[1-9][0-9]')) return '1';
  // Keys (a flow item's): letters, digits, _ and -, no spaces.
  if (schema.pattern?.includes('A-Za-z0-9_-')) return 'fuzz-key';
  return 'Fuzz text'.padEnd(schema.minLength ?? 0, 'x');
}

/** A sample value as it is written in a URL. */
export function urlSampleOf(schema: JsonSchema): string {
  const value = sampleOf(schema);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '1';
}
