/**
 * Bulk writes of the demo loader: CSV into a table by COPY, with the new rows' ids handed back keyed by
 * something the loader knows (a guest's POS id, a check's location and number), so no id is ever assumed
 * and the load is right on an empty database and on a busy one.
 *
 * Two ways in, one per driver:
 * - PGlite: its owner is a superuser, which row-level security does not apply to, so COPY goes straight
 *   into the table (PostgreSQL's fast bulk-insert path). The new ids are read back with `id > watermark`,
 *   where the watermark is a value taken from the table's sequence just before the COPY: later values are
 *   always larger, and PGlite runs one transaction at a time, so no other writer adds rows in between.
 * - PostgreSQL: COPY FROM is refused on a table under row-level security unless the role bypasses it, so
 *   the CSV goes into a temporary table of the same column types and from there by INSERT ... SELECT,
 *   which the policies check like any other write, with RETURNING handing back the ids.
 */
import type { DatabaseKind, Sql } from '../db/database.js';

/** Writes CSV rows for one company inside one transaction. */
export interface BulkWriter {
  /** Rows per COPY of guests and subscribers: PGlite gathers a whole COPY in memory, PostgreSQL streams. */
  readonly rowsPerCopy: number;
  /** Checks per COPY (their lines, about three each, follow in a COPY of their own). */
  readonly checksPerCopy: number;
  /**
   * Copies the CSV rows into `table` (which must have an `id` identity and a `company_id` column) and,
   * when `returning` names columns, returns those columns of the new rows.
   */
  copy<Row = Record<string, unknown>>(
    table: string,
    columns: readonly string[],
    csv: Iterable<string>,
    returning?: string,
  ): Promise<Row[]>;
}

/**
 * Checks per COPY on each driver (see `BulkWriter.checksPerCopy`). PGlite runs in the server's own thread, so
 * its batches stay short: requests are answered between two of them while the demo history loads.
 */
export function checksPerCopyOn(kind: DatabaseKind): number {
  return kind === 'pglite' ? 1_000 : 50_000;
}

/** COPY straight into the table, then read the new rows back above a sequence watermark. */
function directWriter(sql: Sql, companyId: number): BulkWriter {
  return {
    rowsPerCopy: 20_000,
    checksPerCopy: checksPerCopyOn('pglite'),
    async copy<Row>(table: string, columns: readonly string[], csv: Iterable<string>, returning?: string) {
      if (!returning) {
        await sql.copyFrom(table, columns, csv);
        return [];
      }
      const { rows: mark } = await sql.query<{ id: number }>(
        `SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id`,
        [table],
      );
      await sql.copyFrom(table, columns, csv);
      const { rows } = await sql.query<Row>(
        `SELECT ${returning} FROM ${table} WHERE company_id = $1 AND id > $2`,
        [companyId, mark[0]!.id],
      );
      return rows;
    },
  };
}

/** COPY into a temporary table, then INSERT ... SELECT ... RETURNING into the real one. */
function stagedWriter(sql: Sql): BulkWriter {
  return {
    rowsPerCopy: 100_000,
    checksPerCopy: checksPerCopyOn('postgres'),
    async copy<Row>(table: string, columns: readonly string[], csv: Iterable<string>, returning?: string) {
      const stage = `seed_stage_${table}`;
      const list = columns.join(', ');
      await sql.exec(
        `CREATE TEMP TABLE IF NOT EXISTS ${stage} ON COMMIT DROP AS SELECT ${list} FROM ${table} WITH NO DATA;
         TRUNCATE ${stage}`,
      );
      await sql.copyFrom(stage, columns, csv);
      const { rows } = await sql.query<Row>(
        `INSERT INTO ${table} (${list}) SELECT ${list} FROM ${stage}${returning ? ` RETURNING ${returning}` : ''}`,
      );
      return rows;
    },
  };
}

/** The bulk writer that works on this driver (see the top of this file). */
export function bulkWriter(sql: Sql, kind: DatabaseKind, companyId: number): BulkWriter {
  return kind === 'pglite' ? directWriter(sql, companyId) : stagedWriter(sql);
}
