import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimSegmentExport,
  createSegmentExport,
  sweepExpiredSegmentExports,
} from '../../server/repositories/segment-exports.repository.js';
import {
  listCapturedEmails,
  type CapturedEmailRow,
} from '../../server/repositories/captured-emails.repository.js';
import { writeSegmentExportTurn } from '../../server/services/segment-export-writer.js';
import { SEGMENT_EXPORTS_UNDER_WAY_MAX, type SegmentExport } from '../../src/schemas/segment-exports.js';
import { openTestApp, type ApiCaller, type TestApp, type UserCaller } from '../support/app.js';
import { makeGuest, makeUser, systemScope } from '../support/factories.js';

/**
 * Background segment exports: `…/export/?trigger=1` and `email=`, the export list, status and download. The
 * finished file is compared with the streamed export of the same segment and its ids with the company's guests
 * read straight from the database; turns of 7 rows make several chunks. Also: a deleted segment, a claim lost
 * to a died process, bad ids and values, another company's export, integration tokens, expiry and the mail.
 */

const TURN_ROWS = 7;
const GUESTS = 25;

describe('background segment exports', () => {
  let t: TestApp;
  let alice: UserCaller;
  let aliceToken: ApiCaller;
  let bob: UserCaller;
  let everyone: number;
  let nobody: number;

  const get = (caller: ApiCaller, url: string) =>
    t.app.inject({ method: 'GET', url, headers: caller.headers });
  const post = (caller: ApiCaller, url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: caller.headers, payload });

  /** Polls an export's status until it ends (done or failed). */
  async function finished(caller: ApiCaller, id: number): Promise<SegmentExport> {
    for (let attempt = 0; attempt < 600; attempt++) {
      const answer = (await get(caller, `/api/campaigns/segment-exports/${id}/`)).json<SegmentExport>();
      if (answer.status === 'done' || answer.status === 'failed') return answer;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`export ${id} did not end`);
  }

  /** Alice's guest ids read straight from the table, in id order. */
  async function aliceGuestIds(): Promise<number[]> {
    const { rows } = await t.database.db.owner((sql) =>
      sql.query<{ id: number }>('SELECT id::int AS id FROM guests WHERE company_id = $1 ORDER BY id', [
        alice.companyId,
      ]),
    );
    return rows.map((row) => row.id);
  }

  const idsOfCsv = (csv: string) =>
    csv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));

  beforeAll(async () => {
    t = await openTestApp({ segmentExports: { turnRows: TURN_ROWS, pollMs: 20, restRatio: 0 } });
    const aliceCompany = await t.newCaller('Alice Exports');
    aliceToken = aliceCompany;
    alice = await t.newUser(aliceCompany.companyId, 'owner');
    const bobCompany = await t.newCaller('Bob Exports');
    bob = await t.newUser(bobCompany.companyId, 'owner');
    for (let n = 0; n < GUESTS; n++) {
      await makeGuest(t.database.db, alice.companyId, {
        customer_name: n === 3 ? '=HYPERLINK("x")' : `Guest, "${n}"`,
      });
    }
    await makeGuest(t.database.db, bob.companyId, { customer_name: 'Bob guest' });
    everyone = (
      await post(alice, '/api/campaigns/segments/', { name: 'Everyone', segment_groups: [] })
    ).json<{
      id: number;
    }>().id;
    nobody = (
      await post(alice, '/api/campaigns/segments/', {
        name: 'Regulars',
        segment_groups: [{ segment_rules: [{ type: 'visit_count', operator: 'gte', value: 1 }] }],
      })
    ).json<{ id: number }>().id;
  });

  afterAll(async () => {
    await t.close();
  });

  it('writes the same CSV as the stream, in several chunks, and lists it', async () => {
    const started = await get(alice, `/api/campaigns/segments/${everyone}/export/?trigger=1`);
    expect(started.statusCode).toBe(202);
    const queued = started.json<SegmentExport>();
    expect(queued).toMatchObject({
      segment_id: everyone,
      segment_name: 'Everyone',
      rows_written: 0,
      total: GUESTS,
      download_url: null,
      finished_at: null,
    });
    expect(['queued', 'running', 'done']).toContain(queued.status);
    const expiresInDays = (Date.parse(queued.expires_at) - Date.parse(queued.created_at)) / 86_400_000;
    expect(Math.round(expiresInDays)).toBe(7);

    const done = await finished(alice, queued.id);
    expect(done).toMatchObject({ status: 'done', rows_written: GUESTS, failure: null });
    expect(done.download_url).toBe(`/api/campaigns/segment-exports/${queued.id}/download/`);
    const { rows: chunks } = await t.database.db.owner((sql) =>
      sql.query<{ n: number }>('SELECT count(*)::int AS n FROM segment_export_chunks WHERE export_id = $1', [
        queued.id,
      ]),
    );
    expect(chunks[0]!.n).toBe(Math.ceil((GUESTS + 1) / TURN_ROWS));

    const file = await get(alice, done.download_url!);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    const stream = await get(alice, `/api/campaigns/segments/${everyone}/export/`);
    expect(file.body).toBe(stream.body);
    expect(idsOfCsv(file.body)).toEqual(await aliceGuestIds());
    // Cells are neutralised against formulas and quoted as the stream does.
    expect(file.body).toContain(`"'=HYPERLINK(""x"")"`);

    const list = (await get(alice, '/api/campaigns/segment-exports/')).json<{ results: SegmentExport[] }>();
    expect(list.results[0]!.id).toBe(queued.id);
  });

  it('writes a header alone for a segment without members', async () => {
    const queued = (
      await get(alice, `/api/campaigns/segments/${nobody}/export/?trigger=true`)
    ).json<SegmentExport>();
    const done = await finished(alice, queued.id);
    expect(done).toMatchObject({ status: 'done', rows_written: 0, total: 0 });
    const file = await get(alice, done.download_url!);
    expect(file.body).toBe((await get(alice, `/api/campaigns/segments/${nobody}/export/`)).body);
    expect(file.body.trim().split('\n')).toHaveLength(1);
  });

  it('goes on after the last committed chunk when a worker died mid-turn', async () => {
    const db = t.database.db;
    const row = await db.tenant(alice.companyId, (sql) =>
      createSegmentExport(sql, systemScope(alice.companyId), {
        segmentId: everyone,
        segmentName: 'Everyone',
        total: GUESTS,
        emailUserId: null,
        retentionDays: 7,
      }),
    );
    // A long lease stands for a worker holding the export; other exports may be claimed first.
    const claimed = await db.platform(async (sql) => {
      for (;;) {
        const job = await claimSegmentExport(sql, 3_600_000);
        if (!job || job.id === row.id) return job;
      }
    });
    expect(claimed?.id).toBe(row.id);
    // The "dead" worker wrote one turn, then its process died holding a fresh claim.
    expect((await writeSegmentExportTurn(db, claimed!, TURN_ROWS)).outcome).toBe('more');
    const again = await db.platform((sql) => claimSegmentExport(sql, 3_600_000));
    expect(again?.id).toBe(row.id);
    const stale = { ...again! };
    await db.owner((sql) =>
      sql.query(`UPDATE segment_exports SET lease_until = now() - interval '1 second' WHERE id = $1`, [
        row.id,
      ]),
    );
    const done = await finished(alice, row.id);
    expect(done.rows_written).toBe(GUESTS);
    // The died worker's claim was taken over: its late turn writes nothing.
    expect((await writeSegmentExportTurn(db, stale, TURN_ROWS)).outcome).toBe('lost');
    const file = await get(alice, `/api/campaigns/segment-exports/${row.id}/download/`);
    expect(idsOfCsv(file.body)).toEqual(await aliceGuestIds());
  });

  it('fails an export whose segment was deleted before it ran; a finished one stays downloadable', async () => {
    const doomed = (
      await post(alice, '/api/campaigns/segments/', { name: 'Doomed', segment_groups: [] })
    ).json<{
      id: number;
    }>().id;
    const finishedFirst = await finished(
      alice,
      (await get(alice, `/api/campaigns/segments/${doomed}/export/?trigger=1`)).json<SegmentExport>().id,
    );
    const db = t.database.db;
    // Queued straight in the table and held back by a lease, so the deletion surely comes first.
    const row = await db.tenant(alice.companyId, (sql) =>
      createSegmentExport(sql, systemScope(alice.companyId), {
        segmentId: doomed,
        segmentName: 'Doomed',
        total: null,
        emailUserId: null,
        retentionDays: 7,
      }),
    );
    await db.owner((sql) =>
      sql.query(`UPDATE segment_exports SET lease_until = now() + interval '1 hour' WHERE id = $1`, [row.id]),
    );
    const notReady = await get(alice, `/api/campaigns/segment-exports/${row.id}/download/`);
    expect(notReady.statusCode).toBe(409);
    expect(notReady.json()).toMatchObject({ error: { code: 'export_not_ready' } });

    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `/api/campaigns/segments/${doomed}/`,
          headers: alice.headers,
        })
      ).statusCode,
    ).toBe(204);
    await db.owner((sql) =>
      sql.query(`UPDATE segment_exports SET lease_until = NULL WHERE id = $1`, [row.id]),
    );
    const failed = await finished(alice, row.id);
    expect(failed).toMatchObject({ status: 'failed', failure: 'segment_deleted', download_url: null });
    expect((await get(alice, `/api/campaigns/segment-exports/${row.id}/download/`)).statusCode).toBe(409);
    // The export finished before the deletion keeps its file until it expires.
    expect((await get(alice, finishedFirst.download_url!)).statusCode).toBe(200);
    expect((await get(alice, `/api/campaigns/segments/${doomed}/export/?trigger=1`)).statusCode).toBe(404);
  });

  it('mails a user of the company a link, never the guests, in their language', async () => {
    const analyst = await makeUser(t.database.db, alice.companyId, { role: 'analyst' });
    await t.database.db.owner((sql) =>
      sql.query(
        `INSERT INTO account_settings (user_id, company_id, language) VALUES ($1, $2, 'de')
         ON CONFLICT (user_id) DO UPDATE SET language = 'de'`,
        [analyst.id, alice.companyId],
      ),
    );
    const url = `/api/campaigns/segments/${everyone}/export/?email=${encodeURIComponent(analyst.email.toUpperCase())}`;
    const queued = (await get(alice, url)).json<SegmentExport>();
    expect((await finished(alice, queued.id)).status).toBe('done');
    // The mail follows the finished turn (its status is written first), so it is waited for.
    let mail: CapturedEmailRow | undefined;
    for (let attempt = 0; attempt < 400 && !mail; attempt++) {
      const mails = await t.database.db.tenant(alice.companyId, (sql) =>
        listCapturedEmails(sql, alice.companyId, 10),
      );
      mail = mails.find((row) => row.to_address === analyst.email);
      if (!mail) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(mail?.subject).toBe('Ihr Export von „Everyone“ ist fertig');
    expect(mail?.text_body).toContain('http://localhost:3000/segments?exports=1');
    expect(mail?.text_body).toContain(`${GUESTS} Gäste`);
    const file = (await get(alice, `/api/campaigns/segment-exports/${queued.id}/download/`)).body;
    for (const line of file.trim().split('\n').slice(1)) {
      const [, posId] = line.split(',');
      expect(mail?.text_body).not.toContain(posId);
      expect(mail?.html_body).not.toContain(posId);
    }
    expect(mail?.text_body).not.toContain('Guest, ');
  });

  it('refuses an address that is not a user of the company, naming email', async () => {
    for (const email of [bob.email, 'stranger@example.com', 'not-an-address']) {
      const answer = await get(
        alice,
        `/api/campaigns/segments/${everyone}/export/?email=${encodeURIComponent(email)}`,
      );
      expect(answer.statusCode).toBe(400);
      expect(Object.keys(answer.json<{ error: { fields: object } }>().error.fields)).toEqual(['email']);
    }
  });

  it('refuses bad ids and values, and answers 404 for what does not exist', async () => {
    const cases: [string, number, string?][] = [
      ['/api/campaigns/segments/abc/export/?trigger=1', 400, 'id'],
      ['/api/campaigns/segments/0/export/?trigger=1', 400, 'id'],
      [`/api/campaigns/segments/${everyone}/export/?trigger=yes`, 400, 'trigger'],
      ['/api/campaigns/segments/999999/export/?trigger=1', 404],
      ['/api/campaigns/segment-exports/abc/', 400, 'id'],
      ['/api/campaigns/segment-exports/-1/download/', 400, 'id'],
      ['/api/campaigns/segment-exports/999999/', 404],
      ['/api/campaigns/segment-exports/999999/download/', 404],
      ['/api/campaigns/segment-exports/?page=0', 400, 'page'],
    ];
    for (const [url, status, field] of cases) {
      const answer = await get(alice, url);
      expect([url, answer.statusCode]).toEqual([url, status]);
      if (field)
        expect(Object.keys(answer.json<{ error: { fields: object } }>().error.fields)).toContain(field);
    }
  });

  it('refuses a sixth export while five are under way', async () => {
    const db = t.database.db;
    const held: number[] = [];
    // Five exports held by a live-looking lease stand for five under way.
    for (let n = 0; n < SEGMENT_EXPORTS_UNDER_WAY_MAX; n++) {
      const row = await db.tenant(alice.companyId, (sql) =>
        createSegmentExport(sql, systemScope(alice.companyId), {
          segmentId: everyone,
          segmentName: 'Everyone',
          total: GUESTS,
          emailUserId: null,
          retentionDays: 7,
        }),
      );
      held.push(row.id);
    }
    await db.owner((sql) =>
      sql.query(
        `UPDATE segment_exports SET status = 'running', lease_until = now() + interval '1 hour' WHERE id = ANY($1)`,
        [held],
      ),
    );
    const refused = await get(alice, `/api/campaigns/segments/${everyone}/export/?trigger=1`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'too_many_exports' } });
    // Another company is not held back by these.
    const bobs = (await post(bob, '/api/campaigns/segments/', { name: 'All', segment_groups: [] })).json<{
      id: number;
    }>().id;
    expect((await get(bob, `/api/campaigns/segments/${bobs}/export/?trigger=1`)).statusCode).toBe(202);
    // Once they may go on, they finish and a new one is taken again.
    await db.owner((sql) =>
      sql.query(`UPDATE segment_exports SET lease_until = NULL WHERE id = ANY($1)`, [held]),
    );
    for (const id of held) expect((await finished(alice, id)).status).toBe('done');
    expect((await get(alice, `/api/campaigns/segments/${everyone}/export/?trigger=1`)).statusCode).toBe(202);
  });

  it("keeps each company's exports to itself, and downloads for signed-in users only", async () => {
    const mine = (
      await get(alice, `/api/campaigns/segments/${everyone}/export/?trigger=1`)
    ).json<SegmentExport>();
    await finished(alice, mine.id);
    expect((await get(bob, `/api/campaigns/segment-exports/${mine.id}/`)).statusCode).toBe(404);
    expect((await get(bob, `/api/campaigns/segment-exports/${mine.id}/download/`)).statusCode).toBe(404);
    expect((await get(bob, `/api/campaigns/segments/${everyone}/export/?trigger=1`)).statusCode).toBe(404);
    const bobsList = (await get(bob, '/api/campaigns/segment-exports/')).json<{ results: SegmentExport[] }>();
    expect(bobsList.results.map((row) => row.segment_name)).toEqual(['All']);

    const byToken = await get(aliceToken, `/api/campaigns/segment-exports/${mine.id}/download/`);
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json()).toMatchObject({ error: { code: 'user_required' } });
    expect((await get(aliceToken, `/api/campaigns/segment-exports/${mine.id}/`)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/campaigns/segment-exports/${mine.id}/download/` }))
        .statusCode,
    ).toBe(401);
  });

  it('reads an expired export as gone and the sweep removes it with its file', async () => {
    const mine = (
      await get(alice, `/api/campaigns/segments/${everyone}/export/?trigger=1`)
    ).json<SegmentExport>();
    await finished(alice, mine.id);
    const db = t.database.db;
    await db.owner((sql) =>
      sql.query(`UPDATE segment_exports SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
        mine.id,
      ]),
    );
    expect((await get(alice, `/api/campaigns/segment-exports/${mine.id}/`)).statusCode).toBe(404);
    expect((await get(alice, `/api/campaigns/segment-exports/${mine.id}/download/`)).statusCode).toBe(404);
    const list = (await get(alice, '/api/campaigns/segment-exports/?page_size=100')).json<{
      results: SegmentExport[];
    }>();
    expect(list.results.map((row) => row.id)).not.toContain(mine.id);

    expect(await db.platform((sql) => sweepExpiredSegmentExports(sql))).toBeGreaterThanOrEqual(1);
    const { rows } = await db.owner((sql) =>
      sql.query<{ exports: number; chunks: number }>(
        `SELECT (SELECT count(*)::int FROM segment_exports WHERE id = $1) AS exports,
                (SELECT count(*)::int FROM segment_export_chunks WHERE export_id = $1) AS chunks`,
        [mine.id],
      ),
    );
    expect(rows[0]).toEqual({ exports: 0, chunks: 0 });
  });
});
