import { describe, expect, it } from 'vitest';
import { APP_ROLE, type Database } from '../../server/db/database.js';
import { useTwoCompanies } from '../support/two-companies.js';

// The doors' transactions on either driver; on PostgreSQL the scope travels with the first statement
// (pipelined) and parameterised statements are kept prepared per connection.
describe('scoped transactions', () => {
  let db: Database;
  let companyA: number;
  let companyB: number;
  useTwoCompanies((opened) => ({ db, companyA, companyB } = opened));

  const scopeOf = (sql: Parameters<Parameters<Database['tenant']>[1]>[0]) =>
    sql.query<{ role: string; company: string | null; platform: string | null }>(
      `SELECT current_user AS role, current_setting('app.company_id', true) AS company,
              current_setting('app.platform', true) AS platform`,
    );

  it('runs the very first statement as the application role with the scope set', async () => {
    const tenant = await db.tenant(companyA, async (sql) => (await scopeOf(sql)).rows[0]);
    expect(tenant).toMatchObject({ role: APP_ROLE, company: String(companyA) });
    expect(tenant?.platform ?? '').not.toBe('on');
    const platform = await db.platform(async (sql) => (await scopeOf(sql)).rows[0]);
    expect(platform).toMatchObject({ role: APP_ROLE, platform: 'on' });
    expect(platform?.company ?? '').toBe('');
  });

  it('leaves no scope behind for the next transaction on the same connections', async () => {
    for (let i = 0; i < 12; i++) await db.tenant(i % 2 ? companyA : companyB, (sql) => scopeOf(sql));
    const after = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db.tenant(i % 2 ? companyA : companyB, async (sql) => (await scopeOf(sql)).rows[0]?.company),
      ),
    );
    expect(after).toEqual(Array.from({ length: 12 }, (_, i) => String(i % 2 ? companyA : companyB)));
  });

  it('rolls back on a failed statement and keeps the connection usable', async () => {
    const marker = `tx-${companyA}-${Date.now()}`;
    await expect(
      db.tenant(companyA, async (sql) => {
        await sql.query(`INSERT INTO locations (company_id, name, time_zone) VALUES ($1, $2, 'UTC')`, [
          companyA,
          marker,
        ]);
        await sql.query('SELECT 1 / $1::int', [0]);
      }),
    ).rejects.toThrow();
    await expect(
      db.tenant(companyA, async (sql) => sql.query('SELECT $1::int AS one', [1])),
    ).resolves.toMatchObject({ rows: [{ one: 1 }] });
    const { rows } = await db.tenant(companyA, (sql) =>
      sql.query('SELECT count(*)::int AS n FROM locations WHERE name = $1', [marker]),
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('answers statements sent together, and the same prepared text with new values, each with its own rows', async () => {
    const answers = await db.tenant(companyA, (sql) =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          sql.query<{ n: number }>('SELECT $1::int * 2 AS n', [i]).then(({ rows }) => rows[0]?.n),
        ),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    for (const n of [3, 7, 11, 13, 17, 19, 23]) {
      const { rows } = await db.platform((sql) => sql.query<{ n: number }>('SELECT $1::int + 1 AS n', [n]));
      expect(rows[0]?.n).toBe(n + 1);
    }
  });
});
