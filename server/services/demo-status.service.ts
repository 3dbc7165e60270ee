import type { Database } from '../db/database.js';
import { readDemoLoadProgress, type DemoLoadProgress } from '../repositories/demo-loads.repository.js';
import type { DemoStatus } from '../../src/schemas/demo.js';

/** Checks loaded of those planned, in whole percent; 99 at most, as the plan is a target the load lands near. */
function percentOf(progress: DemoLoadProgress): number {
  return Math.min(99, Math.floor((100 * progress.checksLoaded) / Math.max(1, progress.checksTotal)));
}

/** What the demo-status route needs. */
export interface DemoStatusService {
  /** Whether the demo's POS history is still loading, and how far it got. */
  status(): Promise<DemoStatus>;
}

/** The demo data set's loading progress, read from `demo_loads` (any API process answers the same). */
export function demoStatusService(db: Database): DemoStatusService {
  return {
    async status() {
      const progress = await db.platform((sql) => readDemoLoadProgress(sql));
      if (progress.unfinished === 0) return { loading: false, percent: 100 };
      // A load that stopped on a failure is not loading any more: the banner goes until a start tries again.
      if (progress.failed > 0) return { loading: false, percent: percentOf(progress) };
      return { loading: true, percent: percentOf(progress) };
    },
  };
}
