import type { FastifyInstance } from 'fastify';
import { buildAppWithServices, type AppOptions } from '../../server/app.js';
import type { AccessTokens } from '../../server/auth/access-tokens.js';
import { generateCompanyKey } from '../../server/auth/company-token.js';
import { authSettingsFrom, type AuthSettings } from '../../server/auth/settings.js';
import type { RateLimitSettings } from '../../server/http/rate-limits.js';
import { setCompanyFeatures } from '../../server/repositories/company-features.repository.js';
import { createCompanyToken } from '../../server/repositories/company-tokens.repository.js';
import type { UserRole } from '../../server/repositories/users.repository.js';
import { ALL_FEATURES } from '../../src/schemas/features.js';
import { openTestDatabase, type TestDatabase } from './database.js';
import type { SegmentExportRunnerSettings } from '../../server/jobs/segment-export-runner.js';
import type { ListCountSettings } from '../../server/services/list-counts.js';
import { makeCompany, makeUser, systemScope } from './factories.js';

/** A company that can call the API: its id and the `Authorization` header to use. */
export interface ApiCaller {
  companyId: number;
  headers: { authorization: string };
}

/** A signed-in person of a company: their ids and a Bearer header. */
export interface UserCaller extends ApiCaller {
  userId: number;
  email: string;
}

/** What a new caller's company gets; every feature unless told otherwise. */
export interface CallerOptions {
  features?: readonly string[];
}

/** The API over a fresh database, and helpers to make companies that call it. */
export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  auth: AuthSettings;
  tokens: AccessTokens;
  /** A new company with every feature (or the given ones), calling with a company API token. */
  newCaller(name?: string, options?: CallerOptions): Promise<ApiCaller>;
  /** A new user in the company, calling with a Bearer access token this server issued. */
  newUser(companyId: number, role?: UserRole): Promise<UserCaller>;
  close(): Promise<void>;
}

/**
 * The rate limits of test apps: suites sign in, register and upload far more often than a person, and
 * are never refused for it; tests of the limits themselves set low ones.
 */
export const TEST_RATE_LIMITS: RateLimitSettings = {
  signIn: { max: 100_000, windowSeconds: 60 },
  registration: { max: 100_000, windowSeconds: 60 },
  upload: { max: 100_000, windowSeconds: 60 },
  preview: { max: 100_000, windowSeconds: 60 },
  unsubscribe: { max: 100_000, windowSeconds: 60 },
  tracking: { max: 100_000, windowSeconds: 60 },
};

/** Builds the real app (no client bundle) on a fresh migrated database. */
export async function openTestApp(
  options: {
    auth?: AuthSettings;
    brandName?: string;
    rateLimits?: RateLimitSettings;
    listCounts?: Partial<ListCountSettings>;
    segmentExports?: Partial<SegmentExportRunnerSettings>;
    /** The flow engine's options, or a function of the test database (a shared test clock lives in it). */
    flows?: AppOptions['flows'] | ((db: TestDatabase['db']) => AppOptions['flows']);
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const auth = options.auth ?? authSettingsFrom({ PUBLIC_URL: 'http://localhost:3000' });
  const built = await buildAppWithServices({
    db: database.db,
    logLevel: 'silent',
    clientDir: null,
    auth,
    rateLimits: options.rateLimits ?? TEST_RATE_LIMITS,
    ...(options.brandName === undefined ? {} : { brandName: options.brandName }),
    ...(options.listCounts === undefined ? {} : { listCounts: options.listCounts }),
    ...(options.segmentExports === undefined ? {} : { segmentExports: options.segmentExports }),
    ...(options.flows === undefined
      ? {}
      : { flows: typeof options.flows === 'function' ? options.flows(database.db) : options.flows }),
  });
  const { app, tokens } = built;
  await app.ready();
  return {
    app,
    database,
    auth,
    tokens,
    async newCaller(name = 'Caller Co', callerOptions = {}) {
      const company = await makeCompany(database.db, name);
      await database.db.tenant(systemScope(company.id).companyId, (sql) =>
        setCompanyFeatures(sql, systemScope(company.id), [...(callerOptions.features ?? ALL_FEATURES)]),
      );
      const key = generateCompanyKey();
      await database.db.tenant(company.id, (sql) =>
        createCompanyToken(sql, company.id, {
          name: 'tests',
          keyPrefix: key.keyPrefix,
          keyHash: key.keyHash,
          createdBy: null,
        }),
      );
      return { companyId: company.id, headers: { authorization: `Token ${key.key}` } };
    },
    async newUser(companyId, role = 'owner') {
      const user = await makeUser(database.db, companyId, { role });
      const token = await tokens.issue({ userId: user.id });
      return {
        companyId,
        userId: user.id,
        email: user.email,
        headers: { authorization: `Bearer ${token.access_token}` },
      };
    },
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
