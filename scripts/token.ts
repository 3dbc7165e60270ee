/**
 * `npm run token -- --email owner@harborvine.example [--name "Reporting script"]`: issues a company API
 * token for the account's company and prints it once. Use it as `Authorization: Token <key>`.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.js';
import { migrate } from '../server/db/migrate.js';
import { openDatabase } from '../server/db/open.js';
import {
  issueCompanyTokenForAccount,
  UnknownAccountError,
} from '../server/services/company-tokens.service.js';

const { values } = parseArgs({
  options: { email: { type: 'string' }, name: { type: 'string', default: 'Command line' } },
});
if (!values.email) {
  console.error('--email is required: the email of an account in the company the token is for');
  process.exit(1);
}

const config = loadConfig();
const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
try {
  await migrate(db);
  const issued = await issueCompanyTokenForAccount(db, values.email, values.name);
  console.log(`Token "${issued.token.name}" for company ${issued.companyId} (shown once, keep it safe):`);
  console.log(issued.key);
} catch (error) {
  console.error(error instanceof UnknownAccountError ? `--email: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await db.close();
}
