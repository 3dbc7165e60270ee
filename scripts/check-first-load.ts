/**
 * `npm run check`'s size step: prints each page's first-load JavaScript (scripts/client-size.ts) and fails when
 * one exceeds the ceiling. Run after a client build (`npm run build`, or the build check before it).
 */
import { FIRST_LOAD_CEILING_KB, FIRST_LOAD_GOAL_KB, firstLoadSizes } from './client-size.js';

async function main(): Promise<void> {
  const over: string[] = [];
  for (const { page, gzipBytes, chunks } of await firstLoadSizes()) {
    const kb = Math.round(gzipBytes / 102.4) / 10;
    console.log(`first load of ${page}: ${kb} KB of gzipped JavaScript in ${chunks} chunks`);
    if (kb > FIRST_LOAD_CEILING_KB) over.push(`${page} (${kb} KB)`);
  }
  if (over.length > 0) {
    console.error(
      `First-load JavaScript over its ceiling of ${FIRST_LOAD_CEILING_KB} KB (goal ${FIRST_LOAD_GOAL_KB} KB): ` +
        `${over.join(', ')}. Load the new code with its screen (React.lazy) rather than with the app.`,
    );
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
