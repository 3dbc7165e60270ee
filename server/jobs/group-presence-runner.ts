import type { Database } from '../db/database.js';
import { fillOneWaitingGroup } from '../repositories/group-presence.repository.js';

/**
 * The group presence worker (docs/dashboards.md, "Distinct guests from the presence rollup"): every `everyMs` it
 * fills the distinct-guest rows of the location groups whose members changed, one group per transaction, until
 * none waits (`fillOneWaitingGroup`). Any number of processes may run it on one database: a group being filled
 * is skipped by the others.
 */

/** How often the worker looks for waiting groups. */
export interface GroupPresenceRunnerSettings {
  everyMs: number;
}

/** Every 5 seconds: a group saved is counted from its rows again within seconds of its fill. */
export const DEFAULT_GROUP_PRESENCE_RUNNER_SETTINGS: GroupPresenceRunnerSettings = { everyMs: 5000 };

/** Where the worker reports failures: codes only. */
export interface GroupPresenceRunnerLog {
  error(details: object, message: string): void;
}

/** The worker as the workers' registry sees it. */
export interface GroupPresenceRunner {
  start(): void;
  /** Stops after the group in flight. */
  stop(): Promise<void>;
  /** One turn now (tests): fills every waiting group it can; resolves with how many it filled. */
  tick(): Promise<number>;
}

/** Builds the worker; nothing runs until `start`. */
export function groupPresenceRunner(
  db: Database,
  log: GroupPresenceRunnerLog,
  settings: GroupPresenceRunnerSettings,
): GroupPresenceRunner {
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  let turn: Promise<unknown> = Promise.resolve();

  const tick = async () => {
    let filled = 0;
    while (!stopping) {
      const done = await db.platform((sql) => fillOneWaitingGroup(sql));
      if (done !== 'filled') break;
      filled += 1;
    }
    return filled;
  };
  const run = () => {
    turn = turn.then(tick).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      log.error({ code: typeof code === 'string' ? code : 'group_presence' }, 'group presence fill failed');
    });
  };

  return {
    start() {
      if (timer) return;
      stopping = false;
      timer = setInterval(run, settings.everyMs);
      timer.unref();
      run();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      await turn;
    },
    tick,
  };
}
