import type { CampaignSendingService } from '../services/campaign-sending.service.js';

/**
 * The campaign scheduler (docs/campaigns.md, "Scheduling"): every `everyMs` it asks the sending service for one
 * turn, which creates the run of each due instant and settles campaigns whose runs finished. Any number of
 * processes may tick on one database: each instant is taken under its campaign's row lock and the run key is the
 * instant, so a run is created once.
 */

/** How often the scheduler looks for due campaigns. */
export interface CampaignSchedulerSettings {
  everyMs: number;
}

/** Every 15 seconds: a campaign at 09:00 goes by 09:00:15. */
export const DEFAULT_CAMPAIGN_SCHEDULER_SETTINGS: CampaignSchedulerSettings = { everyMs: 15_000 };

/** Where the scheduler reports failures: codes only. */
export interface CampaignSchedulerLog {
  error(details: object, message: string): void;
}

/** The scheduler as the workers' registry sees it. */
export interface CampaignScheduler {
  start(): void;
  /** Stops after the turn in flight. */
  stop(): Promise<void>;
  /** One turn now (tests); resolves with the runs it created. */
  tick(): Promise<number>;
}

/** Builds the scheduler; nothing runs until `start`. */
export function campaignScheduler(
  sending: CampaignSendingService,
  log: CampaignSchedulerLog,
  settings: CampaignSchedulerSettings,
): CampaignScheduler {
  let timer: NodeJS.Timeout | null = null;
  let turn: Promise<unknown> = Promise.resolve();

  const tick = () => sending.tick();
  const run = () => {
    turn = turn.then(tick).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      log.error({ code: typeof code === 'string' ? code : 'schedule' }, 'campaign scheduler turn failed');
    });
  };

  return {
    start() {
      if (timer) return;
      timer = setInterval(run, settings.everyMs);
      timer.unref();
      run();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await turn;
    },
    tick,
  };
}
