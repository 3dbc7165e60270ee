import type en from './locales/en.json';

/** A top-level group of messages, one per area of the app (`shell`, `subscribers`, …). */
export type MessageArea = keyof typeof en;

/**
 * The areas the browser loads before the first page shows: the frame, sign-in and error pages, page titles
 * and the header's pickers and menus. Every other area (a screen's own texts) arrives as a second chunk
 * that a screen waits for before it renders; `signin` is rendered by the server and never sent.
 */
export const SHELL_AREAS = [
  'brand',
  'auth',
  'shell',
  'errors',
  'pages',
  'locations',
  'support',
  'hijack',
] as const satisfies readonly MessageArea[];

/**
 * Areas only the server reads (the sign-in pages, the starter segments' and templates' texts, the unsubscribe
 * page and mail footer): left out of the browser's chunks.
 */
export const SERVER_AREAS = [
  'signin',
  'segmentStarters',
  'emailTemplateStarters',
  'mailCompliance',
] as const satisfies readonly MessageArea[];

/**
 * Areas loaded only with the routes that ask for them (`lazyScreen(…, { messages })` in src/app/routes.ts), so
 * the texts of the marketing screens do not grow every screen's first load: a part per area of the product.
 */
export const ROUTE_PARTS = {
  segments: ['segments', 'segmentRules', 'segmentDashboard', 'rfm', 'segmentExports'],
  // The email templates screen and the template editor.
  templates: ['emailTemplates', 'templateEditor'],
  // The campaign list and the campaign editor.
  campaigns: ['campaigns'],
  // The guest and subscriber profile (the largest screen's texts after the account's).
  profile: ['profile'],
  // The account settings (users, tokens, senders, postal address) and the sender verification page.
  account: ['account'],
  // The "Sent mail" viewer of captured messages.
  sentMail: ['sentMail'],
  // The flow list and the flow builder.
  flows: ['flows'],
  // Support staff's session replay (/support/replay).
  supportReplay: ['replay'],
  // The dashboards built on the dashboard kit (docs/dashboards.md): the kit's own texts and each dashboard's.
  dashboards: [
    'dashboardKit',
    'homeDashboard',
    'summaryDashboard',
    'overviewDashboard',
    'basketDashboard',
    'guestAnalyticsDashboard',
    'demographicsDashboard',
    'customerJourney',
    'consumerInsights',
  ],
} as const satisfies Record<string, readonly MessageArea[]>;

/** A part a route loads besides the screens' texts. */
export type RoutePart = keyof typeof ROUTE_PARTS;

/** The message chunks of each language: the shell's, every screen's, and the parts of some routes. */
export const MESSAGE_PARTS = ['shell', 'screens', ...(Object.keys(ROUTE_PARTS) as RoutePart[])] as const;

/** One of the message chunks of a language. */
export type MessagePart = 'shell' | 'screens' | RoutePart;

/** The areas a part holds, given every area of the language file. */
export function areasOfPart(part: MessagePart, allAreas: readonly string[]): string[] {
  const shell: readonly string[] = SHELL_AREAS;
  const server: readonly string[] = SERVER_AREAS;
  const ofRoutes: readonly string[] = Object.values(ROUTE_PARTS).flat();
  if (part === 'shell') return allAreas.filter((area) => shell.includes(area));
  if (part === 'screens')
    return allAreas.filter(
      (area) => !shell.includes(area) && !server.includes(area) && !ofRoutes.includes(area),
    );
  const own: readonly string[] = ROUTE_PARTS[part];
  return allAreas.filter((area) => own.includes(area));
}
