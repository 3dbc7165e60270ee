import { afterAll, beforeAll } from 'vitest';
import type { WriteScope } from '../../server/repositories/scope.js';
import { testClock, type TestClock } from '../../server/flows/clock.js';
import {
  DEFAULT_FLOW_RUNNER_SETTINGS,
  flowRunner,
  type FlowRunner,
  type FlowRunnerSettings,
} from '../../server/jobs/flow-runner.js';
import type { FlowGraphItem } from '../../src/schemas/flows.js';
import { openTestDatabase, type TestDatabase } from './database.js';
import { makeSubscriber, systemScope } from './factories.js';
import { makeFlowCompany, makeLiveFlow, type FlowCompany } from './flow-fixture.js';

/**
 * The setup the flow engine's database tests share (tests/db/flow-safety, flow-exits): one database and one
 * sending company per file, a test clock started at 10:00 New York on a Tuesday (outside quiet hours), the flow
 * runner on that clock, and the graphs the tests enrol people in.
 */

const at = { x: 0, y: 0 };

/** One item of a flow graph, placed at the origin, leading to `next`. */
export const flowItem = (
  key: string,
  kind: FlowGraphItem['kind'],
  settings: unknown,
  next: string | null,
): FlowGraphItem => ({ key, kind, settings, position: at, next_key: next, no_key: null }) as FlowGraphItem;

/** The trigger "a new subscriber", keyed `t`. */
export const newSubscriberTrigger = (next: string) =>
  flowItem('t', 'trigger', { type: 'new_subscriber' }, next);

/** A wait of `amount` hours or days. */
export const waitFor = (key: string, amount: number, unit: 'hours' | 'days', next: string | null) =>
  flowItem(key, 'delay', { type: 'wait', amount, unit }, next);

/** An email of the template, its subject `Mail <key>` unless named. */
export const sendEmail = (key: string, templateId: number, next: string | null, subject = `Mail ${key}`) =>
  flowItem(
    key,
    'action',
    { type: 'send_email', template_id: templateId, sender_id: null, subject, preheader: '' },
    next,
  );

/** What a flow engine test file works with (read after its `beforeAll`). */
export interface FlowEngineFixture {
  readonly test: TestDatabase;
  readonly company: FlowCompany;
  /** The clock the last `startClock` made. */
  readonly clock: TestClock;
  /** The company's system scope (no user). */
  scope: () => WriteScope;
  /** A fresh clock at 2026-03-03 15:00 UTC: 10:00 New York on a Tuesday. */
  startClock: () => TestClock;
  /** The flow runner on the current clock, with the default settings but these. */
  runner: (settings?: Partial<FlowRunnerSettings>) => FlowRunner;
  /** Rows of a query run as the owner (past row-level security). */
  owner: <Row>(text: string, values?: unknown[]) => Promise<Row[]>;
  /** A new subscriber of the company; its id. */
  subscriber: () => Promise<number>;
  /** A live flow of the company holding `graph`. */
  liveFlow: (graph: FlowGraphItem[]) => Promise<{ flowId: number; versionId: number }>;
  /**
   * From a fresh clock: a live flow "new subscriber → wait an hour → email `a`", one new subscriber enrolled by a
   * runner's tick and waiting at `w`, and the hour over (the step due). The flow and that runner.
   */
  dueAfterAnHour: () => Promise<{ flowId: number; runner: FlowRunner }>;
}

/** Opens the database and the company before the file's tests and drops the database after them. */
export function useFlowEngine(
  companyName: string,
  options: { domain: string; log: { error(details: object, message: string): void } },
): FlowEngineFixture {
  let test: TestDatabase | undefined;
  let company: FlowCompany | undefined;
  let clock: TestClock | undefined;
  beforeAll(async () => {
    test = await openTestDatabase();
    company = await makeFlowCompany(test.db, companyName);
  });
  afterAll(() => test?.drop());
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`the flow engine fixture's ${what} is read before its beforeAll`);
    return value;
  };
  const fixture: FlowEngineFixture = {
    get test() {
      return ready(test, 'database');
    },
    get company() {
      return ready(company, 'company');
    },
    get clock() {
      return ready(clock, 'clock');
    },
    scope: () => systemScope(fixture.company.companyId),
    startClock: () => (clock = testClock(new Date('2026-03-03T15:00:00Z'))),
    runner: (settings = {}) =>
      flowRunner(
        fixture.test.db,
        { clock: fixture.clock, domain: options.domain, log: options.log },
        { ...DEFAULT_FLOW_RUNNER_SETTINGS, ...settings },
      ),
    owner: <Row>(text: string, values: unknown[] = []) =>
      fixture.test.db.owner(async (sql) => (await sql.query<Row>(text, values)).rows),
    subscriber: async () => (await makeSubscriber(fixture.test.db, fixture.company.companyId)).id,
    liveFlow: (graph) => makeLiveFlow(fixture.test.db, fixture.company.companyId, graph),
    dueAfterAnHour: async () => {
      const current = fixture.startClock();
      const { flowId } = await fixture.liveFlow([
        newSubscriberTrigger('w'),
        waitFor('w', 1, 'hours', 'a'),
        sendEmail('a', fixture.company.templateId, null),
      ]);
      await fixture.subscriber();
      const runner = fixture.runner();
      await runner.tick();
      current.advance(3600);
      return { flowId, runner };
    },
  };
  return fixture;
}
