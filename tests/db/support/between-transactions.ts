import type { Database } from '../../../server/db/database.js';

/** A database handle that lets another writer in after the first transaction opened through it. */
export interface InterleavedDatabase {
  /** Give this to the code under test. */
  db: Database;
  /** True once the other writer's change has run. */
  changed(): boolean;
}

/**
 * The same real database, except that `change` runs (through the plain handle, in its own transactions) right
 * after the first transaction opened through `db` commits and before the code under test can open another.
 * It puts a concurrent writer exactly between a service's read and its write, the same way on PGlite and
 * PostgreSQL; a service that reads, checks and writes in one transaction sees the change only afterwards.
 */
export function changeAfterFirstTransaction(
  database: Database,
  change: (db: Database) => Promise<void>,
): InterleavedDatabase {
  let ran = false;
  async function after<T>(result: T): Promise<T> {
    if (!ran) {
      ran = true;
      await change(database);
    }
    return result;
  }
  return {
    db: {
      kind: database.kind,
      tenant: async (companyId, fn) => after(await database.tenant(companyId, fn)),
      platform: async (fn) => after(await database.platform(fn)),
      owner: async (fn) => after(await database.owner(fn)),
      vacuum: (tables) => database.vacuum(tables),
      close: () => database.close(),
    },
    changed: () => ran,
  };
}
