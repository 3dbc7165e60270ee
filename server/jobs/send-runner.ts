import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database } from '../db/database.js';
import {
  claimOutboxBatch,
  findMailTokenSecret,
  finishOutboxBatch,
  type ClaimedMessage,
  type MessageOutcome,
} from '../repositories/mail-outbox.repository.js';
import { findCompanyMailIdentity, findRun } from '../repositories/mail-runs.repository.js';
import { compileRun, type CompiledRun } from '../sending/run-message.js';
import { classifyFailure, type RunTransport } from '../sending/run-transport.js';
import { unsubscribeTokens, type UnsubscribeTokens } from '../sending/unsubscribe-token.js';
import { isTrackableUrl, trackingTokens, type TrackingTokens } from '../sending/tracking-token.js';
import { companyRateLimiter } from '../sending/rate-limiter.js';
import { viewTokens } from '../sending/view-token.js';

/**
 * The worker that sends mail runs (docs/sending.md). It claims a batch of due outbox rows across companies
 * (`FOR UPDATE SKIP LOCKED`, as a lease), renders each message, sends the batch through the pooled transport
 * under each company's rate limit, and writes the outcomes in one statement. A process killed mid-batch leaves
 * its rows claimed; once the lease passes another worker claims them again, so at most that batch is sent twice
 * (each copy with the same Message-ID). Works the same on PGlite and PostgreSQL, in the API process or in
 * `npm run worker`.
 */

/** How the runner works; every value has a production default. */
export interface SendRunnerSettings {
  /** Rows claimed at once. */
  batchSize: number;
  /**
   * Batches in flight at once: one lane writes its outcomes and claims again while another sends, so the SMTP
   * connections stay busy. A crash sends at most `lanes × batchSize` messages twice.
   */
  lanes: number;
  /** How often an idle runner looks for work. */
  pollMs: number;
  /** How old a claim must be before another worker takes it over. */
  leaseMs: number;
  /** Messages per second per company (MAIL_RATE_PER_SECOND). */
  ratePerSecond: number;
  /** Tries before a temporary failure becomes `failed`. */
  maxAttempts: number;
  /** The first retry's wait; each later one doubles, up to `retryCapMs`. */
  retryBaseMs: number;
  retryCapMs: number;
  /** Where unsubscribe links point: `${unsubscribeBaseUrl}/u/{token}`. */
  unsubscribeBaseUrl: string;
  /** The address of the mailto List-Unsubscribe entry (`unsubscribe@host`). */
  unsubscribeMailbox: string;
}

/** Production defaults except the URLs, which come from the configuration. */
export const DEFAULT_SEND_RUNNER_SETTINGS: Omit<
  SendRunnerSettings,
  'unsubscribeBaseUrl' | 'unsubscribeMailbox'
> = {
  batchSize: 250,
  lanes: 2,
  pollMs: 1000,
  leaseMs: 2 * 60_000,
  ratePerSecond: 50,
  maxAttempts: 8,
  retryBaseMs: 60_000,
  retryCapMs: 6 * 60 * 60_000,
};

/** The link signers of one installation secret. */
interface Signers {
  unsubscribe: UnsubscribeTokens;
  tracking: TrackingTokens;
  view: UnsubscribeTokens;
}

/** Compiled runs a process keeps before starting afresh. */
const MAX_COMPILED_RUNS = 1000;

/** Where the runner reports failures: codes and ids only, never an address. */
export interface SendRunnerLog {
  error(details: object, message: string): void;
}

/** The runner as the workers' registry sees it. */
export interface SendRunner {
  start(): void;
  /** Stops after the batch in flight. */
  stop(): Promise<void>;
  /** Looks for work now (a run was just frozen). */
  wake(): void;
  /** Claims, sends and records one batch; resolves with how many rows it claimed (tests and the bench). */
  runBatch(): Promise<number>;
}

/** The wait before retry number `attempt` (1 = first retry): doubling from the base, capped. */
export function retryDelayMs(
  settings: Pick<SendRunnerSettings, 'retryBaseMs' | 'retryCapMs'>,
  attempt: number,
) {
  return Math.min(settings.retryCapMs, settings.retryBaseMs * 2 ** Math.max(0, attempt - 1));
}

/** Builds the runner; it does nothing until `start` (or `runBatch`). */
export function sendRunner(
  db: Database,
  transport: RunTransport,
  log: SendRunnerLog,
  settings: SendRunnerSettings,
): SendRunner {
  const worker = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const limiter = companyRateLimiter(settings.ratePerSecond);
  const runs = new Map<number, Promise<CompiledRun>>();
  let tokens: Promise<Signers> | null = null;
  let stopping = false;
  let loop: Promise<void> | null = null;

  const tokensOnce = () =>
    (tokens ??= db.platform(findMailTokenSecret).then((secret) => ({
      unsubscribe: unsubscribeTokens(secret),
      tracking: trackingTokens(secret),
      view: viewTokens(secret),
    })));

  // Run content never changes once frozen, so each run is compiled once per process.
  const compiled = (message: ClaimedMessage) => {
    let run = runs.get(message.run_id);
    if (!run) {
      // Finished runs are never asked for again: a long-lived process forgets them all now and then.
      if (runs.size >= MAX_COMPILED_RUNS) runs.clear();
      run = db.tenant(message.company_id, async (sql) => {
        const row = await findRun(sql, message.company_id, message.run_id);
        const company = await findCompanyMailIdentity(sql, message.company_id);
        return compileRun(row!, company!);
      });
      run.catch(() => runs.delete(message.run_id));
      runs.set(message.run_id, run);
    }
    return run;
  };

  async function sendOne(message: ClaimedMessage, signer: Signers): Promise<MessageOutcome> {
    if (message.suppressed) return { id: message.id, kind: 'suppressed' };
    try {
      const run = await compiled(message);
      const row = { companyId: message.company_id, outboxId: message.id };
      const token = signer.unsubscribe.sign(row);
      const base = settings.unsubscribeBaseUrl;
      const recipient = {
        email: message.email,
        merge: message.merge,
        messageId: message.message_id,
        runId: message.run_id,
        outboxId: message.id,
      };
      const rendered = run.render(recipient, {
        url: `${base}/u/${token}`,
        mailto: `mailto:${settings.unsubscribeMailbox}?subject=unsubscribe%20${token}`,
        viewUrl: `${base}/v/${signer.view.sign(row)}`,
        tracking: {
          pixelUrl: () => `${base}/o/${signer.tracking.signOpen(row)}.gif`,
          // A link too long to sign stays as written rather than becoming a redirect that cannot verify.
          clickUrl: (url) => (isTrackableUrl(url) ? `${base}/c/${signer.tracking.signClick(row, url)}` : url),
        },
      });
      await limiter.take(message.company_id);
      const { providerMessageId } = await transport.send(message.company_id, rendered);
      return { id: message.id, kind: 'sent', providerMessageId };
    } catch (error) {
      const failure = classifyFailure(error);
      const attempt = message.attempts + 1;
      if (failure.permanent)
        return { id: message.id, kind: 'failed', errorClass: failure.errorClass, suppress: true };
      if (attempt >= settings.maxAttempts) {
        return { id: message.id, kind: 'failed', errorClass: failure.errorClass, suppress: false };
      }
      return {
        id: message.id,
        kind: 'retry',
        errorClass: failure.errorClass,
        delayMs: retryDelayMs(settings, attempt),
      };
    }
  }

  async function runBatch(): Promise<number> {
    const batch = await db.platform((sql) =>
      claimOutboxBatch(sql, worker, settings.batchSize, settings.leaseMs),
    );
    if (batch.length === 0) return 0;
    const signer = await tokensOnce();
    const outcomes = await Promise.all(batch.map((message) => sendOne(message, signer)));
    for (const outcome of outcomes) {
      if (outcome.kind === 'failed' || outcome.kind === 'retry') {
        log.error({ outboxId: outcome.id, code: outcome.errorClass, outcome: outcome.kind }, 'mail not sent');
      }
    }
    await db.platform((sql) => finishOutboxBatch(sql, worker, outcomes));
    return batch.length;
  }

  // Lanes idle at once each sleep here; a wake-up (or the poll) sets all of them going.
  const sleepers = new Set<() => void>();
  const pause = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, settings.pollMs);
      timer.unref();
      sleepers.add(done);
    });
  const wakeAll = () => {
    for (const sleeper of [...sleepers]) sleeper();
  };

  async function lane(): Promise<void> {
    while (!stopping) {
      try {
        if ((await runBatch()) > 0) continue;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        log.error({ code: typeof code === 'string' ? code : 'send' }, 'send runner could not poll');
      }
      if (!stopping) await pause();
    }
  }

  async function run(): Promise<void> {
    await Promise.all(Array.from({ length: settings.lanes }, () => lane()));
  }

  return {
    start() {
      if (loop) return;
      stopping = false;
      loop = run().finally(() => {
        loop = null;
      });
    },
    async stop() {
      stopping = true;
      wakeAll();
      await loop;
    },
    wake() {
      wakeAll();
    },
    runBatch,
  };
}
