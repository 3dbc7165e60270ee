import type { Database, DatabaseKind } from '../db/database.js';
import { pingDatabase } from '../repositories/health.repository.js';

/** Whether the process can reach its database: what `/api/health` reports. */
export function healthService(db: Database) {
  return {
    /** The engine the server runs on (PGlite embedded or PostgreSQL). */
    databaseKind(): DatabaseKind {
      return db.kind;
    },
    /** Resolves when the database answers the cheapest statement; throws when it cannot. */
    async checkDatabase(): Promise<void> {
      await db.platform((sql) => pingDatabase(sql));
    },
  };
}

/** The health service. */
export type HealthService = ReturnType<typeof healthService>;
