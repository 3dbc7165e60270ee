/**
 * The one door to the database. Both drivers (PGlite embedded, PostgreSQL over the network) speak the
 * same PostgreSQL dialect and expose the same three ways in:
 *
 * - `tenant(companyId, fn)`: a transaction that runs as the non-owner application role with the
 *   company set for row-level security. Every repository call about a company's data goes through it.
 * - `platform(fn)`: a transaction that may read across companies (sign-in lookups, seeding, health),
 *   still as the application role, with the platform flag set for row-level security.
 * - `owner(fn)`: the connection's own role; used only for migrations and bulk loading.
 */

/** Rows and count of one statement. */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

/** Something that runs parameterised SQL: a transaction handle. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
  /** Runs several statements without parameters (used by migrations). */
  exec(text: string): Promise<void>;
  /** Streams CSV text into `COPY target (columns) FROM STDIN` and resolves with the rows copied. */
  copyFrom(
    target: string,
    columns: readonly string[],
    csv: AsyncIterable<string> | Iterable<string>,
  ): Promise<number>;
}

/** Which engine a database handle runs on. */
export type DatabaseKind = 'pglite' | 'postgres';

/** A company id that has been checked to be a positive integer. */
export type CompanyId = number;

/** The database handle shared by the server, scripts and tests. */
export interface Database {
  readonly kind: DatabaseKind;
  tenant<T>(companyId: CompanyId, fn: (sql: Sql) => Promise<T>): Promise<T>;
  platform<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  owner<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * `VACUUM (ANALYZE)` of these tables (none: every table) as the owner, outside any transaction (VACUUM cannot
   * run inside one): PGlite's upkeep, which has no autovacuum (server/db/planner-statistics.ts).
   */
  vacuum(tables?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** The role every application query runs as: neither owner nor superuser, so row-level security holds. */
export const APP_ROLE = 'regulars_app';

/** The statements that open a tenant-scoped transaction; the id is checked first, so inlining it is safe. */
export function tenantPreamble(companyId: CompanyId): string {
  assertCompanyId(companyId);
  return `SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.company_id', '${companyId}', true)`;
}

/** The statements that open a platform-scoped transaction (cross-company reads, still not the owner). */
export const PLATFORM_PREAMBLE = `SET LOCAL ROLE ${APP_ROLE}; SELECT set_config('app.platform', 'on', true)`;

/** Throws unless the value is a usable company id: repositories cannot run without a real tenant. */
export function assertCompanyId(companyId: unknown): asserts companyId is CompanyId {
  if (typeof companyId !== 'number' || !Number.isSafeInteger(companyId) || companyId <= 0) {
    throw new TypeError(`A repository call needs a company id; got ${String(companyId)}`);
  }
}
