import { buildApp } from './app.js';
import { authSettingsFrom } from './auth/settings.js';
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { openDatabase } from './db/open.js';
import { countCompanies } from './repositories/companies.repository.js';
import { loadDemoData } from './seed/load.js';

/** Starts the whole product in one process: migrations, demo data on an empty database, API and app. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const applied = await migrate(db);
  const app = await buildApp({
    db,
    logLevel: config.LOG_LEVEL,
    auth: authSettingsFrom(config),
    brandName: config.BRAND_NAME,
    trustProxyHops: config.TRUST_PROXY,
    imports: { maxBytes: config.UPLOAD_MAX_BYTES },
  });
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');

  if (config.SEED_ON_START && (await db.platform((sql) => countCompanies(sql))) === 0) {
    app.log.info({ scale: config.SEED_SCALE }, 'empty database: loading the demo data set');
    const summary = await loadDemoData(db, {
      scale: config.SEED_SCALE,
      log: (message) => app.log.info(message),
    });
    for (const company of summary.companies) {
      // Demo accounts only: these are the published demo credentials, not personal data.
      app.log.info(`demo sign-in for ${company.name}: ${company.ownerEmail} / ${company.ownerPassword}`);
    }
    const { support } = summary;
    app.log.info(`demo staff sign-in for ${support.name}: ${support.staffEmail} / ${support.staffPassword}`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
