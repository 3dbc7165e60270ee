import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
import { routeMessagesReady, screenMessagesReady } from '../i18n/index.js';
import type { RoutePart } from '../i18n/parts.js';
import { findRoute, type RouteRole, type RouteRule } from '../machines/navigation.machine.js';
import type { Feature } from '../schemas/features.js';

/** How long a page's code may take to download before it counts as failed (spec section 9). */
export const CHUNK_TIMEOUT_MS = 120_000;

/**
 * The custom error pages /custom-error/error-1 … error-6: 1 a page's code failed to download
 * (ChunkLoadError), 2 its styles failed (CSS_CHUNK_LOAD_FAILED), 3 the server is unreachable, 4 the
 * session could not be restored, 5 an unexpected error, 6 maintenance or too many requests.
 */
export const CUSTOM_ERROR_CODES = [1, 2, 3, 4, 5, 6] as const;

/** One custom error page's number. */
export type CustomErrorCode = (typeof CUSTOM_ERROR_CODES)[number];

/** The custom error page for a code, remembering the path a Retry goes back to. */
export function customErrorPath(code: CustomErrorCode, retryPath: string): string {
  return `/custom-error/error-${code}?from=${encodeURIComponent(retryPath)}`;
}

/** The sidebar groups, in the order the sidebar shows them. */
export const NAV_GROUPS = ['insights', 'guests', 'marketing', 'locations', 'settings'] as const;

/** One sidebar group (its label is `pages.groups.<group>`). */
export type NavGroup = (typeof NAV_GROUPS)[number];

/** One page of the app: its path pattern, lazily loaded screen, title, feature, least role and place in the menu. */
export interface AppRoute extends RouteRule {
  /** e.g. `/dashboard` or `/flows/builder/:id`. */
  pattern: string;
  /** The screen, downloaded the first time the route is shown. */
  screen: LazyExoticComponent<ComponentType>;
  /** The i18n key of the page name in the title '{page} | {brand}'. */
  titleKey: string;
  /** The company feature the page belongs to (spec section 6), or null. */
  feature: Feature | null;
  /** The least role that may open it (`staff` for support staff only), or null for everyone signed in. */
  leastRole: RouteRole | null;
  /** True when the page shows inside the signed-in frame (header, sidebar, banner). */
  frame: boolean;
  /** The sidebar group listing it, or null when the sidebar does not (pages with parameters, errors). */
  group: NavGroup | null;
  /** The i18n keys of the breadcrumb trail, ending with the page. */
  breadcrumbs: readonly string[];
}

/**
 * A screen module's default export and the current language's screen texts, downloaded on first use, failing
 * as ChunkLoadError after 2 minutes. `shellTextsOnly` screens (the error pages) show texts that come with the
 * shell, so they render even when the screen texts cannot be downloaded. `messages` names a route part
 * (src/i18n/parts.ts) whose texts the screen needs too.
 */
function lazyScreen(
  load: () => Promise<{ default: ComponentType }>,
  options: { shellTextsOnly?: boolean; messages?: RoutePart } = {},
): LazyExoticComponent<ComponentType> {
  return lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve, reject) => {
        const timer = setTimeout(() => {
          const error = new Error(`A page took more than ${CHUNK_TIMEOUT_MS / 1000} s to load`);
          error.name = 'ChunkLoadError';
          reject(error);
        }, CHUNK_TIMEOUT_MS);
        // The screen's texts come with its code, so it never renders message keys.
        const texts = options.shellTextsOnly
          ? Promise.resolve()
          : Promise.all([screenMessagesReady(), options.messages && routeMessagesReady(options.messages)]);
        Promise.all([load(), texts]).then(
          ([module]) => {
            clearTimeout(timer);
            resolve(module);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }),
  );
}

/** Every screen of a later issue: one empty state naming the page and its feature (one chunk for all). */
const comingSoon = lazyScreen(() => import('./screens/ComingSoonScreen.js'));
/** Whether a page still shows the ComingSoon empty state (its screen is not built yet). */
export const isComingSoon = (route: AppRoute): boolean => route.screen === comingSoon;
const customError = lazyScreen(() => import('./screens/CustomErrorScreen.js'), { shellTextsOnly: true });

/** A page inside the frame; `group` null keeps it out of the sidebar. */
function page(
  pattern: string,
  screen: LazyExoticComponent<ComponentType>,
  titleKey: string,
  feature: Feature | null,
  group: NavGroup | null,
  options: { leastRole?: RouteRole; parent?: string; groupCrumb?: NavGroup } = {},
): AppRoute {
  const crumbGroup = group ?? options.groupCrumb;
  return {
    pattern,
    screen,
    titleKey,
    feature,
    leastRole: options.leastRole ?? null,
    frame: true,
    group,
    breadcrumbs: [
      ...(crumbGroup ? [`pages.groups.${crumbGroup}`] : []),
      ...(options.parent ? [options.parent] : []),
      titleKey,
    ],
  };
}

/** A page outside the frame (sign-in, custom errors, 404): no sidebar, no breadcrumbs. */
function bare(pattern: string, screen: LazyExoticComponent<ComponentType>, titleKey: string): AppRoute {
  return {
    pattern,
    screen,
    titleKey,
    feature: null,
    leastRole: null,
    frame: false,
    group: null,
    breadcrumbs: [],
  };
}

const dashboard = lazyScreen(() => import('./screens/DashboardScreen.js'), { messages: 'dashboards' });
/** One profile screen for guests and subscribers (spec section 2). */
const templateEditor = lazyScreen(() => import('./screens/TemplateEditorScreen.js'), {
  messages: 'templates',
});
const customerProfile = lazyScreen(() => import('./screens/CustomerProfileScreen.js'), {
  messages: 'profile',
});

/**
 * The route table: every route of spec section 2. The navigation machine checks each route's feature
 * (missing → /no-access) and least role (not allowed → /access-denied) after every navigation; unknown paths
 * go to /404. Pages of later issues share the ComingSoon empty state.
 */
export const ROUTES: readonly AppRoute[] = [
  bare(
    '/login',
    lazyScreen(() => import('./screens/LoginScreen.js')),
    'auth.titles.signIn',
  ),
  bare(
    '/authenticate',
    lazyScreen(() => import('./screens/AuthenticateScreen.js')),
    'auth.titles.authenticate',
  ),
  // Insights
  page('/dashboard', dashboard, 'shell.titles.dashboard', 'Recommendations', 'insights'),
  page('/marketing-analytics', dashboard, 'pages.titles.marketingAnalytics', 'Recommendations', null, {
    groupCrumb: 'insights',
  }),
  page(
    '/aben-overview',
    lazyScreen(() => import('./screens/OverviewDashboardScreen.js'), { messages: 'dashboards' }),
    'pages.titles.overview',
    'Overview',
    'insights',
  ),
  page(
    '/analytics',
    lazyScreen(() => import('./screens/SummaryDashboardScreen.js'), { messages: 'dashboards' }),
    'pages.titles.analytics',
    'Summary',
    'insights',
  ),
  page(
    '/rfm-dashboard',
    lazyScreen(() => import('./screens/RfmDashboardScreen.js'), { messages: 'segments' }),
    'pages.titles.rfm',
    'Segments Dashboard',
    'insights',
  ),
  page(
    '/basket-analytics',
    lazyScreen(() => import('./screens/BasketAnalyticsScreen.js'), { messages: 'dashboards' }),
    'pages.titles.basket',
    null,
    'insights',
  ),
  page(
    '/consumer/insights/analytics',
    lazyScreen(() => import('./screens/ConsumerInsightsScreen.js'), { messages: 'dashboards' }),
    'pages.titles.consumerInsights',
    'Consumer Insights Analytics',
    'insights',
  ),
  // Guests
  page(
    '/guest/analytics',
    lazyScreen(() => import('./screens/GuestAnalyticsScreen.js'), { messages: 'dashboards' }),
    'pages.titles.guestAnalytics',
    'Subscribers',
    'guests',
  ),
  page(
    '/segments',
    lazyScreen(() => import('./screens/SegmentsScreen.js'), { messages: 'segments' }),
    'pages.titles.segments',
    'Segments List',
    'guests',
  ),
  page(
    '/subscribers',
    lazyScreen(() => import('./screens/SubscribersScreen.js')),
    'pages.titles.subscribers',
    'Subscribers',
    'guests',
  ),
  page(
    '/subscriber-list',
    lazyScreen(() => import('./screens/SubscriberListsScreen.js')),
    'pages.titles.subscriberList',
    'Subscribers',
    'guests',
  ),
  page(
    '/subscriber/profile/:posId/:hashid/:id',
    customerProfile,
    'pages.titles.profile',
    'Subscribers',
    null,
    {
      groupCrumb: 'guests',
      parent: 'pages.titles.subscribers',
    },
  ),
  page('/guest/profile/:posId/:hashid/:id', customerProfile, 'pages.titles.profile', 'Subscribers', null, {
    groupCrumb: 'guests',
    parent: 'pages.titles.guestAnalytics',
  }),
  page(
    '/demographics',
    lazyScreen(() => import('./screens/DemographicsScreen.js'), { messages: 'dashboards' }),
    'pages.titles.demographics',
    'Demographics',
    'guests',
  ),
  page(
    '/heatmap',
    lazyScreen(() => import('./screens/CustomerJourneyScreen.js'), { messages: 'dashboards' }),
    'pages.titles.heatmap',
    'Customer Journey',
    'guests',
  ),
  // Marketing
  page(
    '/campaigns',
    lazyScreen(() => import('./screens/CampaignsScreen.js'), { messages: 'campaigns' }),
    'pages.titles.campaigns',
    'Campaigns',
    'marketing',
  ),
  // The campaign editor: `/campaigns/new`, which becomes `/campaigns/{id}` once its first save made it.
  page(
    '/campaigns/:id',
    lazyScreen(() => import('./screens/CampaignEditorScreen.js'), { messages: 'campaigns' }),
    'pages.titles.campaignEditor',
    'Campaigns',
    null,
    { groupCrumb: 'marketing', parent: 'pages.titles.campaigns' },
  ),
  page(
    '/campaign/analytics',
    comingSoon,
    'pages.titles.campaignAnalytics',
    'Campaign Analytics',
    'marketing',
  ),
  page(
    '/analytics/campaign-level',
    comingSoon,
    'pages.titles.campaignLevel',
    'Campaign Analytics',
    'marketing',
  ),
  page(
    '/flows',
    lazyScreen(() => import('./screens/FlowsScreen.js'), { messages: 'flows' }),
    'pages.titles.flows',
    'Campaign Flows',
    'marketing',
  ),
  // The flow builder: `/flows/builder/new` makes a draft and becomes `/flows/builder/{id}`.
  page(
    '/flows/builder/:id',
    lazyScreen(() => import('./screens/FlowBuilderScreen.js'), { messages: 'flows' }),
    'pages.titles.flowBuilder',
    'Campaign Flows',
    null,
    {
      groupCrumb: 'marketing',
      parent: 'pages.titles.flows',
    },
  ),
  page(
    '/templates',
    lazyScreen(() => import('./screens/TemplatesScreen.js'), { messages: 'templates' }),
    'pages.titles.templates',
    'Templates',
    'marketing',
  ),
  page(
    '/sent-mail',
    lazyScreen(() => import('./screens/SentMailScreen.js'), { messages: 'sentMail' }),
    'pages.titles.sentMail',
    'Campaigns',
    'marketing',
    { leastRole: 'marketer' },
  ),
  page('/editor-template', templateEditor, 'pages.titles.templateCreate', 'Templates', null, {
    groupCrumb: 'marketing',
    parent: 'pages.titles.templates',
  }),
  page('/editor-template/:id', templateEditor, 'pages.titles.templateEdit', 'Templates', null, {
    groupCrumb: 'marketing',
    parent: 'pages.titles.templates',
  }),
  // Locations
  page(
    '/locations',
    lazyScreen(() => import('./screens/LocationsScreen.js')),
    'pages.titles.locations',
    'Locations',
    'locations',
  ),
  page(
    '/locations-setup',
    lazyScreen(() => import('./screens/LocationsSetupScreen.js')),
    'pages.titles.locationsSetup',
    'Locations',
    'locations',
    { leastRole: 'admin' },
  ),
  page('/benchmark/analytics', comingSoon, 'pages.titles.benchmark', 'Benchmark Analytics', 'locations'),
  page('/compset', comingSoon, 'pages.titles.compset', null, 'locations'),
  page('/compset/:selectedLocationId', comingSoon, 'pages.titles.compsetMap', null, null, {
    groupCrumb: 'locations',
    parent: 'pages.titles.compset',
  }),
  // Settings
  page(
    '/account',
    lazyScreen(() => import('./screens/AccountScreen.js'), { messages: 'account' }),
    'shell.titles.account',
    null,
    'settings',
  ),
  // The link of a sender verification email (the Email senders tab of the account).
  page(
    '/verify-sender',
    lazyScreen(() => import('./screens/VerifySenderScreen.js'), { messages: 'account' }),
    'pages.titles.verifySender',
    'Campaigns',
    null,
    { groupCrumb: 'settings', parent: 'shell.titles.account' },
  ),
  page('/invoice-list', comingSoon, 'pages.titles.invoices', null, 'settings', { leastRole: 'admin' }),
  page('/invoice', comingSoon, 'pages.titles.invoice', null, null, {
    leastRole: 'admin',
    groupCrumb: 'settings',
    parent: 'pages.titles.invoices',
  }),
  page(
    '/hijack',
    lazyScreen(() => import('./screens/HijackScreen.js')),
    'shell.titles.hijack',
    null,
    'settings',
    { leastRole: 'staff' },
  ),
  page(
    '/support/machines',
    lazyScreen(() => import('./screens/SupportMachinesScreen.js')),
    'visualiser.titles.machines',
    null,
    'settings',
    { leastRole: 'staff' },
  ),
  page(
    '/support/replay',
    lazyScreen(() => import('./screens/SupportReplayScreen.js'), { messages: 'supportReplay' }),
    'visualiser.titles.replay',
    null,
    'settings',
    { leastRole: 'staff' },
  ),
  // Why a page is not shown
  page(
    '/no-access',
    lazyScreen(() => import('./screens/NoAccessScreen.js')),
    'shell.titles.noAccess',
    null,
    null,
  ),
  page(
    '/access-denied',
    lazyScreen(() => import('./screens/AccessDeniedScreen.js')),
    'shell.titles.accessDenied',
    null,
    null,
  ),
  ...CUSTOM_ERROR_CODES.map((code) =>
    bare(`/custom-error/error-${code}`, customError, `errors.custom.error${code}.title`),
  ),
  bare(
    '/404',
    lazyScreen(() => import('./screens/NotFoundScreen.js')),
    'shell.titles.notFound',
  ),
];

/** What the navigation machine needs of each route. */
export const ROUTE_RULES: readonly RouteRule[] = ROUTES.map(
  ({ pattern, feature, leastRole, breadcrumbs }) => ({
    pattern,
    feature,
    leastRole,
    breadcrumbs,
  }),
);

/** The route shown at a path, or null. */
export function routeAt(path: string): AppRoute | null {
  return findRoute(ROUTES, path);
}
