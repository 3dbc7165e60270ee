import { randomUUID } from 'node:crypto';
import type { Database, Sql } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import { systemClock, type Clock } from '../flows/clock.js';
import { DEFAULT_FREQUENCY_CAP, runEnrolmentSteps, type StepEffect } from '../flows/flow-steps.js';
import { enrolDateTriggers, enrolFromEvent } from '../flows/flow-triggers.js';
import { NO_WEBHOOKS, postWebhook, type WebhookSettings } from '../flows/webhook.js';
import {
  claimFlowEvents,
  failFlowEvent,
  finishFlowEvent,
  sweepFlowEvents,
} from '../repositories/flow-events.repository.js';
import {
  claimDueEnrolments,
  companiesWithDateFlows,
  failEnrolments,
  liveFlows,
  lockEnrolment,
  lockEnrolments,
  lockSubscribersOf,
  type LiveFlow,
} from '../repositories/flow-enrolments.repository.js';
import { laneChunks } from './flow-lanes.js';

/**
 * The flow runner (docs/flows.md, "The scheduler"), one of the job workers: every `everyMs` it turns trigger
 * events into enrolments, then claims due enrolments of live flows with `FOR UPDATE SKIP LOCKED` and runs each in
 * its own transaction under the row's lock. Any number of processes may run it on one database: a claimed row is
 * skipped by the others, and a dead worker's claim is taken over after the lease. The engine's time comes from
 * `clock` (the test clock in tests and with TEST_CLOCK=true).
 */

/** How the runner works. */
export interface FlowRunnerSettings {
  everyMs: number;
  /** Enrolments claimed at once. */
  batchSize: number;
  /** Trigger events claimed at once. */
  eventBatchSize: number;
  /** A claim older than this belongs to a dead worker. */
  leaseSeconds: number;
  /** Marketing emails per person per 7 days (flows and campaigns). */
  frequencyCap: number;
  /** Enrolments of one company run in one transaction (each under its own savepoint). */
  perTransaction: number;
  /** Transactions run at once in a turn (lanes); one person's enrolments always share a lane. */
  lanes: number;
}

/**
 * Every 2 seconds, 400 at a time in transactions of 50 on 4 lanes, 2-minute leases, the product's frequency
 * cap. Four lanes leave room in the default pool of 10 connections for a second runner and the requests.
 */
export const DEFAULT_FLOW_RUNNER_SETTINGS: FlowRunnerSettings = {
  everyMs: 2_000,
  lanes: 4,
  batchSize: 400,
  eventBatchSize: 500,
  leaseSeconds: 120,
  frequencyCap: DEFAULT_FREQUENCY_CAP,
  perTransaction: 50,
};

/** What the runner reaches outside its database. */
export interface FlowRunnerDeps {
  clock?: Clock;
  /** The installation's host, for Message-IDs. */
  domain: string;
  webhooks?: WebhookSettings;
  /** Staff notes leave through the installation's mailer, from its address; none: not sent. */
  mail?: { mailer: Mailer; from: string } | null;
  log: { error(details: object, message: string): void };
}

/** The runner as the workers' registry and the tests see it. */
export interface FlowRunner {
  start(): void;
  /** Stops after the turn in flight. */
  stop(): Promise<void>;
  /** Runs turns until nothing is due at the clock's time; the events and steps handled. */
  tick(): Promise<{ events: number; enrolments: number }>;
  /** One batch of events (tests). */
  runEvents(): Promise<number>;
  /** One batch of due enrolments (tests). */
  runDue(): Promise<number>;
  /** The date-based triggers' pass now, whatever the hour (tests); the enrolments made. */
  runDaily(): Promise<number>;
  /** Runs a turn now (after the test clock moves), when started. */
  wake(): void;
  /** The worker's id (tests). */
  readonly worker: string;
}

/** Builds a runner; nothing runs until `start`. */
export function flowRunner(
  db: Database,
  deps: FlowRunnerDeps,
  settings: FlowRunnerSettings = DEFAULT_FLOW_RUNNER_SETTINGS,
): FlowRunner {
  const worker = `flows-${randomUUID()}`;
  const clock = deps.clock ?? systemClock;
  const webhooks = deps.webhooks ?? NO_WEBHOOKS;
  let timer: NodeJS.Timeout | null = null;
  let turn: Promise<unknown> = Promise.resolve();
  // The clock hour of the last date-based pass: the pass runs once an hour per process (each is idempotent).
  let dailyHour = -1;

  // An error's code only (an SQLSTATE, else what failed): its message may quote a person's data.
  const codeOf = (error: unknown, what: string) => {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : what;
  };
  const failed = (error: unknown, what: string) => {
    deps.log.error({ code: codeOf(error, what) }, `flow runner: ${what} failed`);
  };
  // A claim is let go in a transaction of its own after the one holding it failed; should that fail too, the
  // claim stays until another worker's lease runs out (the database is then out of reach anyway).
  const release = (companyId: number, work: (sql: Sql) => Promise<void>) =>
    db.tenant(companyId, work).catch((error: unknown) => failed(error, 'release'));

  async function runEvents(): Promise<number> {
    const events = await db.platform((sql) =>
      claimFlowEvents(sql, worker, settings.eventBatchSize, settings.leaseSeconds, clock.now()),
    );
    const flowsOf = new Map<number, LiveFlow[]>();
    for (const event of events) {
      try {
        await db.tenant(event.company_id, async (sql) => {
          if (!(await finishFlowEvent(sql, event.company_id, event.id, worker))) return;
          let flows = flowsOf.get(event.company_id);
          if (!flows) flowsOf.set(event.company_id, (flows = await liveFlows(sql, event.company_id)));
          await enrolFromEvent(sql, event.company_id, event, flows, clock.now());
        });
      } catch (error) {
        failed(error, 'event');
        const code = codeOf(error, 'event');
        await release(event.company_id, (sql) =>
          failFlowEvent(sql, event.company_id, event.id, worker, clock.now(), code),
        );
      }
    }
    return events.length;
  }

  async function runDue(): Promise<number> {
    const now = clock.now();
    const claimed = await db.platform((sql) =>
      claimDueEnrolments(sql, worker, now, settings.batchSize, settings.leaseSeconds),
    );
    await Promise.all(
      laneChunks(claimed, settings.lanes, settings.perTransaction).map(async (chunks) => {
        for (const { companyId, ids } of chunks) {
          const effects = await runChunk(companyId, ids, now);
          for (const effect of effects) await perform(companyId, effect);
        }
      }),
    );
    return claimed.length;
  }

  /**
   * Several enrolments of one company in one transaction (one commit for all: most of a step's cost otherwise),
   * each under a savepoint, so one that fails is rolled back alone, released and due again after a backoff. When
   * the transaction itself fails (its commit, a lost connection), every claim of the chunk is released the same
   * way in a new one: nothing stays claimed by this worker, which never takes its own claims over.
   */
  async function runChunk(companyId: number, ids: readonly number[], now: Date): Promise<StepEffect[]> {
    const context = {
      now,
      domain: deps.domain,
      frequencyCap: settings.frequencyCap,
      subscribersLocked: true,
    };
    try {
      return await db.tenant(companyId, async (sql) => {
        const effects: StepEffect[] = [];
        // The people first, in a fixed order, so the frequency cap counts one email at a time per person; then
        // the chunk's enrolments in one statement.
        await lockSubscribersOf(sql, companyId, ids);
        const states = await lockEnrolments(sql, companyId, ids, worker);
        // A person whose earlier enrolment ran in this chunk may have changed since the states were read.
        const ran = new Set<number | null>();
        for (const id of ids) {
          const read = states.get(id);
          if (!read) continue;
          await sql.query('SAVEPOINT flow_enrolment');
          try {
            const state = ran.has(read.subscriber_id)
              ? await lockEnrolment(sql, companyId, id, worker)
              : read;
            ran.add(read.subscriber_id);
            if (state) effects.push(...(await runEnrolmentSteps(sql, companyId, state, context)));
            await sql.query('RELEASE SAVEPOINT flow_enrolment');
          } catch (error) {
            failed(error, 'step');
            await sql.query('ROLLBACK TO SAVEPOINT flow_enrolment');
            await failEnrolments(sql, companyId, [id], worker, now, codeOf(error, 'step'));
          }
        }
        return effects;
      });
    } catch (error) {
      failed(error, 'steps');
      const code = codeOf(error, 'steps');
      await release(companyId, (sql) => failEnrolments(sql, companyId, ids, worker, now, code));
      return [];
    }
  }

  async function runDaily(): Promise<number> {
    const now = clock.now();
    dailyHour = Math.floor(now.getTime() / 3_600_000);
    // Processed events are kept a week (for inspection), then forgotten.
    await db.platform((sql) => sweepFlowEvents(sql)).catch((error: unknown) => failed(error, 'sweep'));
    let made = 0;
    for (const companyId of await db.platform((sql) => companiesWithDateFlows(sql))) {
      try {
        made += await db.tenant(companyId, async (sql) =>
          enrolDateTriggers(sql, companyId, await liveFlows(sql, companyId), now),
        );
      } catch (error) {
        failed(error, 'daily');
      }
    }
    return made;
  }

  async function perform(companyId: number, effect: StepEffect): Promise<void> {
    if (effect.kind === 'webhook') {
      const outcome = await postWebhook(webhooks, effect.url, effect.body, effect.idempotencyKey);
      if (outcome !== 'posted') deps.log.error({ code: `webhook_${outcome}` }, 'flow webhook not posted');
      return;
    }
    if (!deps.mail) return;
    for (const to of effect.emails) {
      await deps.mail.mailer
        .send({ companyId, from: deps.mail.from, to, subject: effect.subject, text: effect.text })
        .catch((error: unknown) => failed(error, 'notify_staff'));
    }
  }

  async function tick() {
    let events = 0;
    let enrolments = 0;
    // The shared test clock may have been moved by another process.
    await clock.sync?.();
    if (Math.floor(clock.now().getTime() / 3_600_000) !== dailyHour) await runDaily();
    // Bounded: each pass moves every claimed enrolment to a later time or out of the flow.
    for (let pass = 0; pass < 10_000; pass += 1) {
      const handledEvents = await runEvents();
      const handled = await runDue();
      events += handledEvents;
      enrolments += handled;
      if (handledEvents === 0 && handled === 0) break;
    }
    return { events, enrolments };
  }

  const run = () => {
    turn = turn.then(tick).catch((error: unknown) => failed(error, 'turn'));
  };

  return {
    worker,
    wake() {
      if (timer) run();
    },
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
    runEvents,
    runDue,
    runDaily,
  };
}
