import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAppWithServices, type BuiltApp } from '../../server/app.js';
import { generateCompanyKey } from '../../server/auth/company-token.js';
import { authSettingsFrom } from '../../server/auth/settings.js';
import type { Database } from '../../server/db/database.js';
import { createCompanyToken } from '../../server/repositories/company-tokens.repository.js';
import { createImportJob } from '../../server/repositories/imports.repository.js';
import { eraseGuest } from '../../server/services/customer-erasure.js';
import type { ImportJob } from '../../src/schemas/imports.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, makeLocation, makeUser, systemScope } from '../support/factories.js';

/**
 * POS checks through CSV (`POST /api/pos/checks/upload/`) on the import pipeline, with turns of a few rows so
 * checks meet batch edges: the documented sample against a plain reading of it, a second upload that adds
 * nothing, rows rejected with their line and reason, another company's location, and who may upload.
 */

const URL = '/api/pos/checks/upload/';
const HEADER =
  'location_id,check_number,opened_at,closed_at,total,subtotal,tax,tip,discount,guest_count,revenue_center,' +
  'customer_name,last_four_digits,pos_id,menu_item,category,quantity,amount';

interface Caller {
  companyId: number;
  headers: { authorization: string };
}

/** A new company calling with a company API token. */
async function newCaller(db: Database, name: string): Promise<Caller> {
  const company = await makeCompany(db, name);
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

/** What the company holds, read as the owner so nothing filters it. */
async function stored(db: Database, companyId: number) {
  return db.owner(async (sql) => {
    const one = async <Row>(text: string) => (await sql.query<Row>(text, [companyId])).rows;
    return {
      checks: await one<{ location_id: number; check_number: string; total_cents: number; lines: number }>(
        `SELECT c.location_id, c.check_number, c.total_cents,
                (SELECT count(*)::int FROM pos_check_lines l WHERE l.check_id = c.id) AS lines
         FROM pos_checks c WHERE c.company_id = $1 ORDER BY c.location_id, c.check_number`,
      ),
      lines: await one<{ quantity: number; amount_cents: number }>(
        'SELECT quantity, amount_cents FROM pos_check_lines WHERE company_id = $1',
      ),
      guests: await one<{
        pos_id: string;
        hashid: string;
        customer_name: string;
        last_four_digits: string;
        visit_count: number;
        total_spend_cents: number;
      }>(
        `SELECT pos_id, hashid, customer_name, last_four_digits, visit_count, total_spend_cents
         FROM guests WHERE company_id = $1`,
      ),
    };
  });
}

/** Cents of a dollar amount written with at most two decimals, read as text (no float arithmetic). */
function cents(text: string): number {
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** What a plain checks file holds (no quoted cells), read without the app's code. */
function expectedOf(text: string) {
  const [header, ...lines] = text.trim().split('\n');
  const names = header!.split(',');
  const rows = lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i]!, cell])));
  const checks = new Map<string, Record<string, string>>();
  for (const row of rows) checks.set([row.location_id, row.check_number, row.closed_at].join('|'), row);
  const guests = new Map<string, { visits: number; spend: number }>();
  for (const check of checks.values()) {
    const who =
      check.pos_id || (check.customer_name ? `${check.customer_name}|${check.last_four_digits}` : '');
    if (!who) continue;
    const guest = guests.get(who) ?? { visits: 0, spend: 0 };
    guest.visits += 1;
    guest.spend += cents(check.total!);
    guests.set(who, guest);
  }
  const sold = rows.filter((row) => row.menu_item !== '');
  return {
    rows: rows.length,
    checks: checks.size,
    totalCents: [...checks.values()].reduce((sum, check) => sum + cents(check.total!), 0),
    lines: sold.length,
    units: sold.reduce((sum, row) => sum + Number(row.quantity), 0),
    lineCents: sold.reduce((sum, row) => sum + cents(row.amount!), 0),
    guests,
  };
}

describe('POS checks CSV upload', () => {
  let database: TestDatabase;
  let db: Database;
  let built: BuiltApp;

  beforeAll(async () => {
    database = await openTestDatabase();
    db = database.db;
    built = await buildAppWithServices({
      db,
      logLevel: 'silent',
      clientDir: null,
      auth: authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' }),
      // Turns of four rows: most checks of the files below would straddle a batch edge.
      imports: { stageRows: 4, batchRows: 4, restRatio: 0, pollMs: 20, waitMs: 60_000 },
    });
    await built.app.ready();
  });
  afterAll(async () => {
    await built.app.close();
    await database.drop();
  });

  const upload = (caller: Caller, body: string) =>
    built.app.inject({
      method: 'POST',
      url: URL,
      payload: body,
      headers: { ...caller.headers, 'content-type': 'text/csv' },
    });
  const uploadOk = async (caller: Caller, body: string) => {
    const response = await upload(caller, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ImportJob>();
  };
  const rejectedCsv = async (caller: Caller, job: ImportJob) => {
    const response = await built.app.inject({
      method: 'GET',
      url: job.rejected_url,
      headers: caller.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('stores the documented sample as a plain reading of it says, and adds nothing when it comes again', async () => {
    const caller = await newCaller(db, 'Sample Co');
    const first = await makeLocation(db, caller.companyId, 'First');
    const second = await makeLocation(db, caller.companyId, 'Second');
    // The sample's locations 1 and 2 are this company's two.
    const sample = readFileSync('docs/samples/pos-checks.csv', 'utf8')
      .split('\n')
      .map((line) => line.replace(/^1,/, `${first.id},`).replace(/^2,/, `${second.id},`))
      .join('\n');
    const expected = expectedOf(sample);

    const job = await uploadOk(caller, sample);
    expect(job).toMatchObject({
      kind: 'checks',
      status: 'done',
      read: expected.rows,
      processed: expected.rows,
      imported: expected.rows,
      duplicates: 0,
      invalid: 0,
      checks: { created: expected.checks, unchanged: 0, rejected: 0 },
      errors: [],
    });
    const after = await stored(db, caller.companyId);
    expect(after.checks).toHaveLength(expected.checks);
    expect(after.checks.reduce((sum, check) => sum + check.total_cents, 0)).toBe(expected.totalCents);
    expect(after.lines).toHaveLength(expected.lines);
    expect(after.lines.reduce((sum, line) => sum + line.quantity, 0)).toBe(expected.units);
    expect(after.lines.reduce((sum, line) => sum + line.amount_cents, 0)).toBe(expected.lineCents);
    const guests = new Map(
      after.guests.map((guest) => [
        guest.pos_id === guest.hashid ? `${guest.customer_name}|${guest.last_four_digits}` : guest.pos_id,
        { visits: guest.visit_count, spend: guest.total_spend_cents },
      ]),
    );
    expect(guests).toEqual(expected.guests);

    const again = await uploadOk(caller, sample);
    expect(again).toMatchObject({
      status: 'done',
      imported: 0,
      duplicates: expected.rows,
      invalid: 0,
      checks: { created: 0, unchanged: expected.checks, rejected: 0 },
    });
    expect(again.errors[0]).toMatchObject({ line: 2, code: 'already_exists', field: 'check_number' });
    expect(await stored(db, caller.companyId)).toEqual(after);
  });

  it('rejects a check whole for one bad row, naming its line and column; the other checks are stored', async () => {
    const caller = await newCaller(db, 'Rules Co');
    const other = await newCaller(db, 'Other Co');
    const home = (await makeLocation(db, caller.companyId, 'Home')).id;
    const theirs = (await makeLocation(db, other.companyId, 'Theirs')).id;
    const row = (location: number, number: string, total: string, item: string, amount: string, extra = '') =>
      `${location},${number},2025-04-01T18:00:00Z,2025-04-01T19:00:00Z,${total},,,,,,,,,${extra},${item},Food,1,${amount}`;
    const file = [
      HEADER,
      row(home, 'A1', '20.00', 'Soup', '8.00', 'P-1'), // line 2: stored with line 3
      row(home, 'A1', '20.00', 'Steak', '12.00', 'P-1'),
      row(home, 'B1', '15.00', 'Soup', '8.00'), // line 4: B1 is refused for line 5
      row(home, 'B1', '16.00', 'Cake', '7.00'), // line 5: total disagrees
      row(home, 'C1', '9.00', 'Tea', '9.001'), // line 6: three decimals
      row(theirs, 'D1', '5.00', 'Tea', '5.00'), // line 7: another company's location
      row(home, 'E1', '', 'Tea', '5.00'), // line 8: no total
      row(home, 'A1', '20.00', 'Pie', '4.00', 'P-1'), // line 9: A1 again, apart from its rows
    ].join('\n');

    const job = await uploadOk(caller, file);
    const followed = await built.app.inject({
      method: 'GET',
      url: `/api/imports/${job.id}/`,
      headers: caller.headers,
    });
    expect(followed.json()).toEqual(job);
    expect(job).toMatchObject({
      status: 'done',
      read: 8,
      imported: 2,
      duplicates: 1,
      invalid: 5,
      checks: { created: 1, unchanged: 0, rejected: 4 },
    });
    expect(job.errors.map(({ line, field, code }) => ({ line, field, code }))).toEqual([
      { line: 4, field: null, code: 'invalid' },
      { line: 5, field: 'total', code: 'invalid' },
      { line: 6, field: 'amount', code: 'invalid' },
      { line: 7, field: 'location_id', code: 'invalid' },
      { line: 8, field: 'total', code: 'required' },
      { line: 9, field: 'check_number', code: 'duplicate_in_file' },
    ]);
    expect(job.errors.find((error) => error.line === 7)!.message).toBe(`location ${theirs} does not exist`);
    const after = await stored(db, caller.companyId);
    expect(after.checks).toEqual([{ location_id: home, check_number: 'A1', total_cents: 2000, lines: 2 }]);
    expect(after.guests).toMatchObject([{ pos_id: 'P-1', visit_count: 1, total_spend_cents: 2000 }]);
    // Nothing reached the other company.
    expect((await stored(db, other.companyId)).checks).toEqual([]);

    const rejected = (await rejectedCsv(caller, job)).trim().split('\r\n');
    expect(rejected[0]).toBe(`line,reason,${HEADER}`);
    expect(rejected.slice(1).map((line) => line.split(',')[0])).toEqual(['4', '5', '6', '7', '8', '9']);
    expect(rejected[2]).toContain('total differs from line 4 of the same check');
  });

  it('keeps a long check whole across turns and counts a file without rows', async () => {
    const caller = await newCaller(db, 'Long Co');
    const home = (await makeLocation(db, caller.companyId, 'Home')).id;
    const rows: string[] = [];
    // Checks of 1, 7 and 3 lines in turns of four rows.
    for (const [number, count] of [
      ['L1', 1],
      ['L2', 7],
      ['L3', 3],
    ] as const) {
      for (let i = 0; i < count; i++) {
        rows.push(
          `${home},${number},2025-05-01T12:00:00Z,2025-05-01T13:00:00Z,${count}.00,,,,,,,,,,Item ${i},,1,1.00`,
        );
      }
    }
    const job = await uploadOk(caller, [HEADER, ...rows].join('\n'));
    expect(job).toMatchObject({
      status: 'done',
      imported: 11,
      checks: { created: 3, unchanged: 0, rejected: 0 },
    });
    expect((await stored(db, caller.companyId)).checks.map((check) => check.lines)).toEqual([1, 7, 3]);

    const empty = await uploadOk(caller, `${HEADER}\n`);
    expect(empty).toMatchObject({
      status: 'done',
      read: 0,
      checks: { created: 0, unchanged: 0, rejected: 0 },
    });
  });

  it('forgets what a checks import kept of a deleted guest: the rejected rows no longer name them', async () => {
    const caller = await newCaller(db, 'Erase Co');
    const home = (await makeLocation(db, caller.companyId, 'Home')).id;
    const line = (number: string, who: string) =>
      `${home},${number},2025-06-01T12:00:00Z,2025-06-01T13:00:00Z,5.00,,,,,,,${who},Tea,,1,5.00`;
    const file = [
      HEADER,
      line('Z1', 'Zed Quist,9999,'),
      line('Y1', ',,POS-YVES'),
      line('X1', 'Xia Li,1234,'),
    ].join('\n');
    await uploadOk(caller, file);
    // Sent again, every row is kept as unchanged, with the guests' cells.
    const again = await uploadOk(caller, file);
    expect(await rejectedCsv(caller, again)).toContain('Zed Quist');
    const guests = (await stored(db, caller.companyId)).guests;
    const scope = systemScope(caller.companyId);
    for (const who of ['Zed Quist', '']) {
      const guest = guests.find((row) => row.customer_name === who)!;
      const id = await db.owner(
        async (sql) =>
          (await sql.query<{ id: number }>('SELECT id FROM guests WHERE hashid = $1', [guest.hashid]))
            .rows[0]!.id,
      );
      expect(await db.tenant(caller.companyId, (sql) => eraseGuest(sql, scope, id))).toBe(true);
    }
    const after = await rejectedCsv(caller, again);
    expect(after).not.toContain('Zed Quist');
    expect(after).not.toContain('POS-YVES');
    // Another guest's row stays.
    expect(after).toContain('Xia Li');
  });

  it('refuses a file without the identity columns, and callers below admin', async () => {
    const caller = await newCaller(db, 'Refused Co');
    const missing = await upload(caller, 'location_id,check_number,total\n1,A,2.00\n');
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json<{ error: { fields: object } }>().error.fields)).toEqual([
      'opened_at',
      'closed_at',
    ]);

    const marketer = await makeUser(db, caller.companyId, { role: 'marketer' });
    const token = await built.tokens.issue({ userId: marketer.id });
    const refused = await upload(
      { ...caller, headers: { authorization: `Bearer ${token.access_token}` } },
      HEADER,
    );
    expect(refused.statusCode).toBe(403);

    // Following a checks import needs no feature; a guest import stays the Subscribers feature's.
    const guestJob = await db.tenant(caller.companyId, (sql) =>
      createImportJob(sql, systemScope(caller.companyId), { kind: 'guest', fileName: 'g.csv', header: [] }),
    );
    const hidden = await built.app.inject({
      method: 'GET',
      url: `/api/imports/${guestJob}/`,
      headers: caller.headers,
    });
    expect(hidden.json()).toMatchObject({ error: { code: 'feature_not_enabled' } });
  });
});
