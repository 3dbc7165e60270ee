import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWithServices, type AppOptions, type BuiltApp } from '../../server/app.js';
import { generateCompanyKey } from '../../server/auth/company-token.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import type { Database } from '../../server/db/database.js';
import { receiveFile } from '../../server/imports/pipeline.js';
import { fileStager } from '../../server/imports/staging.js';
import { listAudit } from '../../server/repositories/audit.repository.js';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { createCompanyToken } from '../../server/repositories/company-tokens.repository.js';
import {
  claimImportJob,
  countImportJobs,
  countStagedRows,
  createImportJob,
  readImportChunk,
  storeImportChunk,
} from '../../server/repositories/imports.repository.js';
import { listSubscribers } from '../../server/repositories/subscribers.repository.js';
import { eraseSubscriber } from '../../server/services/customer-erasure.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import type { ImportJob } from '../../src/schemas/imports.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeGuest, makeSubscriber, makeUser, systemScope } from '../support/factories.js';

/**
 * CSV uploads of subscribers and guests through the real app on the real database: every CSV case of the
 * issue, refusals that change nothing, the job's progress and rejected rows, isolation between companies,
 * and a job resumed by a second app on the same database.
 */

type Headers = { authorization: string };
interface Caller {
  companyId: number;
  headers: Headers;
}

/** The app over a database with the given import settings; log lines go to `logs` when given. */
async function buildApp(
  db: Database,
  imports: AppOptions['imports'] = {},
  logs?: string[],
): Promise<BuiltApp> {
  const logStream = logs
    ? new Writable({
        write(chunk: Buffer, _encoding, callback) {
          logs.push(chunk.toString('utf8'));
          callback();
        },
      })
    : undefined;
  const built = await buildAppWithServices({
    db,
    logLevel: logs ? 'info' : 'silent',
    clientDir: null,
    auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
    imports,
    ...(logStream ? { logStream } : {}),
  });
  await built.app.ready();
  return built;
}

/** A new company with every feature, calling with a company API token (which acts as admin). */
async function newCaller(db: Database, name = 'Importer Co'): Promise<Caller> {
  const company = await makeCompany(db, name);
  await db.tenant(systemScope(company.id).companyId, (sql) =>
    setCompanyFeatures(sql, systemScope(company.id), [...ALL_FEATURES]),
  );
  const key = generateCompanyKey();
  await db.tenant(company.id, (sql) =>
    createCompanyToken(sql, company.id, {
      name: 'tests',
      keyPrefix: key.keyPrefix,
      keyHash: key.keyHash,
      createdBy: null,
    }),
  );
  return { companyId: company.id, headers: { authorization: `Token ${key.key}` } };
}

/** A multipart/form-data body holding one file part. */
function multipart(content: string | Buffer, field = 'file', type = 'text/csv') {
  const boundary = '----regulars-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="people.csv"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const SUBSCRIBERS_URL = '/api/subscriptions/subscribers/upload/';
const GUESTS_URL = '/api/pos/guests/upload/';

describe('CSV imports API', () => {
  let database: TestDatabase;
  let db: Database;
  let built: BuiltApp;
  const logs: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
    built = await buildApp(db, { maxBytes: 4096 }, logs);
  });
  afterAll(async () => {
    await built.app.close();
    await database.drop();
  });

  const upload = (
    caller: Caller,
    body: string | Buffer,
    options: { url?: string; type?: string; query?: string; headers?: Record<string, string> } = {},
  ) =>
    built.app.inject({
      method: 'POST',
      url: `${options.url ?? SUBSCRIBERS_URL}${options.query ?? ''}`,
      payload: body,
      headers: { ...caller.headers, 'content-type': options.type ?? 'text/csv', ...options.headers },
    });

  const uploadOk = async (caller: Caller, body: string | Buffer, url = SUBSCRIBERS_URL) => {
    const response = await upload(caller, body, { url });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ImportJob>();
  };

  const subscribers = async (caller: Caller, q?: string) =>
    (
      await db.tenant(caller.companyId, (sql) =>
        listSubscribers(sql, caller.companyId, { q, limit: 100, offset: 0 }),
      )
    ).rows;

  describe('subscribers', () => {
    it('reads a BOM, CRLF, quoted commas and line breaks, blank lines, extra columns and any header case', async () => {
      const caller = await newCaller(db);
      const file =
        '\uFEFF Email ,FIRST_NAME,Last_Name,Favourite Dish,zip,Subscribed\r\n' +
        'ann@example.com,Ann,"Lee, Jr.","Soup,\r\nthen pie",12345,yes\r\n' +
        '\r\n' +
        ',,,,,\r\n' +
        'bo@example.com,Bo,,,,no\r\n';
      const job = await uploadOk(caller, file);
      expect(job).toMatchObject({
        kind: 'subscriber',
        status: 'done',
        file_name: 'upload.csv',
        read: 2,
        processed: 2,
        imported: 2,
        updated: 0,
        duplicates: 0,
        invalid: 0,
        errors: [],
        failure: null,
        failure_code: null,
        rejected_url: `/api/imports/${job.id}/rejected/`,
      });
      expect(job.bytes).toBe(Buffer.byteLength(file, 'utf8'));
      const rows = await subscribers(caller);
      const ann = rows.find((row) => row.email === 'ann@example.com')!;
      expect(ann).toMatchObject({ first_name: 'Ann', last_name: 'Lee, Jr.', zip: '12345', subscribed: true });
      expect(ann.hashid).toMatch(/^[0-9A-Za-z]{10}$/);
      expect(rows.find((row) => row.email === 'bo@example.com')).toMatchObject({ subscribed: false });
    });

    it('reports invalid rows with their line (where a quoted row starts) and field, importing the rest', async () => {
      const caller = await newCaller(db);
      const file = [
        'email,first_name,phone,zip,birthday',
        'good@example.com,"Multi',
        'line",555-123-4567,12345,1990-01-31',
        'not-an-email,Bad,12,1234,1990-02-30',
        ',NoEmail,,,',
        '"spaced@example.com",Ok,,,',
      ].join('\n');
      const job = await uploadOk(caller, file);
      expect(job).toMatchObject({ read: 4, imported: 2, invalid: 2, duplicates: 0 });
      expect(job.errors).toEqual([
        { line: 4, field: 'email', code: 'invalid', params: {}, message: 'Email is not valid' },
        { line: 4, field: 'phone', code: 'invalid', params: {}, message: 'Phone is not valid' },
        { line: 4, field: 'zip', code: 'invalid', params: {}, message: 'Zip code is not valid' },
        { line: 4, field: 'birthday', code: 'invalid', params: {}, message: 'Birthday is not valid' },
        { line: 5, field: 'email', code: 'required', params: {}, message: 'Email is required' },
      ]);
      expect((await subscribers(caller)).map((row) => row.email).sort()).toEqual([
        'good@example.com',
        'spaced@example.com',
      ]);
    });

    it('dedupes within the file on the trimmed email in any case, naming the first line', async () => {
      const caller = await newCaller(db);
      const job = await uploadOk(
        caller,
        'email,first_name\nann@example.com,Ann\n  ANN@Example.COM ,Other\nbo@example.com,Bo\nann@example.com,\n',
      );
      expect(job).toMatchObject({ read: 4, imported: 2, duplicates: 2, updated: 0 });
      expect(job.errors).toEqual([
        {
          line: 3,
          field: 'email',
          code: 'duplicate_in_file',
          params: { line: 2 },
          message: 'Duplicate of line 2',
        },
        {
          line: 5,
          field: 'email',
          code: 'duplicate_in_file',
          params: { line: 2 },
          message: 'Duplicate of line 2',
        },
      ]);
      expect((await subscribers(caller, 'ann@')).map((row) => row.first_name)).toEqual(['Ann']);
    });

    it('stores every phone of a file as E.164, for new subscribers and for known emails it updates', async () => {
      const caller = await newCaller(db);
      await makeSubscriber(db, caller.companyId, { email: 'known.phone@example.com', phone: '' });
      const job = await uploadOk(
        caller,
        'email,phone\n' +
          'formatted.phone@example.com,(503) 555-4585\n' +
          'digits.phone@example.com,5035554585\n' +
          'known.phone@example.com,503.555.0199\n',
      );
      expect(job).toMatchObject({ imported: 2, updated: 1, invalid: 0 });
      const phones = Object.fromEntries(
        (await subscribers(caller, '.phone@')).map((row) => [row.email, row.phone]),
      );
      expect(phones).toEqual({
        'formatted.phone@example.com': '+15035554585',
        'digits.phone@example.com': '+15035554585',
        'known.phone@example.com': '+15035550199',
      });
    });

    it('updates a known email (any case): filled cells win, blank cells keep stored values, counted as updated', async () => {
      const caller = await newCaller(db);
      const other = await newCaller(db, 'Other Co');
      await makeSubscriber(db, caller.companyId, {
        email: 'Known@Example.com',
        first_name: 'Old',
        last_name: 'Keep',
        phone: '555-111-2222',
        zip: '11111',
        birthday: '1980-01-02',
        pos_id: 'P-OLD',
      });
      await makeSubscriber(db, caller.companyId, { email: 'gone@example.com', subscribed: false });
      await makeSubscriber(db, caller.companyId, { email: 'optout@example.com', first_name: 'Opt' });
      await makeSubscriber(db, other.companyId, { email: 'shared@example.com', first_name: 'Theirs' });
      const job = await uploadOk(
        caller,
        'email,first_name,last_name,phone,zip,birthday,pos_id,subscribed\n' +
          ' known@EXAMPLE.com ,New,,,22222,,,\n' +
          'gone@example.com,Back,,,,,,yes\n' +
          'optout@example.com,,,,,,,no\n' +
          'shared@example.com,Mine,,,,,,\n' +
          'KNOWN@example.com,Later,,,,,,\n',
      );
      expect(job).toMatchObject({ read: 5, imported: 1, updated: 3, duplicates: 1, invalid: 0 });
      // A known email repeated in the file: the first row wins, the later one is reported.
      expect(job.errors).toEqual([
        {
          line: 6,
          field: 'email',
          code: 'duplicate_in_file',
          params: { line: 2 },
          message: 'Duplicate of line 2',
        },
      ]);
      // Read straight from the table, not through the import's own report.
      const { rows } = await db.owner((sql) =>
        sql.query<Record<string, unknown>>(
          `SELECT company_id::int, email, first_name, last_name, phone, zip, birthday::text, pos_id, subscribed,
                  unsubscribed_at IS NOT NULL AS unsubscribed_stamped
           FROM subscribers WHERE company_id IN ($1, $2) ORDER BY company_id, lower(email)`,
          [caller.companyId, other.companyId],
        ),
      );
      const stored = { phone: '', zip: '', birthday: null, pos_id: null, unsubscribed_stamped: false };
      expect(rows).toEqual([
        {
          ...stored,
          company_id: caller.companyId,
          email: 'gone@example.com',
          first_name: 'Back',
          last_name: '',
          // A file never re-subscribes anyone.
          subscribed: false,
        },
        {
          company_id: caller.companyId,
          email: 'Known@Example.com',
          first_name: 'New',
          last_name: 'Keep',
          phone: '555-111-2222',
          zip: '22222',
          birthday: '1980-01-02',
          pos_id: 'P-OLD',
          subscribed: true,
          unsubscribed_stamped: false,
        },
        {
          ...stored,
          company_id: caller.companyId,
          email: 'optout@example.com',
          first_name: 'Opt',
          last_name: '',
          subscribed: false,
          unsubscribed_stamped: true,
        },
        {
          ...stored,
          company_id: caller.companyId,
          email: 'shared@example.com',
          first_name: 'Mine',
          last_name: '',
          subscribed: true,
        },
        {
          ...stored,
          company_id: other.companyId,
          email: 'shared@example.com',
          first_name: 'Theirs',
          last_name: '',
          subscribed: true,
        },
      ]);
    });

    it("moves a known subscriber's guest link with a new POS id, and keeps it when the POS id is blank", async () => {
      const caller = await newCaller(db);
      const oldGuest = await makeGuest(db, caller.companyId, { pos_id: 'P-A' });
      const newGuest = await makeGuest(db, caller.companyId, { pos_id: 'P-B' });
      await makeSubscriber(db, caller.companyId, {
        email: 'moves@example.com',
        pos_id: 'P-A',
        guest_id: oldGuest.id,
      });
      await makeSubscriber(db, caller.companyId, {
        email: 'stays@example.com',
        pos_id: 'P-A',
        guest_id: oldGuest.id,
      });
      const job = await uploadOk(caller, 'email,pos_id\nmoves@example.com,P-B\nstays@example.com,\n');
      expect(job).toMatchObject({ read: 2, imported: 0, updated: 2 });
      const { rows } = await db.owner((sql) =>
        sql.query<{ email: string; pos_id: string; guest_id: number }>(
          'SELECT email, pos_id, guest_id::int FROM subscribers WHERE company_id = $1 ORDER BY email',
          [caller.companyId],
        ),
      );
      expect(rows).toEqual([
        { email: 'moves@example.com', pos_id: 'P-B', guest_id: newGuest.id },
        { email: 'stays@example.com', pos_id: 'P-A', guest_id: oldGuest.id },
      ]);
    });

    it('links an imported subscriber to the one POS guest with its POS id, and records consent', async () => {
      const caller = await newCaller(db);
      const guest = await makeGuest(db, caller.companyId, { pos_id: 'P-1', customer_name: 'Ana' });
      await makeGuest(db, caller.companyId, { pos_id: 'P-2' });
      await makeGuest(db, caller.companyId, { pos_id: 'P-2' });
      await uploadOk(caller, 'email,pos_id,subscribed\nana@example.com,P-1,yes\ntwo@example.com,P-2,no\n');
      const [ana] = await subscribers(caller, 'ana@');
      expect(ana).toMatchObject({ guest_id: guest.id, pos_id: 'P-1' });
      expect(ana!.consent_at).not.toBeNull();
      // Two guests share P-2: which one is meant is unknown, so none is linked; no consent without subscribing.
      const [two] = await subscribers(caller, 'two@');
      expect(two).toMatchObject({ guest_id: null, consent_at: null });
    });

    it('creates nothing new when the same file is uploaded twice: the second time updates every row', async () => {
      const caller = await newCaller(db);
      const file = 'email,first_name\na@example.com,A\nb@example.com,B\nc@example.com,C\n';
      expect(await uploadOk(caller, file)).toMatchObject({ imported: 3, duplicates: 0 });
      expect(await uploadOk(caller, file)).toMatchObject({ read: 3, imported: 0, updated: 3, duplicates: 0 });
      expect(await subscribers(caller)).toHaveLength(3);
    });

    it('takes a multipart form with the file field, and its file name', async () => {
      const caller = await newCaller(db);
      const form = multipart('email\nform@example.com\n');
      const response = await upload(caller, form.payload, { type: form.headers['content-type'] });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<ImportJob>()).toMatchObject({ file_name: 'people.csv', imported: 1 });
      const named = await upload(caller, 'email\nraw@example.com\n', { query: '?file_name=%20list.csv' });
      expect(named.json<ImportJob>()).toMatchObject({ file_name: 'list.csv', imported: 1 });
      const disposed = await upload(caller, 'email\ncd@example.com\n', {
        headers: { 'content-disposition': 'attachment; filename="from-header.csv"' },
      });
      expect(disposed.json<ImportJob>().file_name).toBe('from-header.csv');
    });

    it('keeps a header file name with an encoded NUL, replaced, instead of failing', async () => {
      const caller = await newCaller(db);
      const response = await upload(caller, 'email\nnul@example.com\n', {
        headers: { 'content-disposition': "attachment; filename*=UTF-8''a%00b.csv" },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<ImportJob>().file_name).not.toContain('\u0000');
      expect(response.json<ImportJob>().file_name).toBe('a\uFFFDb.csv');
    });

    it('names a missing required column and changes nothing', async () => {
      const caller = await newCaller(db);
      const response = await upload(caller, 'first_name,zip\nAnn,12345\n');
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'validation_failed',
        fields: { email: 'The column email is missing' },
      });
      expect(await db.tenant(caller.companyId, (sql) => countImportJobs(sql, caller.companyId))).toBe(0);
      expect(await subscribers(caller)).toEqual([]);
    });

    it('refuses a file over the size limit with 413, raw or in a form, leaving no job and no rows', async () => {
      const caller = await newCaller(db);
      // Valid rows first, so rows were staged before the limit was passed.
      const big = `email\n${Array.from({ length: 400 }, (_, i) => `person${i}@example.com`).join('\n')}\n`;
      expect(Buffer.byteLength(big)).toBeGreaterThan(4096);
      const raw = await upload(caller, big);
      expect(raw.statusCode).toBe(413);
      expect(raw.json().error.code).toBe('file_too_large');
      const form = multipart(big);
      const inForm = await upload(caller, form.payload, { type: form.headers['content-type'] });
      expect(inForm.statusCode).toBe(413);
      expect(await db.tenant(caller.companyId, (sql) => countImportJobs(sql, caller.companyId))).toBe(0);
      expect(await subscribers(caller)).toEqual([]);
    });

    it('refuses what is not CSV: 415 for other content types, 400 for binary, non-UTF-8 or empty files', async () => {
      const caller = await newCaller(db);
      const json = await upload(caller, '{"email":"a@example.com"}', { type: 'application/json' });
      expect(json.statusCode).toBe(415);
      expect(json.json().error.code).toBe('unsupported_media_type');
      expect((await upload(caller, Buffer.from([1, 2, 3]), { type: 'image/png' })).statusCode).toBe(415);
      const pngForm = multipart(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'file', 'image/png');
      expect(
        (await upload(caller, pngForm.payload, { type: pngForm.headers['content-type'] })).statusCode,
      ).toBe(415);

      const nul = await upload(caller, Buffer.from('email\na@example.com\n\u0000\u0001', 'utf8'));
      expect(nul.statusCode).toBe(400);
      expect(nul.json().error.fields.file).toMatch(/binary/);
      const latin1 = await upload(
        caller,
        Buffer.from('email,first_name\nzoe@example.com,Zo\xeb\n', 'latin1'),
      );
      expect(latin1.statusCode).toBe(400);
      expect(latin1.json().error.fields.file).toMatch(/UTF-8/);
      for (const blank of ['\r\n\r\n', '']) {
        const empty = await upload(caller, blank);
        expect(empty.statusCode).toBe(400);
        expect(empty.json().error.fields.file).toMatch(/empty/);
      }
      const wrongField = multipart('email\na@example.com\n', 'attachment');
      const noFile = await upload(caller, wrongField.payload, { type: wrongField.headers['content-type'] });
      expect(noFile.statusCode).toBe(400);
      expect(noFile.json().error.fields.file).toMatch(/field named file/);

      expect(await db.tenant(caller.companyId, (sql) => countImportJobs(sql, caller.companyId))).toBe(0);
      expect(await subscribers(caller)).toEqual([]);
    });

    it('lets an analyst follow a job but not upload', async () => {
      const caller = await newCaller(db);
      const job = await uploadOk(caller, 'email\nq@example.com\n');
      const analyst = await makeUser(db, caller.companyId, { role: 'analyst' });
      const headers = {
        authorization: `Bearer ${(await built.tokens.issue({ userId: analyst.id })).access_token}`,
      };
      const read = await built.app.inject({ method: 'GET', url: `/api/imports/${job.id}/`, headers });
      expect(read.statusCode).toBe(200);
      expect(read.json<ImportJob>()).toMatchObject({ id: job.id, status: 'done', imported: 1 });
      expect((await upload({ ...caller, headers }, 'email\nr@example.com\n')).statusCode).toBe(403);
    });
  });

  describe('guests', () => {
    it('imports guests, deduping on name (any case) plus card digits within the file, updating known guests', async () => {
      const caller = await newCaller(db);
      const known = await makeGuest(db, caller.companyId, {
        customer_name: 'Known Person',
        last_four_digits: '1111',
      });
      const file = [
        'Customer_Name,LAST_FOUR_DIGITS,pos_id,ignored',
        'Jo Smith,4242,P-1,x',
        'jo smith,4242,P-2,x',
        'Jo Smith,9999,P-3,x',
        'KNOWN person,1111,P-4,x',
        'Bad Digits,42,P-5,x',
        'No Pos,1234,,x',
      ].join('\r\n');
      const job = await uploadOk(caller, file, GUESTS_URL);
      expect(job).toMatchObject({
        kind: 'guest',
        read: 6,
        imported: 2,
        updated: 1,
        duplicates: 1,
        invalid: 2,
      });
      expect(job.errors).toEqual([
        {
          line: 3,
          field: 'customer_name',
          code: 'duplicate_in_file',
          params: { line: 2 },
          message: 'Duplicate of line 2',
        },
        {
          line: 6,
          field: 'last_four_digits',
          code: 'invalid',
          params: {},
          message: 'Last four digits is not valid',
        },
        { line: 7, field: 'pos_id', code: 'required', params: {}, message: 'POS id is required' },
      ]);
      // The known guest took the file's POS id and kept its name's spelling; no second one was made.
      const stored = await db.owner((sql) =>
        sql.query<{ id: number; customer_name: string; pos_id: string }>(
          `SELECT id::int, customer_name, pos_id FROM guests
           WHERE company_id = $1 AND last_four_digits = '1111'`,
          [caller.companyId],
        ),
      );
      expect(stored.rows).toEqual([{ id: known.id, customer_name: 'Known Person', pos_id: 'P-4' }]);
      // The same file again finds every valid row already there and updates it.
      expect(await uploadOk(caller, file, GUESTS_URL)).toMatchObject({
        imported: 0,
        updated: 3,
        duplicates: 1,
        invalid: 2,
      });
    });

    it("updates the company's own matching guest only, the oldest of look-alikes, and never another company's", async () => {
      const caller = await newCaller(db);
      const other = await newCaller(db, 'Other Co');
      const mia = await makeGuest(db, caller.companyId, {
        customer_name: 'Mia Wong',
        last_four_digits: '1234',
        pos_id: 'OLD-1',
      });
      const otherCard = await makeGuest(db, caller.companyId, {
        customer_name: 'Mia Wong',
        last_four_digits: '5678',
        pos_id: 'OLD-2',
      });
      const twin = await makeGuest(db, caller.companyId, {
        customer_name: 'Twin',
        last_four_digits: '7777',
        pos_id: 'T-1',
      });
      const laterTwin = await makeGuest(db, caller.companyId, {
        customer_name: 'twin',
        last_four_digits: '7777',
        pos_id: 'T-2',
      });
      const theirMia = await makeGuest(db, other.companyId, {
        customer_name: 'Mia Wong',
        last_four_digits: '1234',
        pos_id: 'THEIRS-1',
      });
      const theirOnly = await makeGuest(db, other.companyId, {
        customer_name: 'Only There',
        last_four_digits: '4321',
        pos_id: 'THEIRS-2',
      });
      const job = await uploadOk(
        caller,
        'customer_name,last_four_digits,pos_id\n' +
          'mia wong,1234,NEW-1\n' +
          'TWIN,7777,NEW-T\n' +
          'Only There,4321,MINE\n' +
          'Mia Wong,1234,NEW-AGAIN\n',
        GUESTS_URL,
      );
      expect(job).toMatchObject({ read: 4, imported: 1, updated: 2, duplicates: 1, invalid: 0 });
      const { rows } = await db.owner((sql) =>
        sql.query<{ id: number; company_id: number; customer_name: string; pos_id: string }>(
          `SELECT id::int, company_id::int, customer_name, pos_id FROM guests
           WHERE company_id IN ($1, $2) ORDER BY company_id, id`,
          [caller.companyId, other.companyId],
        ),
      );
      expect(rows).toEqual([
        { id: mia.id, company_id: caller.companyId, customer_name: 'Mia Wong', pos_id: 'NEW-1' },
        { id: otherCard.id, company_id: caller.companyId, customer_name: 'Mia Wong', pos_id: 'OLD-2' },
        { id: twin.id, company_id: caller.companyId, customer_name: 'Twin', pos_id: 'NEW-T' },
        { id: laterTwin.id, company_id: caller.companyId, customer_name: 'twin', pos_id: 'T-2' },
        { id: expect.any(Number), company_id: caller.companyId, customer_name: 'Only There', pos_id: 'MINE' },
        { id: theirMia.id, company_id: other.companyId, customer_name: 'Mia Wong', pos_id: 'THEIRS-1' },
        { id: theirOnly.id, company_id: other.companyId, customer_name: 'Only There', pos_id: 'THEIRS-2' },
      ]);
    });

    it('treats the missing fields of a short row as empty, and finishes a file with only a header', async () => {
      const caller = await newCaller(db);
      const job = await uploadOk(caller, 'customer_name,last_four_digits,pos_id\nJo Short\n', GUESTS_URL);
      expect(job).toMatchObject({ read: 1, invalid: 1, imported: 0 });
      expect(job.errors).toEqual([
        {
          line: 2,
          field: 'last_four_digits',
          code: 'required',
          params: {},
          message: 'Last four digits is required',
        },
        { line: 2, field: 'pos_id', code: 'required', params: {}, message: 'POS id is required' },
      ]);
      const empty = await uploadOk(caller, 'customer_name,last_four_digits,pos_id\r\n', GUESTS_URL);
      expect(empty).toMatchObject({ status: 'done', read: 0, processed: 0, imported: 0, errors: [] });
    });

    it('needs all three guest columns', async () => {
      const caller = await newCaller(db);
      const response = await upload(caller, 'customer_name\nJo\n', { url: GUESTS_URL });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().error.fields).sort()).toEqual(['last_four_digits', 'pos_id']);
    });
  });

  describe('jobs', () => {
    it('downloads rejected rows as CSV with line, reason and the original columns, formulas neutralised', async () => {
      const caller = await newCaller(db);
      const job = await uploadOk(
        caller,
        'email,first_name,Notes\n=cmd|calc,Eve,"a, b"\nok@example.com,Ok,\nOK@example.com,Again,@x\n',
      );
      const response = await built.app.inject({
        method: 'GET',
        url: `/api/imports/${job.id}/rejected/`,
        headers: caller.headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/csv/);
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="import-${job.id}-rejected.csv"`,
      );
      expect(response.body).toBe(
        'line,reason,email,first_name,Notes\r\n' +
          '2,Email is not valid,\'=cmd|calc,Eve,"a, b"\r\n' +
          "4,Duplicate of line 3,OK@example.com,Again,'@x\r\n",
      );
    });

    it('forgets what imports kept of a deleted subscriber: the rejected-rows download no longer has them', async () => {
      const caller = await newCaller(db);
      const job = await uploadOk(
        caller,
        'email,zip\nkeep@example.com,97201\nGone@Example.com,97201\n gone@example.com ,1\nother@example.com,2\n',
      );
      const rejected = async () =>
        (
          await built.app.inject({
            method: 'GET',
            url: `/api/imports/${job.id}/rejected/`,
            headers: caller.headers,
          })
        ).body;
      expect(await rejected()).toContain('gone@example.com');
      const gone = (await subscribers(caller, 'gone@')).at(0)!;
      const scope = { companyId: caller.companyId, userId: null, actorUserId: null };
      expect(await db.tenant(scope.companyId, (sql) => eraseSubscriber(sql, scope, gone.id))).toBe(true);
      const after = await rejected();
      expect(after.toLowerCase()).not.toContain('gone@example.com');
      expect(after).toContain('other@example.com');
      const staged = await db.owner((sql) =>
        sql.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM import_rows
           WHERE job_id = $1 AND EXISTS (SELECT 1 FROM unnest(raw) c WHERE lower(c) LIKE '%gone@%')`,
          [job.id],
        ),
      );
      expect(staged.rows[0]!.count).toBe(0);
    });

    it("answers 404 for another company's job, on the job and its rejected rows", async () => {
      const owner = await newCaller(db, 'Owner Co');
      const other = await newCaller(db, 'Other Co');
      const job = await uploadOk(owner, 'email\nmine@example.com\n');
      for (const url of [`/api/imports/${job.id}/`, `/api/imports/${job.id}/rejected/`]) {
        const response = await built.app.inject({ method: 'GET', url, headers: other.headers });
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe('not_found');
      }
    });

    it('audits each import once with counts only, and keeps personal data out of the logs', async () => {
      const caller = await newCaller(db);
      const job = await uploadOk(caller, 'email,first_name\nsecret.person@example.com,Zebulon\nbad,\n');
      const audit = await db.tenant(caller.companyId, (sql) =>
        listAudit(sql, caller.companyId, { entity: 'import_job' }),
      );
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'create', entity_id: String(job.id) });
      expect(audit[0]!.after).toEqual({
        kind: 'subscriber',
        read: 2,
        imported: 1,
        updated: 0,
        duplicates: 0,
        invalid: 1,
      });
      const logged = logs.join('');
      expect(logged).toContain('/api/subscriptions/subscribers/upload/');
      expect(logged).not.toContain('secret.person');
      expect(logged).not.toContain('Zebulon');
    });
  });
});

describe('CSV import jobs across restarts', () => {
  let database: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
  });
  afterAll(() => database.drop());

  /** Polls the job until it leaves queued and running. */
  async function followed(app: BuiltApp['app'], caller: Caller, id: number): Promise<ImportJob> {
    for (;;) {
      const response = await app.inject({
        method: 'GET',
        url: `/api/imports/${id}/`,
        headers: caller.headers,
      });
      expect(response.statusCode).toBe(200);
      const job = response.json<ImportJob>();
      if (job.status === 'done' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('answers 202 when the merge outlasts the wait, and the job is followed to the end', async () => {
    const caller = await newCaller(db);
    const file = `email\n${Array.from({ length: 9 }, (_, i) => `p${i}@example.com`).join('\n')}\n`;
    // No runner in this process, so the merge cannot finish within the wait.
    const receiver = await buildApp(db, { runJobs: false, waitMs: 0 });
    const response = await receiver.app.inject({
      method: 'POST',
      url: SUBSCRIBERS_URL,
      payload: file,
      headers: { ...caller.headers, 'content-type': 'text/csv' },
    });
    await receiver.app.close();
    expect(response.statusCode).toBe(202);
    expect(response.json<ImportJob>()).toMatchObject({
      status: 'queued',
      read: 9,
      processed: 0,
      imported: 0,
    });
    const worker = await buildApp(db, { batchRows: 2 });
    try {
      const job = await followed(worker.app, caller, response.json<ImportJob>().id);
      expect(job).toMatchObject({ status: 'done', read: 9, processed: 9, imported: 9 });
      expect(job.finished_at).not.toBeNull();
    } finally {
      await worker.app.close();
    }
  });

  it("takes turns between companies: a small file queued behind another company's large one finishes first", async () => {
    const large = await newCaller(db, 'Large File Co');
    const small = await newCaller(db, 'Small File Co');
    const receiver = await buildApp(db, { runJobs: false, waitMs: 0 });
    const upload = async (caller: Caller, rows: number) => {
      const file = `email\n${Array.from({ length: rows }, (_, i) => `t${i}@example.com`).join('\n')}\n`;
      const response = await receiver.app.inject({
        method: 'POST',
        url: SUBSCRIBERS_URL,
        payload: file,
        headers: { ...caller.headers, 'content-type': 'text/csv' },
      });
      expect(response.statusCode).toBe(202);
      return response.json<ImportJob>().id;
    };
    const largeId = await upload(large, 40);
    const smallId = await upload(small, 4);
    await receiver.app.close();
    // Two rows a turn: the large file needs 40 turns, the small one 4, and they alternate.
    const worker = await buildApp(db, { batchRows: 2, stageRows: 2 });
    try {
      const largeJob = await followed(worker.app, large, largeId);
      const smallJob = await followed(worker.app, small, smallId);
      expect(largeJob).toMatchObject({ status: 'done', imported: 40 });
      expect(smallJob).toMatchObject({ status: 'done', imported: 4 });
      expect(Date.parse(smallJob.finished_at!)).toBeLessThan(Date.parse(largeJob.finished_at!));
    } finally {
      await worker.app.close();
    }
  });

  it('resumes a job left running from its last committed batch, counting nothing twice', async () => {
    const caller = await newCaller(db, 'Resume Co');
    await makeSubscriber(db, caller.companyId, { email: 'existing@example.com' });
    const rows = Array.from({ length: 10 }, (_, i) => `r${i}@example.com`);
    rows.splice(4, 0, 'existing@example.com', 'R1@example.com', 'broken');
    // The first process: receives the file but merges nothing itself.
    const first = await buildApp(db, { runJobs: false, waitMs: 0 });
    const response = await first.app.inject({
      method: 'POST',
      url: SUBSCRIBERS_URL,
      payload: `email\n${rows.join('\n')}\n`,
      headers: { ...caller.headers, 'content-type': 'text/csv' },
    });
    expect(response.statusCode).toBe(202);
    const id = response.json<ImportJob>().id;
    // A worker takes the job, merges seven rows, and its process dies.
    expect(await db.platform((sql) => claimImportJob(sql, 60_000))).toEqual({
      id,
      company_id: caller.companyId,
    });
    expect(await fileStager(db).stageNext(caller.companyId, id, 7)).toBe('staged');
    const midway = await first.app.inject({
      method: 'GET',
      url: `/api/imports/${id}/`,
      headers: caller.headers,
    });
    expect(midway.json<ImportJob>()).toMatchObject({
      status: 'running',
      read: 13,
      processed: 7,
      imported: 4,
      updated: 1,
      duplicates: 1,
      invalid: 1,
    });
    await first.app.close();

    // The second process starts on the same database and takes the abandoned job over.
    const second = await buildApp(db, { staleAfterMs: 0, batchRows: 3, stageRows: 3 });
    try {
      const job = await followed(second.app, caller, id);
      expect(job).toMatchObject({
        status: 'done',
        read: 13,
        processed: 13,
        imported: 10,
        updated: 1,
        duplicates: 1,
        invalid: 1,
      });
      expect(
        (
          await db.tenant(caller.companyId, (sql) =>
            listSubscribers(sql, caller.companyId, { limit: 100, offset: 0 }),
          )
        ).count,
      ).toBe(11);
      expect(
        await db.tenant(caller.companyId, (sql) =>
          listAudit(sql, caller.companyId, { entity: 'import_job' }),
        ),
      ).toHaveLength(1);
    } finally {
      await second.app.close();
    }
  });

  it('fails an upload left receiving by a stopped process and removes its stored bytes', async () => {
    const caller = await newCaller(db, 'Interrupted Co');
    const scope = systemScope(caller.companyId);
    const id = await db.tenant(scope.companyId, (sql) =>
      createImportJob(sql, scope, {
        kind: 'subscriber',
        fileName: 'cut.csv',
        header: ['email'],
      }),
    );
    const chunk = { seq: 1, text: 'email\na@example.com\n' };
    await db.tenant(caller.companyId, (sql) =>
      storeImportChunk(sql, caller.companyId, id, chunk, { bytes: 20, read: 1 }),
    );
    const built = await buildApp(db, { staleAfterMs: 0 });
    try {
      const job = await followed(built.app, caller, id);
      expect(job).toMatchObject({
        status: 'failed',
        failure: 'The upload was interrupted',
        failure_code: 'interrupted',
        imported: 0,
      });
      expect(
        await db.tenant(caller.companyId, (sql) => readImportChunk(sql, caller.companyId, id, 1)),
      ).toBeNull();
      expect(
        (
          await db.tenant(caller.companyId, (sql) =>
            listSubscribers(sql, caller.companyId, { limit: 10, offset: 0 }),
          )
        ).count,
      ).toBe(0);
    } finally {
      await built.app.close();
    }
  });

  it('receives a file without the HTTP layer: counted and stored, no row staged until a worker takes it', async () => {
    const caller = await newCaller(db, 'Pipeline Co');
    async function* source() {
      yield Buffer.from('email\nx@example.com\n');
    }
    const received = await receiveFile(
      db,
      systemScope(caller.companyId),
      { kind: 'subscriber', fileName: 'x.csv', source: source(), maxBytes: 1000 },
      new Set(),
    );
    expect(received).toMatchObject({ read: 1, bytes: 20 });
    expect(
      await db.tenant(caller.companyId, (sql) => countStagedRows(sql, caller.companyId, received.jobId)),
    ).toBe(0);
    const stored = await db.tenant(caller.companyId, (sql) =>
      readImportChunk(sql, caller.companyId, received.jobId, 1),
    );
    expect(stored).toBe('email\nx@example.com\n');
  });
});
