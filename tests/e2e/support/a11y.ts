import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: Promise<string> | null = null;

/** One accessibility rule a page breaks, with the elements that break it. */
export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The impacts a page must never have. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe-core (injected from the installed package, never fetched) on the page as it is now and answers
 * its serious and critical violations; an empty list means the page passes. Halfway through a fade, colours
 * read blended: call `settled` (pages.ts) first where something has just opened.
 */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) {
    axeSource ??= readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern; an
    // injected <script> element would be refused (script-src 'self').
    await page.evaluate(await axeSource);
  }
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }
    ).axe;
    const result = (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; html: string; failureSummary?: string }[];
      }[];
    };
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map(
        (node) =>
          `${node.target.map(String).join(' ')} ${node.html.slice(0, 160)} ${node.failureSummary ?? ''}`,
      ),
    }));
  });
  return violations.filter(
    (violation) => violation.impact !== null && BLOCKING_IMPACTS.has(violation.impact),
  );
}

/** The violations as readable lines, for an assertion message. */
export function describeViolations(violations: readonly A11yViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.impact}: ${violation.id} (${violation.help}) at ${violation.targets.join(', ')}`,
    )
    .join('\n');
}
