import { createTestModel } from '@xstate/graph';
import { createActor, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  campaignUpdateModeMachine,
  type EditorChoices,
  type EditorLoad,
} from '../../src/machines/campaign-update-mode.machine.js';
import { CAMPAIGN_LIMITS } from '../../src/schemas/campaigns.js';
import { DRAFT, EMAIL, progressOf, SERVER_DOWN, withStatus } from './support/campaign-fixtures.js';
import {
  pendingActor,
  reachedStates,
  replayPath,
  type Recording,
  type StateChecks,
} from './support/model-paths.js';
import { everyTransition, groupBy, valueKey } from './support/walk.js';

type Snapshot = SnapshotFrom<typeof campaignUpdateModeMachine>;
type Event = EventFromLogic<typeof campaignUpdateModeMachine>;

const CHOICES: EditorChoices = {
  segments: [{ id: 3, name: 'Regulars' }],
  lists: [{ id: 4, name: 'VIP' }],
  locations: [{ id: 1, name: 'Pier' }],
  groups: [],
  templates: [{ id: 5, name: 'New menu' }],
  senders: [
    { id: 2, name: 'Harbour Kitchen', email: 'hello@harbour.test', verified: true, is_default: true },
    { id: 6, name: 'Unverified', email: 'new@harbour.test', verified: false, is_default: false },
  ],
};
const NEW: EditorLoad = { campaign: null, choices: CHOICES };
const SAVED: EditorLoad = { campaign: DRAFT, choices: CHOICES };
const SENDING: EditorLoad = { campaign: withStatus('sending'), choices: CHOICES };
const COUNT = { recipients: 118, suppressed: 2 };
const HTML = '<!doctype html><p>Spring</p>';
const NAME_REFUSED = {
  status: 400,
  code: 'validation_failed',
  message: 'Please correct the highlighted fields.',
  fields: { name: 'A campaign named "Spring menu" already exists' },
  fieldProblems: { name: { code: 'in_use' } },
};
const POSTAL_REQUIRED = {
  status: 400,
  code: 'postal_address_required',
  message: "Set the company's postal address",
  fields: { postal_address: 'The company postal address is required before sending' },
  fieldProblems: { postal_address: { code: 'required' } },
};

/** The body the editor must save, worked out here from the draft's fields (not by the editor's helper). */
function expectedBody(snapshot: Snapshot) {
  const { name, audience, schedule } = snapshot.context.draft;
  const base = { name, audience, categories: schedule.categories };
  if (schedule.when === 'now')
    return { ...base, start: null, end: null, repeat_on: 'once', selectedDays: [], schedules: [] };
  if (schedule.when === 'once')
    return {
      ...base,
      start: schedule.start,
      end: null,
      repeat_on: 'once',
      selectedDays: [],
      schedules: schedule.schedules.slice(0, 1),
    };
  return {
    ...base,
    start: schedule.start,
    end: schedule.end,
    repeat_on: schedule.repeat_on,
    selectedDays: schedule.repeat_on === 'weekly' ? schedule.selectedDays : [],
    schedules: schedule.schedules,
  };
}

const done = <T>(src: string, output: T) =>
  ({ type: `xstate.done.actor.${src}`, actorId: src, output }) as unknown as Event;
const failed = (src: string, error: unknown) =>
  ({ type: `xstate.error.actor.${src}`, actorId: src, error }) as unknown as Event;

/** The events the walk offers in a state: the view's commands and the answers of the call under way. */
function eventsOf(snapshot: Snapshot): Event[] {
  const at = (value: object) => snapshot.matches(value);
  const { draft } = snapshot.context;
  const events: Event[] = [{ type: 'problem.dismiss' }];
  if (snapshot.matches('failed')) events.push({ type: 'load.retry' });
  if (snapshot.matches('loading'))
    events.push(
      done('loadEditor', NEW),
      done('loadEditor', SAVED),
      done('loadEditor', SENDING),
      failed('loadEditor', SERVER_DOWN),
    );
  const onStep = ['audience', 'content', 'schedule', 'review'].some((step) => at({ editing: step }));
  if (onStep) events.push({ type: 'step.next' }, { type: 'step.back' }, { type: 'step.go', step: 'review' });
  if (at({ editing: 'audience' }))
    events.push(
      { type: 'name.change', value: draft.name === '' ? 'Spring menu' : '' },
      { type: 'audience.change', audience: { segment_ids: draft.audience.segment_ids.length ? [] : [3] } },
      { type: 'count.due' },
    );
  if (at({ editing: { audience: 'counting' } }) || at({ editing: { review: 'counting' } }))
    events.push(done('countAudience', COUNT), failed('countAudience', SERVER_DOWN));
  if (at({ editing: 'content' })) {
    events.push(
      { type: 'content.change', content: { template_id: draft.content.template_id === null ? 5 : null } },
      { type: 'content.change', content: { subject: draft.content.subject ? '' : 'Our spring menu' } },
    );
    if (at({ editing: { content: { preview: 'failed' } } })) events.push({ type: 'preview.retry' });
    if (at({ editing: { content: { test: 'closed' } } }) || at({ editing: { content: { test: 'sent' } } }))
      events.push({ type: 'test.open' });
    if (at({ editing: { content: { test: 'open' } } }))
      events.push(
        { type: 'test.change', emails: 'chef@harbour.test' },
        { type: 'test.change', emails: 'not an address' },
        { type: 'test.submit' },
      );
    if (!at({ editing: { content: { test: 'closed' } } })) events.push({ type: 'test.close' });
    if (at({ editing: { content: { preview: 'loading' } } }))
      events.push(done('loadPreview', HTML), failed('loadPreview', SERVER_DOWN));
    if (at({ editing: { content: { test: 'sending' } } }))
      events.push(done('sendTest', { sent: 1 }), failed('sendTest', SERVER_DOWN));
  }
  if (at({ editing: 'schedule' }))
    events.push(
      { type: 'schedule.change', schedule: { when: 'once', start: '2026-12-01', schedules: ['09:30'] } },
      {
        type: 'schedule.change',
        schedule: { when: 'repeating', repeat_on: 'weekly', selectedDays: ['mon'], schedules: ['18:00'] },
      },
      { type: 'schedule.change', schedule: { when: 'now' } },
    );
  if (at({ editing: { saving: 'campaign' } }))
    events.push(
      done('saveCampaign', { ...DRAFT, name: draft.name }),
      failed('saveCampaign', NAME_REFUSED),
      failed('saveCampaign', SERVER_DOWN),
    );
  if (at({ editing: { saving: 'content' } }))
    events.push(done('saveEmail', EMAIL), failed('saveEmail', SERVER_DOWN));
  if (at({ editing: 'review' }))
    events.push({ type: 'send.request' }, { type: 'send.confirm' }, { type: 'send.dismiss' });
  if (at({ editing: { review: 'sending' } }))
    events.push(
      done('sendCampaign', withStatus('sending')),
      done('sendCampaign', withStatus('scheduled')),
      failed('sendCampaign', POSTAL_REQUIRED),
    );
  if (snapshot.matches('live'))
    events.push(
      { type: 'progress.due' },
      { type: 'campaign.pause' },
      { type: 'campaign.resume' },
      { type: 'campaign.cancel' },
      { type: 'cancel.confirm' },
      { type: 'cancel.dismiss' },
      { type: 'campaign.edit' },
    );
  if (at({ live: 'fetching' }))
    events.push(
      done('loadProgress', progressOf('sending', 40, 78)),
      done('loadProgress', progressOf('sent', 118, 0)),
      failed('loadProgress', SERVER_DOWN),
    );
  if (at({ live: 'acting' }))
    events.push(done('campaignAction', withStatus('paused')), failed('campaignAction', SERVER_DOWN));
  return events;
}

/** Every actor of the machine as a pending one that records its calls. */
const pendingActors = (recording: Recording) =>
  Object.fromEntries(
    [
      'loadEditor',
      'countAudience',
      'loadPreview',
      'saveCampaign',
      'saveEmail',
      'sendTest',
      'sendCampaign',
      'loadProgress',
      'campaignAction',
    ].map((src) => [src, pendingActor(src, recording)]),
  );

const start = (recording: Recording) =>
  campaignUpdateModeMachine.provide({
    actors: pendingActors(recording),
    // The paths send the timers' events themselves.
    delays: { countDelay: 2 ** 30, progressPoll: 2 ** 30 },
  });

const lastCall = (recording: Recording) => recording.invoked.at(-1);

const checks: StateChecks = {
  loading: (snapshot, recording) => {
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(lastCall(recording)).toEqual({ src: 'loadEditor', input: snapshot.context.campaignId });
  },
  failed: (snapshot) => {
    // Nothing loaded; the problem shows until dismissed.
    expect(snapshot.context.choices).toBeNull();
    if (snapshot.context.problem) expect(snapshot.context.problem).toMatchObject({ code: 'internal' });
  },
  'editing.audience': (snapshot) => expect(snapshot.context.step).toBe('audience'),
  'editing.content': (snapshot) => expect(snapshot.context.step).toBe('content'),
  'editing.schedule': (snapshot) => expect(snapshot.context.step).toBe('schedule'),
  'editing.review': (snapshot) => expect(snapshot.context.step).toBe('review'),
  'editing.audience.waiting': (snapshot) => {
    // A pick stopped any count under way: its answer can no longer arrive.
    expect(snapshot.children.countAudience).toBeUndefined();
  },
  'editing.audience.counting': (snapshot, recording) => {
    expect(lastCall(recording)).toEqual({ src: 'countAudience', input: snapshot.context.draft.audience });
  },
  'editing.audience.counted': (snapshot) => expect(snapshot.context.count).toEqual(COUNT),
  'editing.audience.uncounted': (snapshot) => expect(snapshot.context.count).toBeNull(),
  'editing.audience.empty': (snapshot) => {
    const { audience } = snapshot.context.draft as Snapshot['context']['draft'];
    expect(audience.segment_ids.length + audience.list_ids.length).toBe(0);
    expect(snapshot.context.count).toBeNull();
  },
  'editing.content.preview.none': (snapshot) => {
    expect(snapshot.context.draft.content.template_id).toBeNull();
    expect(snapshot.context.preview).toBeNull();
  },
  'editing.content.preview.loading': (snapshot, recording) => {
    const calls = recording.invoked.filter((call) => call.src === 'loadPreview');
    expect(calls.at(-1)?.input).toBe(snapshot.context.draft.content.template_id);
  },
  'editing.content.preview.shown': (snapshot) => {
    expect(snapshot.context.preview).toEqual({
      templateId: snapshot.context.draft.content.template_id,
      html: HTML,
    });
  },
  'editing.content.preview.failed': (snapshot) => expect(snapshot.context.preview).toBeNull(),
  'editing.content.test.closed': () => undefined,
  'editing.content.test.open': (snapshot) => {
    const { test } = snapshot.context as Snapshot['context'];
    // A refused address list names the field; nothing was sent.
    if (Object.keys(test.fieldErrors).length) expect(test.emails).not.toBe('chef@harbour.test');
  },
  'editing.content.test.sending': (snapshot, recording) => {
    const calls = recording.invoked.filter((call) => call.src === 'sendTest');
    const { campaignId, draft } = snapshot.context as Snapshot['context'];
    expect(calls.at(-1)?.input).toEqual({
      ...(campaignId === null ? {} : { campaign_id: campaignId }),
      ...(draft.content.template_id === null ? {} : { template_id: draft.content.template_id }),
      ...(draft.content.subject ? { subject: draft.content.subject } : {}),
      emails: ['chef@harbour.test'],
    });
  },
  'editing.content.test.sent': (snapshot) => expect(snapshot.context.test.sent).toBe(1),
  'editing.review.counting': (_snapshot, recording) => {
    expect(lastCall(recording)?.src).toBe('countAudience');
  },
  'editing.review.ready': () => undefined,
  'editing.review.confirming': (snapshot) => {
    // Only a saved campaign can be sent.
    expect(snapshot.context.campaignId).not.toBeNull();
  },
  'editing.review.sending': (snapshot, recording) => {
    expect(lastCall(recording)).toEqual({ src: 'sendCampaign', input: snapshot.context.campaignId });
  },
  'editing.saving': (snapshot) => {
    expect(snapshot.hasTag('saving')).toBe(true);
  },
  'editing.saving.campaign': (snapshot, recording) => {
    const { campaignId } = snapshot.context;
    // POST the first time (no id), PUT after; the whole draft as the schedule's way sends it.
    expect(lastCall(recording)).toEqual({
      src: 'saveCampaign',
      input: { id: campaignId, body: expectedBody(snapshot as Snapshot) },
    });
    expect((snapshot.context.draft as Snapshot['context']['draft']).name.trim()).not.toBe('');
  },
  'editing.saving.content': (snapshot, recording) => {
    const { campaignId, campaign, draft } = snapshot.context as Snapshot['context'];
    expect(campaignId).not.toBeNull();
    expect(lastCall(recording)).toEqual({
      src: 'saveEmail',
      input: { exists: campaign?.email != null, body: { campaign_id: campaignId, ...draft.content } },
    });
  },
  live: (snapshot) => {
    expect(snapshot.context.campaign).not.toBeNull();
  },
  'live.fetching': (snapshot, recording) => {
    expect(lastCall(recording)).toEqual({ src: 'loadProgress', input: snapshot.context.campaignId });
  },
  'live.waiting': (snapshot) => {
    // Polled only while the campaign sends.
    expect(snapshot.context.campaign?.status).toBe('sending');
  },
  'live.settled': (snapshot) => {
    const { progress, problem, campaign } = snapshot.context as Snapshot['context'];
    if (!problem) expect(progress?.status).not.toBe('sending');
    else expect(campaign?.status).not.toBe('sending');
  },
  'live.confirmingCancel': (snapshot) => {
    expect(['sending', 'scheduled', 'paused']).toContain(snapshot.context.campaign?.status);
  },
  'live.acting': (snapshot, recording) => {
    expect(lastCall(recording)).toEqual({
      src: 'campaignAction',
      input: { id: snapshot.context.campaignId, action: snapshot.context.action },
    });
  },
};

/** Model states: where, and the few facts of the draft that change what can happen. */
function serializeState(snapshot: unknown): string {
  const { value, context } = snapshot as Snapshot;
  const inContent = (snapshot as Snapshot).matches({ editing: 'content' });
  return JSON.stringify({
    value,
    id: context.campaignId !== null,
    dirty: context.dirty,
    contentDirty: context.contentDirty,
    named: context.draft.name !== '',
    someone: context.draft.audience.segment_ids.length > 0,
    template: context.draft.content.template_id,
    // The test's addresses matter only while its dialog can send them.
    test: inContent ? context.test.emails === 'chef@harbour.test' : null,
    status: context.campaign?.status,
    target: (snapshot as Snapshot).hasTag('saving') ? context.target : null,
  });
}

const model = createTestModel(campaignUpdateModeMachine, {
  events: eventsOf,
  serializeState,
  input: { campaignId: null },
});
const { transitions: paths } = everyTransition(campaignUpdateModeMachine, model as never);

/** Runs events on a real actor with the stand-in calls, answering each call as it starts. */
function run(input: { campaignId: number | null }, recording: Recording = { invoked: [], emitted: [] }) {
  const actor = createActor(start(recording), { input }).start();
  return { actor, recording, send: (event: Event) => actor.send(event) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('campaign update mode machine (model)', () => {
  it('reaches every state', () => {
    expect(reachedStates(paths)).toEqual([
      'editing.audience.counted',
      'editing.audience.counting',
      'editing.audience.empty',
      'editing.audience.uncounted',
      'editing.audience.waiting',
      'editing.content.preview.failed',
      'editing.content.preview.loading',
      'editing.content.preview.none',
      'editing.content.preview.shown',
      'editing.content.test.closed',
      'editing.content.test.open',
      'editing.content.test.sending',
      'editing.content.test.sent',
      'editing.review.confirming',
      'editing.review.counting',
      'editing.review.ready',
      'editing.review.sending',
      'editing.saving.campaign',
      'editing.saving.content',
      'editing.schedule',
      'failed',
      'live.acting',
      'live.confirmingCancel',
      'live.fetching',
      'live.settled',
      'live.waiting',
      'loading',
    ]);
  });

  it('walks a new campaign through every step, saving each, sends it and polls its progress to done', () => {
    vi.useFakeTimers();
    const recording: Recording = { invoked: [], emitted: [] };
    // Real delays this time: the count waits for the picks to settle, the progress is polled on a timer.
    const actor = createActor(
      campaignUpdateModeMachine.provide({
        actors: pendingActors(recording),
      }),
      { input: { campaignId: null } },
    ).start();
    const send = (event: Event) => actor.send(event);
    const calls = (src: string) => recording.invoked.filter((call) => call.src === src);
    send(done('loadEditor', NEW));
    send({ type: 'name.change', value: 'Spring menu' });
    send({ type: 'audience.change', audience: { segment_ids: [3] } });
    vi.advanceTimersByTime(300);
    send({ type: 'audience.change', audience: { list_ids: [4] } });
    vi.advanceTimersByTime(499);
    expect(calls('countAudience')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    // Two picks in a quick row are counted once, with both.
    expect(calls('countAudience')).toEqual([
      {
        src: 'countAudience',
        input: { segment_ids: [3], list_ids: [4], location_ids: [], location_group_ids: [] },
      },
    ]);
    send(done('countAudience', COUNT));
    expect(actor.getSnapshot().context.count).toEqual(COUNT);

    send({ type: 'step.next' });
    expect(calls('saveCampaign').at(-1)?.input).toMatchObject({ id: null, body: { name: 'Spring menu' } });
    send(done('saveCampaign', { ...DRAFT, audience: { ...DRAFT.audience, list_ids: [4] } }));
    expect(actor.getSnapshot().matches({ editing: 'content' })).toBe(true);

    send({ type: 'content.change', content: { template_id: 5 } });
    expect(calls('loadPreview').at(-1)?.input).toBe(5);
    send(done('loadPreview', HTML));
    send({ type: 'content.change', content: { subject: 'Our spring menu', sender_id: 2 } });
    // Another field leaves the preview alone.
    expect(calls('loadPreview')).toHaveLength(1);
    send({ type: 'test.open' });
    send({ type: 'test.change', emails: 'a@harbour.test, b@harbour.test\nc@harbour.test' });
    send({ type: 'test.submit' });
    expect(calls('sendTest').at(-1)?.input).toEqual({
      campaign_id: 41,
      template_id: 5,
      sender_id: 2,
      subject: 'Our spring menu',
      emails: ['a@harbour.test', 'b@harbour.test', 'c@harbour.test'],
    });
    send(done('sendTest', { sent: 3 }));
    send({ type: 'test.close' });

    send({ type: 'step.next' });
    // The campaign itself did not change: only its content is saved (POST, the first time).
    expect(calls('saveCampaign')).toHaveLength(1);
    expect(calls('saveEmail').at(-1)?.input).toEqual({
      exists: false,
      body: {
        campaign_id: 41,
        template_id: 5,
        sender_id: 2,
        subject: 'Our spring menu',
        preheader: '',
        tracking: true,
      },
    });
    send(done('saveEmail', EMAIL));
    expect(actor.getSnapshot().matches({ editing: 'schedule' })).toBe(true);

    send({ type: 'step.next' });
    // Nothing changed on the schedule step: no call, straight to the review.
    expect(calls('saveCampaign')).toHaveLength(1);
    expect(actor.getSnapshot().matches({ editing: { review: 'counting' } })).toBe(true);
    send(done('countAudience', COUNT));
    send({ type: 'send.request' });
    send({ type: 'send.confirm' });
    expect(calls('sendCampaign').at(-1)?.input).toBe(41);
    send(done('sendCampaign', withStatus('sending')));
    expect(calls('loadProgress')).toHaveLength(1);
    send(done('loadProgress', progressOf('sending', 40, 78)));
    vi.advanceTimersByTime(CAMPAIGN_LIMITS.progressPollSeconds * 1000 - 1);
    expect(calls('loadProgress')).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(calls('loadProgress')).toHaveLength(2);
    send(done('loadProgress', progressOf('sent', 118, 0)));
    // Done: no more polls.
    vi.advanceTimersByTime(CAMPAIGN_LIMITS.progressPollSeconds * 1000 * 5);
    expect(calls('loadProgress')).toHaveLength(2);
    expect(actor.getSnapshot().matches({ live: 'settled' })).toBe(true);
    expect(actor.getSnapshot().context.campaign?.status).toBe('sent');
    actor.stop();
  });

  it('saves a changed schedule with PUT, and keeps the content a PATCH once it exists', () => {
    const { actor, recording, send } = run({ campaignId: 41 });
    send(done('loadEditor', { campaign: withStatus('draft'), choices: CHOICES }));
    send({ type: 'step.go', step: 'schedule' });
    expect(actor.getSnapshot().matches({ editing: 'schedule' })).toBe(true);
    send({
      type: 'schedule.change',
      schedule: {
        when: 'repeating',
        repeat_on: 'weekly',
        selectedDays: ['fri', 'mon'],
        schedules: ['09:00', '18:00'],
      },
    });
    send({ type: 'step.back' });
    expect(recording.invoked.at(-1)).toEqual({
      src: 'saveCampaign',
      input: {
        id: 41,
        body: {
          name: 'Spring menu',
          audience: DRAFT.audience,
          start: null,
          end: null,
          repeat_on: 'weekly',
          selectedDays: ['fri', 'mon'],
          schedules: ['09:00', '18:00'],
          categories: ['menu'],
        },
      },
    });
    send(done('saveCampaign', withStatus('draft')));
    expect(actor.getSnapshot().matches({ editing: 'content' })).toBe(true);
    send({ type: 'content.change', content: { preheader: 'Fresh from the coast' } });
    send({ type: 'step.next' });
    expect(recording.invoked.at(-1)).toMatchObject({ src: 'saveEmail', input: { exists: true } });
    actor.stop();
  });

  it('keeps the step and shows the problems when a save is refused, and never sends a blank name', () => {
    const { actor, recording, send } = run({ campaignId: null });
    send(done('loadEditor', NEW));
    send({ type: 'step.next' });
    // Checked before any call: the name is required.
    expect(recording.invoked.some((call) => call.src === 'saveCampaign')).toBe(false);
    expect(actor.getSnapshot().matches({ editing: 'audience' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors.name?.code).toBe('required');
    send({ type: 'name.change', value: 'Spring menu' });
    expect(actor.getSnapshot().context.fieldErrors.name).toBeUndefined();
    send({ type: 'step.next' });
    send(failed('saveCampaign', NAME_REFUSED));
    expect(actor.getSnapshot().matches({ editing: 'audience' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors.name).toMatchObject({ code: 'in_use' });
    // Still unsaved: the next try posts again.
    send({ type: 'step.next' });
    expect(recording.invoked.at(-1)).toMatchObject({ src: 'saveCampaign', input: { id: null } });
    send(failed('saveCampaign', SERVER_DOWN));
    expect(actor.getSnapshot().context.problem).toMatchObject({ code: 'internal' });
    expect(actor.getSnapshot().context.dirty).toBe(true);
    actor.stop();
  });

  it('shows a refused send with the field to fix, and stays on the review', () => {
    const { actor, send } = run({ campaignId: 41 });
    send(done('loadEditor', SAVED));
    send({ type: 'step.go', step: 'review' });
    send(done('countAudience', COUNT));
    send({ type: 'send.request' });
    send({ type: 'send.dismiss' });
    expect(actor.getSnapshot().matches({ editing: { review: 'ready' } })).toBe(true);
    send({ type: 'send.request' });
    send({ type: 'send.confirm' });
    send(failed('sendCampaign', POSTAL_REQUIRED));
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: { review: 'ready' } })).toBe(true);
    expect(snapshot.context.problem).toMatchObject({ code: 'postal_address_required' });
    expect(Object.keys(snapshot.context.problem!.fields)).toEqual(['postal_address']);
    actor.stop();
  });

  it('pauses, resumes and cancels (after a confirmation) a campaign that sends', () => {
    const { actor, recording, send } = run({ campaignId: 41 });
    send(done('loadEditor', SENDING));
    expect(actor.getSnapshot().matches({ live: 'fetching' })).toBe(true);
    send(done('loadProgress', progressOf('sending', 10, 108)));
    expect(actor.getSnapshot().can({ type: 'campaign.resume' })).toBe(false);
    send({ type: 'campaign.pause' });
    expect(recording.invoked.at(-1)).toEqual({ src: 'campaignAction', input: { id: 41, action: 'pause' } });
    send(done('campaignAction', withStatus('paused')));
    send(done('loadProgress', progressOf('paused', 10, 108)));
    expect(actor.getSnapshot().matches({ live: 'settled' })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'campaign.pause' })).toBe(false);
    send({ type: 'campaign.resume' });
    expect(recording.invoked.at(-1)).toEqual({ src: 'campaignAction', input: { id: 41, action: 'resume' } });
    send(done('campaignAction', withStatus('sending')));
    send(done('loadProgress', progressOf('sending', 20, 98)));
    send({ type: 'campaign.cancel' });
    // Nothing happens before the confirmation.
    expect(recording.invoked.at(-1)?.src).toBe('loadProgress');
    send({ type: 'cancel.confirm' });
    expect(recording.invoked.at(-1)).toEqual({ src: 'campaignAction', input: { id: 41, action: 'cancel' } });
    send(done('campaignAction', withStatus('cancelled')));
    send(done('loadProgress', progressOf('cancelled', 20, 0)));
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ live: 'settled' })).toBe(true);
    expect(snapshot.can({ type: 'campaign.cancel' })).toBe(false);
    expect(snapshot.can({ type: 'campaign.edit' })).toBe(false);
    actor.stop();
  });

  it('opens a sent campaign read-only with its figures', () => {
    const { actor, send } = run({ campaignId: 41 });
    send(done('loadEditor', { campaign: withStatus('sent'), choices: CHOICES }));
    send(done('loadProgress', progressOf('sent', 118, 0)));
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ live: 'settled' })).toBe(true);
    expect(snapshot.context.progress?.counts.sent).toBe(118);
    for (const type of [
      'campaign.pause',
      'campaign.resume',
      'campaign.cancel',
      'campaign.edit',
      'step.next',
    ] as const)
      expect(snapshot.can({ type }), type).toBe(false);
    actor.stop();
  });

  const bySource = groupBy(paths, (path) => valueKey(path.steps.at(-2)?.state ?? path.state));
  for (const [source, group] of bySource) {
    it(`keeps each state's meaning through the ${group.length} transitions out of ${source}`, () => {
      for (const path of group) replayPath(path, start, checks, { campaignId: null });
    });
  }
});
