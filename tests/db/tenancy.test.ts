import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE, assertCompanyId, type Database } from '../../server/db/database.js';
import { recordAudit } from '../../server/repositories/audit.repository.js';
import { createLocation, listLocations } from '../../server/repositories/locations.repository.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { makeCompany, systemScope } from '../support/factories.js';

const location = {
  name: 'Somewhere',
  street: '',
  city: '',
  state: '',
  zip: '',
  latitude: null,
  longitude: null,
  time_zone: 'America/New_York',
};

/** A plan node as EXPLAIN (FORMAT JSON) writes it. */
interface PlanNode {
  'Workers Planned'?: number;
  Plans?: PlanNode[];
}

/** The workers a plan asks for, at any depth (a Gather may sit under an aggregate). */
const workersPlanned = (node: PlanNode): number =>
  (node['Workers Planned'] ?? 0) + (node.Plans ?? []).reduce((sum, child) => sum + workersPlanned(child), 0);

describe('tenancy: row-level security as the second wall', () => {
  let test: TestDatabase;
  let db: Database;
  let companyA: number;
  let companyB: number;

  beforeAll(async () => {
    test = await openTestDatabase();
    db = test.db;
    companyA = (await makeCompany(db, 'A')).id;
    companyB = (await makeCompany(db, 'B')).id;
    await db.tenant(companyA, (sql) =>
      createLocation(sql, systemScope(companyA), { ...location, name: 'A1' }),
    );
    await db.tenant(companyB, (sql) =>
      createLocation(sql, systemScope(companyB), { ...location, name: 'B1' }),
    );
  });
  afterAll(() => test.drop());

  it('runs application queries as a role that is neither owner nor superuser', async () => {
    const role = await db.tenant(companyA, async (sql) => {
      const { rows } = await sql.query<{ current_user: string; rolsuper: boolean; owns: boolean }>(
        `SELECT current_user, r.rolsuper,
                EXISTS (SELECT 1 FROM pg_tables WHERE tableowner = current_user AND schemaname = 'public') AS owns
         FROM pg_roles r WHERE r.rolname = current_user`,
      );
      return rows[0]!;
    });
    expect(role).toEqual({ current_user: APP_ROLE, rolsuper: false, owns: false });
  });

  it('shows no tenant rows to a query with no tenant set', async () => {
    const counts = await db.owner(async (sql) => {
      await sql.exec(`SET LOCAL ROLE ${APP_ROLE}`);
      const locations = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM locations');
      const companies = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM companies');
      const audit = await sql.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_log');
      return [locations.rows[0]!.count, companies.rows[0]!.count, audit.rows[0]!.count];
    });
    expect(counts).toEqual([0, 0, 0]);
  });

  it("filters a forgetful query to the transaction's company and refuses writes into another", async () => {
    // No WHERE clause at all: only row-level security keeps B's row out.
    const seen = await db.tenant(
      companyA,
      async (sql) => (await sql.query<{ name: string }>('SELECT name FROM locations')).rows,
    );
    expect(seen.map((row) => row.name)).toEqual(['A1']);
    await expect(
      db.tenant(companyA, (sql) =>
        sql.query(`INSERT INTO locations (company_id, name) VALUES ($1, 'Sneaky')`, [companyB]),
      ),
    ).rejects.toThrow(/row-level security/);
    await expect(
      db.tenant(companyA, (sql) => sql.query('UPDATE locations SET company_id = $1', [companyB])),
    ).rejects.toThrow(/row-level security/);
    expect(
      (await db.tenant(companyB, (sql) => listLocations(sql, companyB, { limit: 10, offset: 0 }))).rows.map(
        (r) => r.name,
      ),
    ).toEqual(['B1']);
  });

  it('forces row-level security with a tenant policy on every table that has company_id, partitioned ones too', async () => {
    const unguarded = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ table_name: string }>(
        `SELECT c.table_name FROM information_schema.columns c
         JOIN pg_class t ON t.relname = c.table_name AND t.relkind IN ('r', 'p')
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = c.table_schema
         WHERE c.table_schema = 'public' AND c.column_name = 'company_id'
           AND NOT (t.relrowsecurity AND t.relforcerowsecurity
                    AND EXISTS (SELECT 1 FROM pg_policies p WHERE p.tablename = c.table_name AND p.policyname = 'tenant_isolation'))`,
      );
      return rows.map((row) => row.table_name);
    });
    expect(unguarded).toEqual([]);
  });

  it('reads the tenant once per statement in every policy (migration 0024)', async () => {
    // A bare call is inlined and read again for every row scanned; a scalar subquery is worked out once.
    const perRow = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ policy: string; expression: string }>(
        `SELECT tablename || '.' || policyname AS policy, coalesce(qual, '') || ' ' || coalesce(with_check, '') AS expression
         FROM pg_policies WHERE schemaname = 'public'`,
      );
      return rows
        .filter((row) => /(?<!SELECT )app_(company_id|is_platform)\(\)/.test(row.expression))
        .map((row) => row.policy);
    });
    const policies = await db.owner(
      async (sql) =>
        (
          await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_policies WHERE schemaname = 'public'`,
          )
        ).rows[0]!.n,
    );
    expect(policies).toBeGreaterThan(20);
    expect(perRow).toEqual([]);
  });

  it('lets a tenant statement run in parallel workers, each keeping the tenant (migration 0048)', async () => {
    // The policies' functions must be parallel safe, or no statement of the application role gets a parallel plan.
    const marked = await db.owner(async (sql) => {
      const { rows } = await sql.query<{ proname: string; proparallel: string }>(
        `SELECT proname, proparallel FROM pg_proc WHERE proname IN ('app_company_id', 'app_is_platform') ORDER BY 1`,
      );
      return rows;
    });
    expect(marked).toEqual([
      { proname: 'app_company_id', proparallel: 's' },
      { proname: 'app_is_platform', proparallel: 's' },
    ]);
    // With parallel plans made free, the scan is planned in workers (PostgreSQL; PGlite has none and scans in the
    // leader), and the same statement, with no WHERE clause, still sees only the transaction's company.
    const statement = `SELECT string_agg(name, ',' ORDER BY name) AS names FROM locations`;
    const { names, workers } = await db.tenant(companyA, async (sql) => {
      await sql.exec(
        'SET LOCAL parallel_setup_cost = 0; SET LOCAL parallel_tuple_cost = 0; SET LOCAL min_parallel_table_scan_size = 0',
      );
      const plan = await sql.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) ${statement}`,
      );
      const rows = await sql.query<{ names: string }>(statement);
      return { names: rows.rows[0]!.names, workers: workersPlanned(plan.rows[0]!['QUERY PLAN'][0].Plan) };
    });
    expect(names).toBe('A1');
    if (process.env.TEST_DATABASE_URL) expect(workers).toBeGreaterThan(0);
  });

  it('keeps the audit log append-only', async () => {
    await db.tenant(companyA, (sql) =>
      recordAudit(sql, systemScope(companyA), {
        action: 'create',
        entity: 'test',
        entityId: 1,
        after: { email: 'a@b.co' },
      }),
    );
    await expect(
      db.tenant(companyA, (sql) => sql.query('UPDATE audit_log SET entity = $1', ['x'])),
    ).rejects.toThrow();
    await expect(db.tenant(companyA, (sql) => sql.query('DELETE FROM audit_log'))).rejects.toThrow();
    await expect(db.owner((sql) => sql.query('DELETE FROM audit_log'))).rejects.toThrow(/append-only/);
    const stored = await db.tenant(
      companyA,
      async (sql) =>
        (await sql.query<{ after: { email: string } }>(`SELECT after FROM audit_log WHERE entity = 'test'`))
          .rows[0]!.after.email,
    );
    expect(stored).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  it('cannot open a tenant transaction without a real company id', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN, undefined, null, '1']) {
      expect(() => assertCompanyId(bad)).toThrow(/needs a company id/);
    }
    await expect(db.tenant(0, (sql) => sql.query('SELECT 1'))).rejects.toThrow(/needs a company id/);
  });
});
