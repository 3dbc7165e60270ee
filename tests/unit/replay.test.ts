import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AnyStateMachine,
  createActor,
  fromCallback,
  fromPromise,
  sendTo,
  setup,
  SimulatedClock,
  spawnChild,
  StateMachine,
} from 'xstate';
import { createAppActor } from '../../src/app/actors.js';
import { hijackMachine } from '../../src/machines/hijack.machine.js';
import type { AuthConfig, HijackCandidate } from '../../src/schemas/accounts.js';
import { passwordChangeMachine } from '../../src/machines/password-change.machine.js';
import { provideSettingsForm } from '../../src/machines/support/settings-form.js';
import {
  type ExchangeInput,
  type SaveTokenInput,
  type SilentAuthorization,
  type TokenReceipt,
  tokenExpiryMachine,
} from '../../src/machines/token-expiry.machine.js';
import { MACHINE_LIST, MACHINES } from '../../src/machines/registry.js';
import { supportLogMachine } from '../../src/machines/support-log.machine.js';
import { formatReplay, LogParseError, parseJsonLines, replayLog } from '../../src/replay/replay.js';
import { createEventLog, type EventLogEntry } from '../../src/services/event-log.js';

const CANDIDATE: HijackCandidate = {
  id: 41,
  email: 'ann.smith@example.com',
  name: 'Ann Smith',
  role: 'owner',
  company: { id: 3, name: 'Harbor Vine' },
};
const STARTED = {
  access_token: 'eyJ.staff.as.ann',
  token_type: 'Bearer' as const,
  expires_in: 3600,
  impersonation_id: 9,
};
const AUTH_CONFIG: AuthConfig = {
  issuer: 'http://localhost:3000/oidc',
  authorization_endpoint: 'http://localhost:3000/oidc/auth',
  token_endpoint: 'http://localhost:3000/oidc/token',
  end_session_endpoint: null,
  client_id: 'regulars-web',
  redirect_uri: 'http://localhost:3000/authenticate',
  scope: 'openid',
  resource: 'http://localhost:3000/api',
};
const NEW_TOKEN = { access_token: 'eyJ.fresh', token_type: 'Bearer' as const, expires_in: 3600 };
const CLEAR_VALUES = [
  'ann.smith@example.com',
  'Ann Smith',
  'eyJ.staff.as.ann',
  'eyJ.fresh',
  'old-secret-1',
  'long-enough-1',
];

/** Lets settled promises deliver their done events. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A recorded session: three real machines with answering stand-ins, on a simulated clock, through the
 * app's event-log tap. Answers the log and the live actors' final snapshots.
 */
async function recordSession() {
  const clock = new SimulatedClock();
  clock.set(1_700_000_000_000);
  const log = createEventLog({ clock: () => clock.now() });
  const hijack = createAppActor(
    hijackMachine.provide({
      actors: {
        searchUsers: fromPromise(async () => [CANDIDATE]),
        startImpersonation: fromPromise(async () => STARTED),
      },
    }),
    { log, clock },
  );
  const password = createAppActor(
    provideSettingsForm(passwordChangeMachine, { save: fromPromise(async () => NEW_TOKEN) }),
    { log, clock },
  );
  let sends = 0;
  const support = createAppActor(
    supportLogMachine.provide({
      actors: {
        sendLog: fromPromise(async () => {
          sends += 1;
          if (sends === 1) throw Object.assign(new Error('Try again'), { status: 503, code: 'unavailable' });
          return { id: 12 };
        }),
      },
    }),
    { log, clock },
  );
  hijack.start();
  password.start();
  support.start();
  await settle();
  clock.set(clock.now() + 1000);
  hijack.send({ type: 'search.change', query: 'ann.smith@example.com' });
  clock.set(clock.now() + 100);
  hijack.send({ type: 'search.change', query: 'Ann Smith' });
  // The pause ends: the machine's own delayed event starts the search.
  clock.set(clock.now() + 300);
  await settle();
  password.send({ type: 'field.change', field: 'current_password', value: 'old-secret-1' });
  password.send({ type: 'field.change', field: 'new_password', value: 'long-enough-1' });
  password.send({ type: 'field.change', field: 'confirm_password', value: 'long-enough-1' });
  password.send({ type: 'password.submit' });
  await settle();
  support.send({ type: 'log.send' });
  await settle();
  clock.set(clock.now() + 5000);
  support.send({ type: 'log.send' });
  await settle();
  hijack.send({ type: 'user.actAs', user: CANDIDATE });
  hijack.send({ type: 'impersonation.confirm' });
  await settle();
  const live = [hijack, password, support].map((actor) => {
    const snapshot = actor.getSnapshot();
    return { value: snapshot.value, status: snapshot.status };
  });
  return { log, live };
}

describe('replay', () => {
  it('reaches the live actors’ final states from the exported log', async () => {
    const { log, live } = await recordSession();
    expect(live).toEqual([
      { value: 'started', status: 'done' },
      { value: 'editing', status: 'active' },
      { value: 'sent', status: 'active' },
    ]);
    const result = replayLog(parseJsonLines(log.toJsonLines()), MACHINES);
    expect(result.finals.map(({ machine, value, status }) => ({ machine, value, status }))).toEqual([
      { machine: 'hijack', value: 'started', status: 'done' },
      { machine: 'passwordChange', value: 'editing', status: 'active' },
      { machine: 'supportLog', value: 'sent', status: 'active' },
    ]);
    expect(result.finals[2]!.context).toEqual({ sentId: 12, problem: null });
  });

  it('records every delivered event, the clock’s own ones marked, and nothing personal in clear', async () => {
    const { log } = await recordSession();
    const text = log.toJsonLines();
    for (const clear of CLEAR_VALUES) expect(text).not.toContain(clear);
    const entries = parseJsonLines(text);
    expect(entries.map((entry) => entry.seq)).toEqual(entries.map((_, index) => index + 1));
    const settled = entries.find((entry) => entry.event.type === 'search.settled');
    expect(settled?.source).toBe(settled?.actor);
    const types = entries.filter((entry) => entry.machine === 'supportLog').map((entry) => entry.event.type);
    expect(types).toEqual([
      'xstate.init',
      'log.send',
      'xstate.error.actor.sendLog',
      'log.send',
      'xstate.done.actor.sendLog',
    ]);
    const result = replayLog(entries, MACHINES);
    expect(result.steps.find((step) => step.event === 'search.settled')).toMatchObject({
      value: { browsing: 'searching' },
      skipped: 'replayed by the clock',
    });
    expect(result.steps.find((step) => step.event === 'xstate.error.actor.sendLog')?.value).toBe('failed');
  });

  it('gives the same output for the same log, every time', async () => {
    const { log } = await recordSession();
    const text = log.toJsonLines();
    const first = formatReplay(replayLog(parseJsonLines(text), MACHINES));
    const second = formatReplay(replayLog(parseJsonLines(text), MACHINES));
    expect(second).toEqual(first);
    expect(first.at(-1)).toMatch(/^supportLog#\d+ \(supportLog\) sent \[active\]$/);
    expect(first).toContain('final states:');
  });

  it('logs a spawned machine under its parent, by its system id, and replays it on its own', () => {
    const log = createEventLog({ clock: () => 5 });
    const parent = setup({ actors: { form: passwordChangeMachine } }).createMachine({
      id: 'formHost',
      entry: spawnChild('form', { id: 'form', systemId: 'passwordForm' }),
      on: {
        'form.type': {
          actions: sendTo('form', { type: 'field.change', field: 'new_password', value: 'secret-1' }),
        },
      },
    });
    const actor = createAppActor(parent, { log });
    actor.start();
    actor.send({ type: 'form.type' });
    const entries = log.snapshot();
    const host = entries[0]!.actor;
    expect(host).toMatch(/^formHost#\d+$/);
    expect(
      entries.map(({ actor, machine, source, event }) => ({ actor, machine, source, type: event.type })),
    ).toEqual([
      { actor: host, machine: 'formHost', source: undefined, type: 'xstate.init' },
      { actor: `${host}/passwordForm`, machine: 'passwordChange', source: host, type: 'xstate.init' },
      { actor: host, machine: 'formHost', source: undefined, type: 'form.type' },
      { actor: `${host}/passwordForm`, machine: 'passwordChange', source: host, type: 'field.change' },
    ]);
    expect(JSON.stringify(entries)).not.toContain('secret-1');
    const result = replayLog(entries, { formHost: parent, passwordChange: passwordChangeMachine });
    expect(result.finals.map((final) => [final.actor, final.value])).toEqual([
      [host, {}],
      [`${host}/passwordForm`, 'editing'],
    ]);
    actor.stop();
  });

  it('replays a silent token renewal: its own timer, a listener given as input, the nonce check', async () => {
    const T0 = 1_700_000_000_000;
    const clock = new SimulatedClock();
    clock.set(T0);
    const log = createEventLog({ clock: () => clock.now() });
    const renewed: unknown[] = [];
    const listener = createActor(fromCallback(({ receive }) => receive((event) => renewed.push(event))));
    listener.start();
    const renewal = createAppActor(
      tokenExpiryMachine.provide({
        actors: {
          authorizeSilently: fromPromise<SilentAuthorization, { config: AuthConfig }>(async () => ({
            callback: { code: 'one-time-code', state: 'nonce-1', error: null },
            pkce: { verifier: 'V'.repeat(43), state: 'nonce-1', returnTo: '/' },
            now: clock.now(),
          })),
          exchangeCode: fromPromise<TokenReceipt, ExchangeInput>(async () => ({
            tokenData: { access_token: 'eyJ.renewed', token_type: 'Bearer', expires_in: 3600 },
            receivedAt: clock.now(),
          })),
          saveToken: fromPromise<void, SaveTokenInput>(async () => undefined),
        },
      }),
      { log, clock, input: { config: AUTH_CONFIG, listener, expiresAt: T0 + 600_000, now: T0 } },
    );
    renewal.start();
    clock.set(T0 + 600_000);
    for (let i = 0; i < 5; i++) await settle();
    expect(renewed).toHaveLength(1);
    const live = renewal.getSnapshot();
    const text = log.toJsonLines();
    for (const clear of ['one-time-code', 'nonce-1', 'eyJ.renewed', 'VVVV'])
      expect(text).not.toContain(clear);
    const [final] = replayLog(parseJsonLines(text), MACHINES).finals;
    expect(final).toMatchObject({ machine: 'tokenExpiry', value: live.value, status: live.status });
    expect((final!.context as { expiresAt: number }).expiresAt).toBe(live.context.expiresAt);
    renewal.stop();
  });

  it('prints the same states from `npm run replay` every time', async () => {
    const { log } = await recordSession();
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, log.toJsonLines());
    const tsx = join(import.meta.dirname, '../../node_modules/.bin/tsx');
    const script = join(import.meta.dirname, '../../scripts/replay.ts');
    const run = () => execFileSync(tsx, [script, file], { encoding: 'utf8' });
    const first = run();
    expect(run()).toBe(first);
    expect(first).toContain('final states:');
    expect(first).toMatch(/hijack#\d+ \(hijack\) started \[done\]/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('says in one line that a log file is missing, without a stack trace', () => {
    const tsx = join(import.meta.dirname, '../../node_modules/.bin/tsx');
    const script = join(import.meta.dirname, '../../scripts/replay.ts');
    const missing = join(tmpdir(), 'no-such-replay-log.jsonl');
    const run = spawnSync(tsx, [script, missing], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(`${missing}: no such file`);
  });

  it('keeps actor ids unique across a reload, so replay tells the two sessions apart', () => {
    let saved: EventLogEntry[] = [];
    const store = {
      load: () => saved,
      save: (entries: readonly EventLogEntry[]) => void (saved = [...entries]),
    };
    const before = createEventLog({ store, clock: () => 1 });
    const first = createAppActor(supportLogMachine, { log: before }).start();
    first.send({ type: 'log.send' });
    before.flush();
    const after = createEventLog({ store, clock: () => 2 });
    createAppActor(supportLogMachine, { log: after }).start();
    const ids = [...new Set(after.snapshot().map((entry) => entry.actor))];
    expect(ids).toHaveLength(2);
    const result = replayLog(after.snapshot(), MACHINES);
    // The unprovided upload fails at once, live and in replay alike.
    expect(result.finals.map((final) => final.value)).toEqual([first.getSnapshot().value, 'idle']);
    expect(first.getSnapshot().value).toBe('failed');
    first.stop();
  });

  it('says which actors it cannot replay rather than guessing', () => {
    const result = replayLog(
      [
        { seq: 1, at: 1, actor: 'nope#1', machine: 'nope', event: { type: 'xstate.init' } },
        { seq: 2, at: 2, actor: 'hijack#9', machine: 'hijack', event: { type: 'dialog.close' } },
      ],
      MACHINES,
    );
    expect(result.finals.map((final) => final.status)).toEqual([
      "not replayed: unknown machine 'nope'",
      'not replayed: its start is no longer in the log',
    ]);
  });

  it('names the bad line of a log', () => {
    expect(() =>
      parseJsonLines('{"seq":1,"at":1,"actor":"a","machine":"m","event":{"type":"x"}}\n\n{oops'),
    ).toThrow(new LogParseError(3, 'not valid JSON'));
    expect(() => parseJsonLines('{"seq":1,"at":1,"actor":"a","machine":"m","event":{}}')).toThrow(
      /line 1: event.type/,
    );
  });
});

describe('machine registry', () => {
  it('registers every machine exported by src/machines/*.machine.ts under its id', async () => {
    const dir = join(import.meta.dirname, '../../src/machines');
    const files = readdirSync(dir).filter((file) => file.endsWith('.machine.ts'));
    const exported: AnyStateMachine[] = [];
    for (const file of files) {
      const module = (await import(join(dir, file))) as Record<string, unknown>;
      for (const value of Object.values(module)) if (value instanceof StateMachine) exported.push(value);
    }
    expect(exported.length).toBeGreaterThanOrEqual(files.length);
    for (const machine of exported) expect(MACHINES[machine.id], machine.id).toBe(machine);
    expect(new Set(MACHINE_LIST.map((machine) => machine.id)).size).toBe(MACHINE_LIST.length);
  });
});
