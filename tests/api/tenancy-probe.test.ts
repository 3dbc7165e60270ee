import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltApp } from '../../server/app.js';
import type { Database } from '../../server/db/database.js';
import { insertCapturedEmail } from '../../server/repositories/captured-emails.repository.js';
import type { TestDatabase } from '../support/database.js';
import { makeGuest } from '../support/factories.js';
import { sampleOf, type Operation } from '../support/openapi.js';
import { makeOwnerWithAllFeatures, openRouteProbeApp } from '../support/route-probe-app.js';

/**
 * A tenancy probe generated from the OpenAPI document: company A's owner calls every route that takes a
 * path id with company B's real ids, and every list that takes a `location_id` / `location_group_id` filter
 * with B's location and group. Reads answer 404, writes answer 404 and leave every row of B as it was, lists
 * answer 400/404 or a result without B's rows; no answer ever carries B's marker text.
 *
 * A new route is probed without new test code when its path ids are of a kind below. A route whose ids the
 * probe cannot fill fails the test with the key to add to B_ROWS: a factory that makes B's row of that kind.
 */

/** What fills a route's path parameters (and the query its link needs, such as a profile's hashid) with B's row. */
interface ProbeRow {
  params: Record<string, string>;
  query?: Record<string, string>;
}

/** Company B, as the factories see it. */
interface CompanyB {
  db: Database;
  companyId: number;
  marker: string;
  locationId: number;
  groupId: number;
  /** Calls the API as B's owner and answers the JSON, failing on anything but 2xx. */
  call(method: string, url: string, body?: unknown, contentType?: string): Promise<Record<string, unknown>>;
}

const idOf = (answer: Record<string, unknown>) => String(answer.id);
let made = 0;
/** B's marker with a new suffix, for values that must be unique (emails, POS ids). */
const fresh = (b: CompanyB) => `${b.marker}-${++made}`;

/**
 * How to make B's row for each kind of path id, keyed by the route path up to its last parameter. A route
 * whose key is missing fails the probe; add its factory here.
 */
const B_ROWS: Record<string, (b: CompanyB) => Promise<ProbeRow>> = {
  '/api/customers/locations/{id}': async (b) => ({ params: { id: String(b.locationId) } }),
  '/api/customers/groups/{id}': async (b) => ({ params: { id: String(b.groupId) } }),
  '/api/accounts/user/{id}': async (b) => ({
    params: {
      id: idOf(
        await b.call('POST', '/api/accounts/user/', {
          email: `${fresh(b)}-user@example.com`,
          first_name: b.marker,
          role: 'analyst',
          password: 'Probe-password-123',
        }),
      ),
    },
  }),
  '/api/accounts/delete-company-token/{id}': async (b) => ({
    params: { id: idOf(await b.call('POST', '/api/accounts/company-tokens/', { name: b.marker })) },
  }),
  '/api/campaigns/email-sender/{id}': async (b) => ({
    params: {
      id: idOf(
        await b.call('POST', '/api/campaigns/email-sender/', {
          name: b.marker,
          email: `${fresh(b)}-sender@example.com`,
        }),
      ),
    },
  }),
  '/api/customers/email-provider/{id}': async (b) => ({
    params: {
      id: idOf(
        await b.call('PUT', '/api/customers/email-provider/', {
          provider: 'smtp',
          api_key: `${b.marker}-key`,
          settings: { host: 'mail.example', port: 587, user: b.marker },
        }),
      ),
    },
  }),
  '/api/campaigns/sent-mail/{id}': async (b) => ({
    params: {
      id: String(
        (
          await b.db.tenant(b.companyId, (sql) =>
            insertCapturedEmail(sql, b.companyId, {
              from: 'news@example.com',
              to: `${fresh(b)}@example.com`,
              subject: b.marker,
              text: b.marker,
            }),
          )
        ).id,
      ),
    },
  }),
  '/api/support/event-logs/{id}': async (b) => ({
    params: {
      id: idOf(
        await b.call('POST', '/api/support/event-logs/', {
          entries: [{ seq: 1, at: 1, actor: b.marker, machine: 'probe', event: { type: b.marker } }],
        }),
      ),
    },
  }),
  '/api/subscriptions/subscribers/{id}': async (b) => {
    const subscriber = await b.call('POST', '/api/subscriptions/subscribers/', {
      email: `${fresh(b)}-subscriber@example.com`,
      first_name: b.marker,
      pos_id: `${fresh(b)}-subscriber`,
      source_location_id: b.locationId,
    });
    return {
      params: { id: idOf(subscriber) },
      query: { hashid: String(subscriber.hashid), pos_id: String(subscriber.pos_id) },
    };
  },
  '/api/subscriptions/subscribers/{id}/cards/{cardId}': async (b) => {
    const subscriber = await B_ROWS['/api/subscriptions/subscribers/{id}']!(b);
    const card = await b.call('POST', `/api/subscriptions/subscribers/${subscriber.params.id}/cards/`, {
      last_four_digits: '4242',
      name_on_card: b.marker,
    });
    return { params: { id: subscriber.params.id!, cardId: idOf(card) } };
  },
  '/api/campaigns/segments/{id}': async (b) => ({
    params: {
      id: idOf(
        await b.call('POST', '/api/campaigns/segments/', {
          name: b.marker,
          segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 1 }] }],
        }),
      ),
    },
  }),
  '/api/campaigns/campaigns/{id}': async (b) => ({
    params: { id: idOf(await b.call('POST', '/api/campaigns/campaigns/', { name: b.marker })) },
  }),
  '/api/campaigns/flows/{id}': async (b) => {
    const flow = await b.call('POST', '/api/campaigns/flows/', {
      name: b.marker,
      items: [
        ...['trigger', 'action', 'delay'].map((kind, index) => ({
          key: kind,
          kind,
          settings: [{ type: 'first_visit' }, { type: 'exit' }, { type: 'wait', amount: 1, unit: 'days' }][
            index
          ],
          position: { x: 0, y: index * 100 },
          next_key: null,
          no_key: null,
        })),
      ],
    });
    const items = flow.items as { id: number; kind: string }[];
    const idOfKind = (kind: string) => String(items.find((item) => item.kind === kind)!.id);
    return {
      params: { id: idOf(flow) },
      query: { trigger: idOfKind('trigger'), action: idOfKind('action'), delay: idOfKind('delay') },
    };
  },
  // The item calls name an item of their kind by its id; these take it from B's flow above.
  '/api/campaigns/flows/sequence/{id}': (b) => B_ROWS['/api/campaigns/flows/{id}']!(b),
  ...Object.fromEntries(
    (['trigger', 'action', 'delay', 'item'] as const).map((kind) => [
      `/api/campaigns/flows/${kind}s/{id}`,
      async (b: CompanyB): Promise<ProbeRow> => {
        const flow = await B_ROWS['/api/campaigns/flows/{id}']!(b);
        return { params: { id: flow.query![kind === 'item' ? 'action' : kind]! } };
      },
    ]),
  ),
  '/api/campaigns/email-templates/{id}': async (b) => ({
    params: {
      id: idOf(
        await b.call('POST', '/api/campaigns/email-templates/', {
          name: b.marker,
          export_html: `<mjml><mj-body><mj-section><mj-column><mj-text>${b.marker}</mj-text></mj-column></mj-section></mj-body></mjml>`,
        }),
      ),
    },
  }),
  '/api/campaigns/email-images/{imageId}': async (b) => {
    const boundary = 'probeboundary';
    const form =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.gif"\r\n` +
      `Content-Type: image/gif\r\n\r\nGIF89a${b.marker}\r\n--${boundary}--\r\n`;
    const image = await b.call(
      'POST',
      '/api/campaigns/email-images/',
      form,
      `multipart/form-data; boundary=${boundary}`,
    );
    return { params: { imageId: String(image.id) } };
  },
  '/api/benchmark/segment-dashboardv2/{id}': (b) => B_ROWS['/api/campaigns/segments/{id}']!(b),
  '/api/campaigns/segment-exports/{id}': async (b) => {
    const segment = await B_ROWS['/api/campaigns/segments/{id}']!(b);
    const started = await b.call('GET', `/api/campaigns/segments/${segment.params.id}/export/?trigger=1`);
    return { params: { id: idOf(started) } };
  },
  '/api/subscriptions/subscribers/list/{id}': async (b) => ({
    params: { id: idOf(await b.call('POST', '/api/subscriptions/subscribers/list/', { name: b.marker })) },
  }),
  '/api/pos/guests/{id}': async (b) => {
    const guest = await makeGuest(b.db, b.companyId, {
      pos_id: `${fresh(b)}-guest`,
      customer_name: `${b.marker} Guest`,
      last_four_digits: '4242',
      first_location_id: b.locationId,
    });
    return { params: { id: String(guest.id) }, query: { hashid: guest.hashid, pos_id: guest.pos_id } };
  },
  '/api/pos/guests/{id}/cards/{cardId}': async (b) => {
    const guest = await B_ROWS['/api/pos/guests/{id}']!(b);
    const card = await b.call('POST', `/api/pos/guests/${guest.params.id}/cards/`, {
      last_four_digits: '4242',
      name_on_card: b.marker,
    });
    return { params: { id: guest.params.id!, cardId: idOf(card) } };
  },
  '/api/imports/{id}': async (b) => ({
    params: {
      id: idOf(
        await b.call(
          'POST',
          '/api/pos/guests/upload/',
          `customer_name,last_four_digits,pos_id\n${b.marker} Imported,1234,${fresh(b)}\n`,
          'text/csv',
        ),
      ),
    },
  }),
  // Not a row: a numbered file of the rows B's location filter selects, which must hold none of B's.
  '/api/bigdata/files/{kind}/{fileNumber}': async (b) => ({
    params: { kind: 'guest', fileNumber: '1' },
    query: { location_id: String(b.locationId) },
  }),
};

/** The route path up to its last `{param}`: the key of B_ROWS. */
function rowKeyOf(path: string): string {
  return path.slice(0, path.lastIndexOf('}') + 1);
}

/** Every row of every tenant table that belongs to the company, as one text: what "unchanged" compares. */
async function snapshotOf(db: Database, companyId: number): Promise<string> {
  return db.owner(async (sql) => {
    const { rows: tables } = await sql.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE column_name = 'company_id' AND table_schema = 'public' ORDER BY table_name`,
    );
    const parts: string[] = [];
    for (const { table_name: table } of tables) {
      const { rows } = await sql.query<{ rows: string | null }>(
        `SELECT json_agg(t ORDER BY t::text)::text AS rows FROM "${table}" t WHERE company_id = $1`,
        [companyId],
      );
      parts.push(`${table}: ${rows[0]?.rows ?? '[]'}`);
    }
    return parts.join('\n');
  });
}

const FILTERS = ['location_id', 'location_group_id'];

/** Whether a list answer holds nothing: every array empty and every count zero, however it is shaped. */
function isEmptyAnswer(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  if (body === null || typeof body !== 'object') return true;
  return Object.entries(body).every(([key, value]) =>
    // Limits (max_count, page_size) are settings, not figures about rows.
    typeof value === 'number'
      ? !/count|total/.test(key) || /^(max|page)_/.test(key) || value === 0
      : isEmptyAnswer(value),
  );
}

describe('tenancy probe of every route with an id or a location filter', () => {
  let database: TestDatabase;
  let built: BuiltApp;
  let operations: Operation[];
  let ownerA: number;
  let companyB: CompanyB;

  beforeAll(async () => {
    ({ database, built, operations } = await openRouteProbeApp());
    const db = database.db;
    const a = await makeOwnerWithAllFeatures(db, 'Probe A');
    const b = await makeOwnerWithAllFeatures(db, 'Probe B');
    ownerA = a.ownerId;
    const ownerB = b.ownerId;
    const tokenB = (await built.tokens.issue({ userId: ownerB })).access_token;
    const call: CompanyB['call'] = async (method, url, body, contentType = 'application/json') => {
      const response = await built.app.inject({
        method: method as 'POST',
        url,
        headers: { authorization: `Bearer ${tokenB}`, 'content-type': contentType },
        payload: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
      });
      if (response.statusCode >= 300)
        throw new Error(`B's ${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.json<Record<string, unknown>>();
    };
    const marker = `bprobe${randomBytes(4).toString('hex')}`;
    const location = await call('POST', '/api/customers/locations/', { name: `${marker} Place` });
    const group = await call('POST', '/api/customers/groups/', {
      name: `${marker} Group`,
      location_ids: [location.id],
    });
    companyB = {
      db,
      companyId: b.companyId,
      marker,
      locationId: Number(location.id),
      groupId: Number(group.id),
      call,
    };
    // B has people at its location, so a filter that leaked would show them.
    await B_ROWS['/api/pos/guests/{id}']!(companyB);
    await B_ROWS['/api/subscriptions/subscribers/{id}']!(companyB);
  });
  afterAll(async () => {
    await built.app.close();
    await database.drop();
  });

  /** Calls as A's owner with a fresh token (signing out is not probed here: it takes no id). */
  async function callAsA(operation: Operation, url: string) {
    const token = (await built.tokens.issue({ userId: ownerA })).access_token;
    const hasBody = operation.body !== null;
    return built.app.inject({
      method: operation.method as 'GET',
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      ...(hasBody ? { payload: JSON.stringify(sampleOf(operation.body!)) } : {}),
    });
  }

  it("answers B's ids to A with 404 and leaves B's rows as they were", async () => {
    const failures: string[] = [];
    const rows = new Map<string, ProbeRow>();
    const probed = operations.filter((operation) => operation.pathParams.length > 0);
    for (const operation of probed) {
      const key = rowKeyOf(operation.path);
      const factory = B_ROWS[key];
      if (!factory) {
        failures.push(
          `${operation.name}: the probe cannot fill its path ids; add '${key}' to B_ROWS in ` +
            'tests/api/tenancy-probe.test.ts with a factory that makes company B a row of that kind',
        );
        continue;
      }
      if (!rows.has(key)) rows.set(key, await factory(companyB));
    }
    const before = await snapshotOf(companyB.db, companyB.companyId);
    for (const operation of probed) {
      const row = rows.get(rowKeyOf(operation.path));
      if (!row) continue;
      const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => row.params[name] ?? '1');
      const query = new URLSearchParams(row.query ?? {}).toString();
      const response = await callAsA(operation, `${path}${query ? `?${query}` : ''}`);
      const isFile = operation.path.includes('{fileNumber}');
      // Staff-only routes refuse a company's owner before any record is looked up, so no id is revealed.
      const staffOnly =
        operation.path.startsWith('/api/support/') || operation.path.startsWith('/api/hijack');
      const allowed = isFile ? [200, 400, 404] : staffOnly ? [403] : [404];
      if (!allowed.includes(response.statusCode)) {
        failures.push(
          `${operation.name} with B's ids: ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
      if (response.body.includes(companyB.marker)) {
        failures.push(`${operation.name} with B's ids shows B's data: ${response.body.slice(0, 200)}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(await snapshotOf(companyB.db, companyB.companyId)).toBe(before);
    expect(probed.length).toBeGreaterThan(30);
  });

  it("never shows B's rows to A filtering by B's location or group", async () => {
    const failures: string[] = [];
    const filtered = operations.filter(
      (operation) =>
        operation.method === 'GET' &&
        operation.pathParams.length === 0 &&
        operation.queryParams.some((parameter) => FILTERS.includes(parameter.name)),
    );
    for (const operation of filtered) {
      for (const parameter of operation.queryParams.filter((candidate) => FILTERS.includes(candidate.name))) {
        const id = parameter.name === 'location_id' ? companyB.locationId : companyB.groupId;
        const response = await callAsA(operation, `${operation.path}?${parameter.name}=${id}`);
        const label = `${operation.name}?${parameter.name}=B's`;
        if (response.statusCode >= 500 || ![200, 400, 404].includes(response.statusCode)) {
          failures.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        }
        if (response.body.includes(companyB.marker)) {
          failures.push(`${label} shows B's rows: ${response.body.slice(0, 200)}`);
        }
        // Figures leak too: a list that takes B's filter must find nothing (no rows, a zero count).
        const isCsv = String(response.headers['content-type']).startsWith('text/csv');
        const empty = isCsv ? response.body.trim().split('\n').length <= 1 : isEmptyAnswer(response.json());
        if (response.statusCode === 200 && !empty) {
          failures.push(`${label} is not empty: ${response.body.slice(0, 200)}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(filtered.length).toBeGreaterThan(5);
  });
});
