import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { EMAIL_FRAME_PATH } from '../../../src/schemas/email-templates.js';

/** The system Chromium (Debian's package); the suite never downloads a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless flags that keep Chromium quiet and off the network on a CI machine, running as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches the system Chromium headless through Playwright. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A page in its own context, with every console error and uncaught page error it has seen. */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors as `console.error: <text> (<url>)` and page errors as `pageerror: <message>`. */
  errors: string[];
  /**
   * Content-Security-Policy violations in any frame of the page (the `securitypolicyviolation` event and
   * the browser's "Refused to …" console messages); also counted among `errors`.
   */
  policyViolations: string[];
  close(): Promise<void>;
}

/** Chromium's notice that a script was refused in an email frame, which is sandboxed without scripts. */
const SANDBOX_REFUSAL = new RegExp(
  `^Blocked script execution in '[^']*${EMAIL_FRAME_PATH}' because the document's frame is sandboxed`,
);

/**
 * Opens a fresh context and page whose relative URLs resolve against `baseUrl`, and starts collecting
 * its console and page errors so a test can assert there were none.
 */
export async function openPage(browser: Browser, baseUrl: string): Promise<WatchedPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  const policyViolations: string[] = [];
  const violation = (text: string) => {
    policyViolations.push(text);
    errors.push(`csp: ${text}`);
  };
  await context.exposeBinding('__reportPolicyViolation', (_source, text: string) => violation(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportPolicyViolation?: (text: string) => void })
        .__reportPolicyViolation;
      const where = event.sourceFile ? ` from ${event.sourceFile}:${event.lineNumber}` : '';
      const sample = event.sample ? ` (${event.sample})` : '';
      report?.(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}${sample}${where} on ${event.documentURI}`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Refused to|Content Security Policy/.test(message.text())) {
      const where = message.location().url;
      violation(`console: ${message.text()}${where ? ` (${where}:${message.location().lineNumber})` : ''}`);
    }
    if (message.type() !== 'error') return;
    // Playwright's clock (page.clock.install) puts its script in every frame; the email frames' sandbox (no
    // scripts) refusing it is the sandbox at work, not an error of the page.
    if (SANDBOX_REFUSAL.test(message.text())) return;
    const location = message.location();
    errors.push(`console.error: ${message.text()}${location.url ? ` (${location.url})` : ''}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { page, context, errors, policyViolations, close: () => context.close() };
}
