import type { Database } from '../db/database.js';
import {
  clvRunner,
  DEFAULT_CLV_RUNNER_SETTINGS,
  type ClvRunner,
  type ClvRunnerSettings,
} from './clv-runner.js';
import {
  importRunner,
  importRunnerDefaults,
  type ImportRunner,
  type ImportRunnerLog,
  type ImportRunnerSettings,
} from './import-runner.js';
import {
  segmentExportRunner,
  segmentExportRunnerDefaults,
  type SegmentExportRunner,
  type SegmentExportRunnerSettings,
} from './segment-export-runner.js';
import type { SegmentExportMail } from '../services/segment-export-writer.js';
import { sendRunner, type SendRunner } from './send-runner.js';
import { runTransport } from '../sending/run-transport.js';
import { sendingSettingsFrom, type SendingSettings } from '../sending/sending-settings.js';
import { campaignSendingService, type CampaignSendingService } from '../services/campaign-sending.service.js';
import {
  campaignScheduler,
  DEFAULT_CAMPAIGN_SCHEDULER_SETTINGS,
  type CampaignScheduler,
} from './campaign-scheduler.js';
import {
  DEFAULT_GROUP_PRESENCE_RUNNER_SETTINGS,
  groupPresenceRunner,
  type GroupPresenceRunner,
} from './group-presence-runner.js';
import {
  flowRunner,
  DEFAULT_FLOW_RUNNER_SETTINGS,
  type FlowRunner,
  type FlowRunnerDeps,
} from './flow-runner.js';

/**
 * The background job workers, as one registry: the API process starts them with `buildApp` (unless
 * `RUN_JOBS=false`) and `npm run worker` (server/worker.ts) runs them as a process of their own. Each worker
 * takes its work from a queue table with `FOR UPDATE SKIP LOCKED`, so any number of processes can run them on
 * one PostgreSQL database and a job still runs once. A new kind of job (sends, flows, segment refreshes) adds
 * one entry to `jobWorkers`.
 */

/** One kind of background work: started once, stopped between two units of work. */
export interface JobWorker {
  /** Names the worker in logs. */
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

/** Where workers report failures: codes and ids only, never personal data. */
export type JobWorkerLog = ImportRunnerLog;

/** The workers of the product and the ones the API process talks to directly. */
export interface JobWorkers {
  all: readonly JobWorker[];
  /** The imports worker, which an upload also wakes and waits for when it runs in the same process. */
  imports: ImportRunner;
  /** The CLV refresh worker (server/jobs/clv-runner.ts). */
  clv: ClvRunner;
  /** The background segment export worker (server/jobs/segment-export-runner.ts), which a trigger wakes. */
  segmentExports: SegmentExportRunner;
  /** The mail-run sender (server/jobs/send-runner.ts). */
  sends: SendRunner;
  /** Campaign sending (the send action and the scheduler's turns share it), waking the sender. */
  campaignSending: CampaignSendingService;
  /** The campaign scheduler (server/jobs/campaign-scheduler.ts). */
  campaigns: CampaignScheduler;
  /** The flow engine's runner (server/jobs/flow-runner.ts). */
  flows: FlowRunner;
  /** Fills the distinct-guest rows of groups whose members changed (server/jobs/group-presence-runner.ts). */
  groupPresence: GroupPresenceRunner;
}

/** The flow runner's clock, webhook rules and staff mail (the domain and log come from the registry). */
export type FlowWorkerOptions = Omit<FlowRunnerDeps, 'domain' | 'log'>;

/** How the segment export worker runs, and how it mails a finished export (none: not mailed). */
export interface SegmentExportWorkerOptions {
  settings?: Partial<SegmentExportRunnerSettings>;
  mail?: SegmentExportMail | null;
}

/** Every job worker over one database; none runs until started. */
export function jobWorkers(
  db: Database,
  log: JobWorkerLog,
  settings: Partial<ImportRunnerSettings> = {},
  clvSettings: Partial<ClvRunnerSettings> = {},
  exportOptions: SegmentExportWorkerOptions = {},
  sending: SendingSettings = sendingSettingsFrom({ publicUrl: 'http://localhost:3000' }),
  flowOptions: FlowWorkerOptions = {},
): JobWorkers {
  const imports = importRunner(db, log, { ...importRunnerDefaults(db.kind), ...settings });
  const clv = clvRunner(db, log, { ...DEFAULT_CLV_RUNNER_SETTINGS, ...clvSettings });
  const segmentExports = segmentExportRunner(
    db,
    log,
    { ...segmentExportRunnerDefaults(db.kind), ...exportOptions.settings },
    exportOptions.mail ?? null,
  );
  const transport = runTransport(db, sending.transport);
  const sends = sendRunner(db, transport, log, sending.runner);
  const campaignSending = campaignSendingService(db, { domain: sending.domain, wake: () => sends.wake() });
  const campaigns = campaignScheduler(campaignSending, log, DEFAULT_CAMPAIGN_SCHEDULER_SETTINGS);
  const flows = flowRunner(db, { ...flowOptions, domain: sending.domain, log }, DEFAULT_FLOW_RUNNER_SETTINGS);
  const groupPresence = groupPresenceRunner(db, log, DEFAULT_GROUP_PRESENCE_RUNNER_SETTINGS);
  return {
    all: [
      { name: 'imports', start: () => imports.start(), stop: () => imports.stop() },
      { name: 'clv', start: () => clv.start(), stop: () => clv.stop() },
      { name: 'segment-exports', start: () => segmentExports.start(), stop: () => segmentExports.stop() },
      {
        name: 'sends',
        start: () => sends.start(),
        stop: () => sends.stop().then(() => transport.close()),
      },
      { name: 'campaigns', start: () => campaigns.start(), stop: () => campaigns.stop() },
      { name: 'flows', start: () => flows.start(), stop: () => flows.stop() },
      { name: 'group-presence', start: () => groupPresence.start(), stop: () => groupPresence.stop() },
    ],
    imports,
    clv,
    segmentExports,
    sends,
    campaignSending,
    campaigns,
    flows,
    groupPresence,
  };
}

/** Starts every worker. */
export function startWorkers(workers: JobWorkers): void {
  for (const worker of workers.all) worker.start();
}

/** Stops every worker after its current unit of work. */
export async function stopWorkers(workers: JobWorkers): Promise<void> {
  await Promise.all(workers.all.map((worker) => worker.stop()));
}
