import type { Database } from './database.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** Where the database lives: a PostgreSQL URL, or else a PGlite data directory. */
export interface DatabaseLocation {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL connections per process (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** Whether PostgreSQL statements are kept prepared per connection (DATABASE_PREPARE). */
  preparedStatements?: boolean;
}

/** Opens PostgreSQL when a URL is given, otherwise PGlite under `<dataDir>/pglite`. */
export function openDatabase(location: DatabaseLocation): Promise<Database> {
  if (location.databaseUrl) {
    return openPostgres({
      connectionString: location.databaseUrl,
      maxConnections: location.poolSize,
      preparedStatements: location.preparedStatements,
    });
  }
  const dir = location.dataDir.startsWith('memory://') ? location.dataDir : `${location.dataDir}/pglite`;
  return openPglite(dir);
}
