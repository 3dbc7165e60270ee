import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type RouteOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { accessTokens, type AccessTokens } from './auth/access-tokens.js';
import { embeddedOidcPlugin } from './auth/oidc/plugin.js';
import { registerAuthentication } from './auth/principal.js';
import { authSettingsFrom, type AuthSettings } from './auth/settings.js';
import { loadSigningKeys } from './auth/signing-keys.js';
import type { Database } from './db/database.js';
import { registerAccessControl } from './http/access.js';
import { answerClientError } from './http/client-errors.js';
import { registerOversizeBodies } from './http/oversize-bodies.js';
import { registerTextRule } from './http/text-rule.js';
import { ApiError, registerErrorHandling } from './http/errors.js';
import { frameworkErrorCode } from './http/framework-error-codes.js';
import { appPageSender } from './http/app-page.js';
import type { RateLimitOverrides } from './http/rate-limits.js';
import { docsContentSecurityPolicy, registerSecurity, type SecurityHeaderWriter } from './http/security.js';
import { logCode, loggerOptions } from './logging.js';
import { healthRoutes } from './routes/health.routes.js';
import { accountsRoutes } from './routes/accounts.routes.js';
import { authConfigRoutes } from './routes/auth-config.routes.js';
import { companyTokensRoutes } from './routes/company-tokens.routes.js';
import { brandRoutes, DEFAULT_BRAND_NAME } from './routes/brand.routes.js';
import { demoRoutes } from './routes/demo.routes.js';
import { clvRoutes } from './routes/clv.routes.js';
import { clvSettingsService } from './services/clv-settings.service.js';
import { demoStatusService } from './services/demo-status.service.js';
import { companyUsersRoutes } from './routes/company-users.routes.js';
import { createMailer, type MailSettings } from './mail/create-mailer.js';
import type { SharedTestClock } from './flows/clock.js';
import type { WebhookSettings } from './flows/webhook.js';
import { flowEngineRoutes } from './routes/flow-engine.routes.js';
import { testClockRoutes } from './routes/test-clock.routes.js';
import { flowEngineService } from './services/flow-engine.service.js';
import { emailSendersRoutes } from './routes/email-senders.routes.js';
import { hijackRoutes } from './routes/hijack.routes.js';
import { importsRoutes } from './routes/imports.routes.js';
import type { ImportRunnerSettings } from './jobs/import-runner.js';
import type { SegmentExportRunnerSettings } from './jobs/segment-export-runner.js';
import { jobWorkers, startWorkers, stopWorkers } from './jobs/workers.js';
import type { SendRunnerSettings } from './jobs/send-runner.js';
import { installationDomain, sendingSettingsFrom, type SendingConfig } from './sending/sending-settings.js';
import { unsubscribeRoutes } from './routes/unsubscribe.routes.js';
import { viewInBrowserRoutes } from './routes/view-in-browser.routes.js';
import { unsubscribeService } from './services/unsubscribe.service.js';
import { viewInBrowserService } from './services/view-in-browser.service.js';
import { trackingRoutes } from './routes/tracking.routes.js';
import { mailSettingsRoutes } from './routes/mail-settings.routes.js';
import { mailRunsService } from './services/mail-runs.service.js';
import { sentMailService } from './services/sent-mail.service.js';
import { trackingService } from './services/tracking.service.js';
import { locationsRoutes } from './routes/locations.routes.js';
import { bigdataRoutes } from './routes/bigdata.routes.js';
import { cohortsRoutes } from './routes/cohorts.routes.js';
import { customerJourneyRoutes } from './routes/customer-journey.routes.js';
import { guestDashboardsRoutes } from './routes/guest-dashboards.routes.js';
import { consumerInsightsRoutes } from './routes/consumer-insights.routes.js';
import { guestsRoutes } from './routes/guests.routes.js';
import { posCheckVoidsRoutes } from './routes/pos-check-voids.routes.js';
import { posAnalyticsRoutes } from './routes/pos-analytics.routes.js';
import { analyticsSummaryRoutes } from './routes/analytics-summary.routes.js';
import { homeDashboardRoutes } from './routes/home-dashboard.routes.js';
import { basketRoutes } from './routes/basket.routes.js';
import { posChecksRoutes } from './routes/pos-checks.routes.js';
import { emailFrameRoutes } from './routes/email-frame.routes.js';
import { emailImageFilesRoutes, emailImagesRoutes } from './routes/email-images.routes.js';
import { emailTemplatesRoutes } from './routes/email-templates.routes.js';
import { campaignsRoutes } from './routes/campaigns.routes.js';
import { flowsRoutes } from './routes/flows.routes.js';
import { campaignsService } from './services/campaigns.service.js';
import { flowsService } from './services/flows.service.js';
import { campaignTestSendService } from './services/campaign-test-send.service.js';
import { runTransport } from './sending/run-transport.js';
import { segmentsRoutes } from './routes/segments.routes.js';
import { segmentExportsRoutes } from './routes/segment-exports.routes.js';
import { segmentDashboardRoutes } from './routes/segment-dashboard.routes.js';
import { rfmRoutes } from './routes/rfm.routes.js';
import { subscriberListsRoutes } from './routes/subscriber-lists.routes.js';
import { subscribersRoutes } from './routes/subscribers.routes.js';
import { supportRoutes } from './routes/support.routes.js';
import { accountsService } from './services/accounts.service.js';
import { authConfigService } from './services/auth-config.service.js';
import { companyTokensService } from './services/company-tokens.service.js';
import { companyUsersService } from './services/company-users.service.js';
import { emailSendersService } from './services/email-senders.service.js';
import { senderVerificationService } from './services/sender-verification.service.js';
import { hijackService } from './services/hijack.service.js';
import { DEFAULT_UPLOAD_SETTINGS, importsService, type UploadSettings } from './services/imports.service.js';
import { locationsService } from './services/locations.service.js';
import { bigdataService } from './services/bigdata.service.js';
import { cohortsService } from './services/cohorts.service.js';
import { demographicsDashboardService } from './services/demographics-dashboard.service.js';
import { customerJourneyService } from './services/customer-journey.service.js';
import { consumerInsightsService } from './services/consumer-insights.service.js';
import { guestAnalyticsDashboardService } from './services/guest-analytics-dashboard.service.js';
import { customerProfilesService } from './services/customer-profiles.service.js';
import { guestsService } from './services/guests.service.js';
import { posCheckVoidsService } from './services/pos-check-voids.service.js';
import { posAnalyticsService } from './services/pos-analytics.service.js';
import { analyticsSummaryService } from './services/analytics-summary.service.js';
import { homeDashboardService } from './services/home-dashboard.service.js';
import { basketService } from './services/basket.service.js';
import { posChecksService } from './services/pos-checks.service.js';
import { healthService } from './services/health.service.js';
import { emailImagesService } from './services/email-images.service.js';
import { emailTemplatesService } from './services/email-templates.service.js';
import { segmentsService } from './services/segments.service.js';
import { segmentExportsService } from './services/segment-exports.service.js';
import { segmentDashboardService } from './services/segment-dashboard.service.js';
import { rfmService } from './services/rfm.service.js';
import { subscriberListsService } from './services/subscriber-lists.service.js';
import { subscribersService } from './services/subscribers.service.js';
import { supportEventLogsService } from './services/support-event-logs.service.js';
import { DEFAULT_LIST_COUNT_SETTINGS, listCounts, type ListCountSettings } from './services/list-counts.js';

/** What the app is built from. */
export interface AppOptions {
  db: Database;
  logLevel?: string;
  /** The built React app to serve; omitted in API tests. */
  clientDir?: string | null;
  /** Where JSON log lines go (standard output by default); tests capture them here. */
  logStream?: NodeJS.WritableStream;
  /** Sign-in settings; the embedded provider on http://localhost:3000 when omitted. */
  auth?: AuthSettings;
  /** The product name in page titles (BRAND_NAME); 'Regulars' when omitted. */
  brandName?: string;
  /**
   * How many proxies in front of the server to trust for the client address (TRUST_PROXY); 0 uses the
   * socket's address. Sign-in throttling counts failures per client address.
   */
  trustProxyHops?: number;
  /**
   * CSV upload limits (UPLOAD_MAX_BYTES) and how the import job runner works; production values when omitted.
   * `runJobs: false` leaves uploads queued for another process to merge.
   */
  imports?: Partial<UploadSettings & ImportRunnerSettings & { runJobs: boolean }>;
  /** SMTP_URL and MAIL_FROM; with no SMTP URL, mail is captured in the database and shown in the app. */
  mail?: MailSettings & { from?: string | undefined };
  /** Mail runs: unsubscribe links, rate, DKIM (MAIL_UNSUBSCRIBE_*, MAIL_RATE_PER_SECOND, DKIM_*) and runner settings. */
  sending?: Omit<SendingConfig, 'publicUrl' | 'smtpUrl'> & { runner?: Partial<SendRunnerSettings> };
  /** Origins allowed to call the API from a browser (CORS_ORIGINS); none when omitted. */
  corsOrigins?: readonly string[];
  /** The named rate limits (RATE_LIMIT_*); production values for those omitted (server/http/rate-limits.ts). */
  rateLimits?: RateLimitOverrides;
  /** When guest and subscriber list totals stop being exact (LIST_EXACT_COUNT_UP_TO) and how long large ones are kept. */
  listCounts?: Partial<ListCountSettings>;
  /** How the background segment export worker runs (server/jobs/segment-export-runner.ts); defaults when omitted. */
  segmentExports?: Partial<SegmentExportRunnerSettings>;
  /** The flow engine: allowed webhook targets, and a test clock (TEST_CLOCK=true) that also serves POST /api/test/clock/. */
  flows?: { webhooks?: WebhookSettings; testClock?: SharedTestClock | null };
}

/** The app, and the services built with it that scripts and tests also use. */
export interface BuiltApp {
  app: FastifyInstance;
  auth: AuthSettings;
  tokens: AccessTokens;
  /** Every route the app registered, as Fastify saw it (the access test walks them all). */
  routes: readonly RouteOptions[];
}

/** The built client, when `npm run build` (scripts/build.mjs) has produced it. */
export const DEFAULT_CLIENT_DIR = resolve('dist/client');

/**
 * Builds the whole HTTP server: API under /api, OpenAPI docs, the OpenID provider under /oidc, and the
 * React app for every other path. The database must be migrated first (signing keys live in it).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  return (await buildAppWithServices(options)).app;
}

/** Like buildApp, also returning the sign-in settings and token service it was built with. */
export async function buildAppWithServices(options: AppOptions): Promise<BuiltApp> {
  const auth = options.auth ?? authSettingsFrom({});
  const brandName = options.brandName ?? DEFAULT_BRAND_NAME;
  const tokens = accessTokens(auth, await loadSigningKeys(options.db));
  const clientDir = options.clientDir === undefined ? DEFAULT_CLIENT_DIR : options.clientDir;
  const hasClient = clientDir !== null && existsSync(join(clientDir, 'index.html'));
  // Static serving is not set up for a request no route matched, so the app's page is kept for that case.
  const appPage =
    hasClient && clientDir !== null
      ? appPageSender(readFileSync(join(clientDir, 'index.html'), 'utf8'))
      : null;
  let writeSecurityHeaders: SecurityHeaderWriter = () => undefined;
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? 'info', options.logStream),
    routerOptions: { ignoreTrailingSlash: true },
    // A path that does not decode (`%E0%A4%A`) never reaches a route: the app's own page shows it as /404, and
    // the API answers in its error shape.
    frameworkErrors: (error, request, reply) => {
      const badUrlOfPage =
        error.code === 'FST_ERR_BAD_URL' && request.method === 'GET' && !request.url.startsWith('/api/');
      // The reply's route-typed status codes do not apply here: no route was matched.
      const plain = reply as unknown as FastifyReply;
      writeSecurityHeaders(plain);
      if (badUrlOfPage && appPage) {
        void appPage(request, plain);
        return;
      }
      void plain.status(error.statusCode ?? 400).send({
        error: {
          code: frameworkErrorCode(error.code),
          message: error.message,
        },
      });
    },
    bodyLimit: 1024 * 1024,
    clientErrorHandler: answerClientError,
    // Trust the nearest N proxies' X-Forwarded-For; with none the socket's address is the client's.
    trustProxy: (_address: string, hop: number) => hop < (options.trustProxyHops ?? 0),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  registerErrorHandling(app);
  registerOversizeBodies(app);
  writeSecurityHeaders = await registerSecurity(app, {
    ...auth,
    corsOrigins: options.corsOrigins ?? [],
    rateLimits: options.rateLimits,
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Regulars API',
        version: '1.0.0',
        description: 'Guest analytics and marketing for restaurant groups.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          companyToken: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <key>' },
        },
      },
      security: [{ bearer: [] }, { companyToken: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // Tags start folded: Swagger UI stopped drawing the list part-way once it held about 130 operations open.
    uiConfig: { docExpansion: 'none' },
    transformStaticCSP: docsContentSecurityPolicy,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  // The import job runner lives as long as the app: started here, stopped (between batches) on close.
  const importSettings = {
    ...DEFAULT_UPLOAD_SETTINGS,
    ...options.imports,
  };
  const mailer = createMailer(options.db, options.mail ?? {}, app.log);
  const mailFrom = options.mail?.from ?? `"${brandName}" <no-reply@${new URL(auth.publicUrl).hostname}>`;
  const sending = sendingSettingsFrom(
    { publicUrl: auth.publicUrl, smtpUrl: options.mail?.smtpUrl, ...options.sending },
    options.sending?.runner,
  );
  // Test sends leave through the transport the runner uses (its own pool, closed with the app).
  const testTransport = runTransport(options.db, sending.transport);
  const workers = jobWorkers(
    options.db,
    app.log,
    importSettings,
    {},
    {
      settings: options.segmentExports ?? {},
      mail: { mailer, publicUrl: auth.publicUrl, brandName, from: mailFrom },
    },
    sending,
    {
      clock: options.flows?.testClock ?? undefined,
      webhooks: options.flows?.webhooks,
      mail: { mailer, from: mailFrom },
    },
  );
  const runner = workers.imports;
  const homeDashboard = homeDashboardService(options.db, undefined, {
    // By the error's code or name only: a count's error may quote a guest's row.
    onCountFailed: (error) => app.log.error({ code: logCode(error, 'count') }, 'audience count failed'),
  });
  // Workers stop before the mailer closes: a finished export may still be mailing.
  app.addHook('onClose', async () => {
    await homeDashboard.settled();
    await stopWorkers(workers);
    await mailer.close();
    await testTransport.close();
  });
  const senderVerification = senderVerificationService({
    db: options.db,
    mailer,
    publicUrl: auth.publicUrl,
    brandName,
    from: mailFrom,
  });

  registerAuthentication(app, options.db, auth, tokens);
  registerAccessControl(app);
  registerTextRule(app);
  const emailImages = emailImagesService(options.db, auth.publicUrl);
  await app.register(emailImageFilesRoutes(emailImages));
  await app.register(emailFrameRoutes(auth.publicUrl));
  await app.register(
    async (api) => {
      await api.register(healthRoutes(healthService(options.db)));
      await api.register(brandRoutes(brandName));
      await api.register(demoRoutes(demoStatusService(options.db)));
      await api.register(locationsRoutes(locationsService(options.db)));
      await api.register(authConfigRoutes(authConfigService(auth)));
      await api.register(accountsRoutes(accountsService(options.db, auth, tokens)));
      await api.register(companyUsersRoutes(companyUsersService(options.db)));
      await api.register(companyTokensRoutes(companyTokensService(options.db)));
      await api.register(emailSendersRoutes(emailSendersService(options.db), senderVerification));
      await api.register(hijackRoutes(hijackService(options.db, tokens)));
      await api.register(supportRoutes(supportEventLogsService(options.db)));
      const profiles = customerProfilesService(options.db);
      const counts = listCounts({ ...DEFAULT_LIST_COUNT_SETTINGS, ...options.listCounts });
      await api.register(subscribersRoutes(subscribersService(options.db, profiles, counts)));
      await api.register(subscriberListsRoutes(subscriberListsService(options.db)));
      const segmentExports = segmentExportsService(options.db, workers.segmentExports);
      await api.register(segmentsRoutes(segmentsService(options.db), segmentExports));
      await api.register(segmentExportsRoutes(segmentExports));
      await api.register(emailTemplatesRoutes(emailTemplatesService(options.db, auth.publicUrl)));
      await api.register(
        mailSettingsRoutes(
          mailRunsService(options.db, installationDomain(auth.publicUrl)),
          sentMailService(options.db),
        ),
      );
      await api.register(emailImagesRoutes(emailImages));
      await api.register(
        campaignsRoutes({
          campaigns: campaignsService(options.db),
          sending: workers.campaignSending,
          testSends: campaignTestSendService(options.db, testTransport, {
            domain: sending.domain,
            unsubscribeBaseUrl: sending.runner.unsubscribeBaseUrl,
          }),
        }),
      );
      await api.register(flowsRoutes(flowsService(options.db)));
      await api.register(flowEngineRoutes(flowEngineService(options.db)));
      // Only a test installation (TEST_CLOCK=true) has this route at all.
      const testClock = options.flows?.testClock;
      if (testClock) await api.register(testClockRoutes(testClock, () => workers.flows.wake()));
      await api.register(segmentDashboardRoutes(segmentDashboardService(options.db)));
      await api.register(rfmRoutes(rfmService(options.db)));
      await api.register(guestsRoutes(guestsService(options.db, profiles, counts)));
      await api.register(bigdataRoutes(bigdataService(options.db)));
      await api.register(cohortsRoutes(cohortsService(options.db)));
      await api.register(
        guestDashboardsRoutes({
          guests: guestAnalyticsDashboardService(options.db),
          demographics: demographicsDashboardService(options.db),
        }),
      );
      await api.register(customerJourneyRoutes(customerJourneyService(options.db)));
      await api.register(posChecksRoutes(posChecksService(options.db)));
      await api.register(posCheckVoidsRoutes(posCheckVoidsService(options.db)));
      await api.register(clvRoutes(clvSettingsService(options.db)));
      await api.register(posAnalyticsRoutes(posAnalyticsService(options.db)));
      await api.register(analyticsSummaryRoutes(analyticsSummaryService(options.db)));
      await api.register(homeDashboardRoutes(homeDashboard));
      await api.register(basketRoutes(basketService(options.db)));
      await api.register(consumerInsightsRoutes(consumerInsightsService(options.db)));
      await api.register(
        importsRoutes(importsService(options.db, runner, importSettings), importSettings.maxBytes),
      );
    },
    { prefix: '/api' },
  );
  await app.register(unsubscribeRoutes(unsubscribeService(options.db)));
  await app.register(trackingRoutes(trackingService(options.db)));
  await app.register(
    viewInBrowserRoutes(
      viewInBrowserService(options.db, {
        baseUrl: sending.runner.unsubscribeBaseUrl,
        mailbox: sending.runner.unsubscribeMailbox,
      }),
      auth.publicUrl,
    ),
  );
  if (auth.embedded) await app.register(embeddedOidcPlugin({ db: options.db, settings: auth, brandName }));

  // index.html is answered below with a fresh style nonce, never as a stored file.
  const notIndex = (path: string) => path !== '/index.html';
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      allowedPath: notIndex,
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || !appPage || request.method !== 'GET') {
      throw new ApiError(404, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}`);
    }
    // Every other path belongs to the single-page app, which routes it (unknown ones to /404).
    return appPage(request, reply);
  });
  // Off (RUN_JOBS=false) when separate `npm run worker` processes run the jobs.
  if (options.imports?.runJobs !== false) startWorkers(workers);
  return { app, auth, tokens, routes };
}
