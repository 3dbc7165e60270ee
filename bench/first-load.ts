import { FIRST_LOAD_CEILING_KB, FIRST_LOAD_GOAL_KB, firstLoadSizes } from '../scripts/client-size.js';
import { printFigure, round } from './support.js';

/**
 * The JavaScript each measured page downloads before it shows, gzipped, from the current client build
 * (`npm run build` first), beside the goal and the ceiling `npm run check` enforces.
 */
export async function benchFirstLoad(): Promise<void> {
  for (const { page, gzipBytes, chunks } of await firstLoadSizes()) {
    printFigure({
      bench: 'first-load-js',
      page,
      gzip_kb: round(gzipBytes / 1024, 1),
      chunks,
      goal_kb: FIRST_LOAD_GOAL_KB,
      ceiling_kb: FIRST_LOAD_CEILING_KB,
    });
  }
}
