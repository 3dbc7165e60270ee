import type { Database } from '../db/database.js';
import {
  claimWaitingGroup,
  markGroupPresenceReady,
  waitingGroups,
} from '../repositories/group-presence.repository.js';
import { rebuildGroupCohorts } from '../repositories/cohort-rollups.repository.js';
import { rebuildGroupPresence } from '../repositories/guest-presence.repository.js';
import { tryLockCompanyIngestion } from '../repositories/pos-ingestion.repository.js';

/**
 * The group presence worker (docs/dashboards.md, "Distinct guests from the presence rollup"): every `everyMs` it
 * fills the distinct-guest rows and the cohort rows of the location groups whose members changed
 * (group-presence.repository.ts), each in a transaction of its own that claims the group's row (`FOR UPDATE SKIP
 * LOCKED`), then tries the company's ingestion lock without waiting, fills the rows from the members' guest days
 * and months and marks the group ready. A group held elsewhere (a save, a batch of checks, another worker) or whose
 * fill fails is left for the next turn and the others go on; a turn starts only when the last one has ended. Any
 * number of processes may run it.
 */

/** How often the worker looks for waiting groups. */
export interface GroupPresenceRunnerSettings {
  everyMs: number;
}

/** Every 5 seconds: a group saved is counted from its rows again within seconds of its fill. */
export const DEFAULT_GROUP_PRESENCE_RUNNER_SETTINGS: GroupPresenceRunnerSettings = { everyMs: 5000 };

/** Where the worker reports failures: codes and ids only. */
export interface GroupPresenceRunnerLog {
  error(details: object, message: string): void;
}

/** The worker as the workers' registry sees it. */
export interface GroupPresenceRunner {
  start(): void;
  /** Stops after the group in flight. */
  stop(): Promise<void>;
  /** One turn now (tests): tries each waiting group once; resolves with how many it filled. */
  tick(): Promise<number>;
}

/** Fills one waiting group's rows in a transaction of its own; false when it was not to be had now. */
async function fillGroup(db: Database, groupId: number): Promise<boolean> {
  return db.platform(async (sql) => {
    const companyId = await claimWaitingGroup(sql, groupId);
    if (companyId === null) return false;
    // Never waits: this transaction already holds the group's row, and a deletion takes the two the other way.
    if (!(await tryLockCompanyIngestion(sql, companyId))) return false;
    await rebuildGroupPresence(sql, companyId, groupId);
    await rebuildGroupCohorts(sql, companyId, groupId);
    await markGroupPresenceReady(sql, groupId);
    return true;
  });
}

/** Builds the worker; nothing runs until `start`. */
export function groupPresenceRunner(
  db: Database,
  log: GroupPresenceRunnerLog,
  settings: GroupPresenceRunnerSettings,
): GroupPresenceRunner {
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  let turn: Promise<number> | null = null;

  const tick = async () => {
    let filled = 0;
    for (const groupId of await db.platform((sql) => waitingGroups(sql))) {
      if (stopping) break;
      try {
        if (await fillGroup(db, groupId)) filled += 1;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        log.error(
          { groupId, code: typeof code === 'string' ? code : 'group_presence' },
          'group presence fill failed',
        );
      }
    }
    return filled;
  };
  const run = () => {
    // A long fill outlasts the interval: the next turn waits for the timer after it rather than queueing.
    if (turn) return;
    turn = tick()
      .catch((error: unknown) => {
        const code = (error as { code?: unknown }).code;
        log.error({ code: typeof code === 'string' ? code : 'group_presence' }, 'group presence turn failed');
        return 0;
      })
      .finally(() => {
        turn = null;
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
