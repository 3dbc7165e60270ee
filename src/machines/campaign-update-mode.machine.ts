import {
  assign,
  cancel,
  type DoneActorEvent,
  type ErrorActorEvent,
  raise,
  setup,
  stateIn,
  type TransitionConfig,
} from 'xstate';
import {
  CAMPAIGN_LIMITS,
  CampaignCreateSchema,
  EmailCampaignFieldsSchema,
  SendTestSchema,
  type AudienceCount,
  type Campaign,
  type CampaignAction,
  type CampaignAudience,
  type CampaignCreate,
  type CampaignProgress,
  type EmailCampaign,
  type EmailCampaignInput,
  type SendTest,
} from '../schemas/campaigns.js';
import { requestIn } from './kit/request.js';
import { fieldErrorsOf, problemOf, type ApiProblem, type FieldErrors } from './support/api-problem.js';
import {
  audienceNamesSomeone,
  campaignBodyOf,
  draftOfCampaign,
  emailBodyOf,
  EMPTY_DRAFT,
  type CampaignDraft,
  type ContentDraft,
  type ScheduleDraft,
} from './support/campaign-draft.js';
import { placeholder } from './support/placeholder.js';

/** The editor's steps, in order. */
export const CAMPAIGN_STEPS = ['audience', 'content', 'schedule', 'review'] as const;
/** One of CAMPAIGN_STEPS. */
export type CampaignStep = (typeof CAMPAIGN_STEPS)[number];

/** Something a picker offers: a segment, a list, a location, a group or a template. */
export interface EditorChoice {
  id: number;
  name: string;
}

/** A sender as the content step offers it: only verified ones can be picked. */
export interface SenderChoice extends EditorChoice {
  email: string;
  verified: boolean;
  is_default: boolean;
}

/** What the pickers offer, loaded with the campaign; a list the user may not read is empty. */
export interface EditorChoices {
  segments: EditorChoice[];
  lists: EditorChoice[];
  locations: EditorChoice[];
  groups: EditorChoice[];
  templates: EditorChoice[];
  senders: SenderChoice[];
}

/** `loadEditor`'s answer: the campaign (null for a new one) and the pickers' choices. */
export interface EditorLoad {
  campaign: Campaign | null;
  choices: EditorChoices;
}

/** What the editor opens: a saved campaign by id, or a new one (null). */
export interface CampaignUpdateInput {
  campaignId: number | null;
}

/** `saveCampaign`'s input: POST when the campaign has no id yet, else PUT. */
export interface SaveCampaignRequest {
  id: number | null;
  body: CampaignCreate;
}

/** `saveEmail`'s input: POST when the campaign has no content yet, else PATCH. */
export interface SaveEmailRequest {
  exists: boolean;
  body: EmailCampaignInput;
}

/** `campaignAction`'s input. */
export interface CampaignActionRequest {
  id: number;
  action: CampaignAction;
}

/** The test-send dialog: the addresses as typed, and the last answer. */
export interface TestSendState {
  emails: string;
  sent: number | null;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
}

/** What the editor knows. */
export interface CampaignUpdateContext {
  campaignId: number | null;
  /** The server's copy after the last load, save or action. */
  campaign: Campaign | null;
  draft: CampaignDraft;
  /** The campaign's own fields changed since the last save (a new campaign starts changed). */
  dirty: boolean;
  /** The content changed since it was last saved. */
  contentDirty: boolean;
  choices: EditorChoices | null;
  /** The step shown (while saving: the step being left). */
  step: CampaignStep;
  /** Where the step change under way goes once saved. */
  target: CampaignStep;
  /** The audience's last count (null: not counted, or nobody picked). */
  count: AudienceCount | null;
  /** The template the preview shows and its HTML. */
  preview: { templateId: number; html: string } | null;
  test: TestSendState;
  progress: CampaignProgress | null;
  /** The action under way after the send (pause, resume, cancel). */
  action: CampaignAction | null;
  fieldErrors: FieldErrors;
  /** Why the last call failed, shown on the step (a save, the send, an action, the load). */
  problem: ApiProblem | null;
}

/** What the editor's view sends. */
export type CampaignUpdateCommand =
  | { type: 'load.retry' }
  | { type: 'name.change'; value: string }
  | { type: 'audience.change'; audience: Partial<CampaignAudience> }
  | { type: 'content.change'; content: Partial<ContentDraft> }
  | { type: 'schedule.change'; schedule: Partial<ScheduleDraft> }
  | { type: 'step.next' }
  | { type: 'step.back' }
  | { type: 'step.go'; step: CampaignStep }
  | { type: 'preview.retry' }
  | { type: 'test.open' }
  | { type: 'test.change'; emails: string }
  | { type: 'test.submit' }
  | { type: 'test.close' }
  | { type: 'send.request' }
  | { type: 'send.confirm' }
  | { type: 'send.dismiss' }
  | { type: 'campaign.pause' }
  | { type: 'campaign.resume' }
  | { type: 'campaign.cancel' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.dismiss' }
  | { type: 'campaign.edit' }
  | { type: 'problem.dismiss' };

/** Everything the editor handles: commands, its timers and the calls' answers. */
export type CampaignUpdateEvent =
  | CampaignUpdateCommand
  | { type: 'count.due' }
  | { type: 'progress.due' }
  | { type: 'preview.check' }
  | DoneActorEvent<EditorLoad, 'loadEditor'>
  | ErrorActorEvent<unknown, 'loadEditor'>
  | DoneActorEvent<AudienceCount, 'countAudience'>
  | ErrorActorEvent<unknown, 'countAudience'>
  | DoneActorEvent<string, 'loadPreview'>
  | ErrorActorEvent<unknown, 'loadPreview'>
  | DoneActorEvent<Campaign, 'saveCampaign'>
  | ErrorActorEvent<unknown, 'saveCampaign'>
  | DoneActorEvent<EmailCampaign, 'saveEmail'>
  | ErrorActorEvent<unknown, 'saveEmail'>
  | DoneActorEvent<{ sent: number }, 'sendTest'>
  | ErrorActorEvent<unknown, 'sendTest'>
  | DoneActorEvent<Campaign, 'sendCampaign'>
  | ErrorActorEvent<unknown, 'sendCampaign'>
  | DoneActorEvent<CampaignProgress, 'loadProgress'>
  | ErrorActorEvent<unknown, 'loadProgress'>
  | DoneActorEvent<Campaign, 'campaignAction'>
  | ErrorActorEvent<unknown, 'campaignAction'>;

/** How long the audience count waits after a pick (ms): picks in a quick row are counted once. */
export const AUDIENCE_COUNT_DELAY_MS = 500;

/** Statuses the editor edits; any other opens the campaign's progress. */
const EDITABLE = ['draft'] as const;

const NO_TEST: TestSendState = { emails: '', sent: null, fieldErrors: {}, problem: null };

/** The addresses typed in the test dialog, one per comma, semicolon, space or line. */
export function testAddressesOf(typed: string): string[] {
  return typed
    .split(/[\s,;]+/)
    .map((address) => address.trim())
    .filter((address) => address !== '');
}

/** The test send's body: the campaign (once saved) and the content as it stands, to the typed addresses. */
function testBodyOf(context: CampaignUpdateContext): SendTest {
  const { template_id, sender_id, subject } = context.draft.content;
  return {
    ...(context.campaignId === null ? {} : { campaign_id: context.campaignId }),
    ...(template_id === null ? {} : { template_id }),
    ...(sender_id === null ? {} : { sender_id }),
    ...(subject.trim() === '' ? {} : { subject }),
    emails: testAddressesOf(context.test.emails),
  };
}

const stepAfter = (step: CampaignStep, by: 1 | -1): CampaignStep =>
  CAMPAIGN_STEPS[Math.min(CAMPAIGN_STEPS.length - 1, Math.max(0, CAMPAIGN_STEPS.indexOf(step) + by))]!;

const updateSetup = setup({
  types: {
    context: {} as CampaignUpdateContext,
    events: {} as CampaignUpdateEvent,
    input: {} as CampaignUpdateInput,
  },
  actors: {
    /** The campaign (`GET /campaigns/campaigns/{id}/`, none when new) and every picker's choices. */
    loadEditor: placeholder<EditorLoad, number | null>(),
    /** `POST /campaigns/audience-count/`. */
    countAudience: placeholder<AudienceCount, CampaignAudience>(),
    /** `GET /campaigns/email-templates/{id}/preview/`: the template's HTML. */
    loadPreview: placeholder<string, number>(),
    /** `POST /campaigns/campaigns/` (first save) or `PUT …/{id}/`. */
    saveCampaign: placeholder<Campaign, SaveCampaignRequest>(),
    /** `POST /campaigns/email-campaigns/` (first save) or `PATCH`. */
    saveEmail: placeholder<EmailCampaign, SaveEmailRequest>(),
    /** `POST /campaigns/send-test/`. */
    sendTest: placeholder<{ sent: number }, SendTest>(),
    /** `POST /campaigns/campaigns/{id}/send/`: the campaign, now sending or scheduled. */
    sendCampaign: placeholder<Campaign, number>(),
    /** `GET /campaigns/campaigns/{id}/progress/`. */
    loadProgress: placeholder<CampaignProgress, number>(),
    /** `POST /campaigns/campaigns/{id}/{pause|resume|cancel}/`. */
    campaignAction: placeholder<Campaign, CampaignActionRequest>(),
  },
  delays: {
    countDelay: AUDIENCE_COUNT_DELAY_MS,
    progressPoll: CAMPAIGN_LIMITS.progressPollSeconds * 1000,
  },
  guards: {
    opensEditable: (_, load: EditorLoad) =>
      load.campaign === null || (EDITABLE as readonly string[]).includes(load.campaign.status),
    namesSomeone: ({ context }) => audienceNamesSomeone(context.draft.audience),
    campaignDirty: ({ context }) => context.dirty,
    contentDirty: ({ context }) => context.contentDirty && context.campaignId !== null,
    draftInvalid: ({ context }) => !CampaignCreateSchema.safeParse(campaignBodyOf(context.draft)).success,
    contentInvalid: ({ context }) =>
      context.contentDirty && !EmailCampaignFieldsSchema.safeParse(context.draft.content).success,
    targetIs: ({ context }, step: CampaignStep) => context.target === step,
    stepIs: ({ context }, step: CampaignStep) => context.step === step,
    elsewhere: ({ context }, step: CampaignStep) => context.step !== step,
    previewDue: ({ context }) =>
      context.draft.content.template_id !== null &&
      context.draft.content.template_id !== context.preview?.templateId,
    noTemplate: ({ context }) => context.draft.content.template_id === null,
    testValid: ({ context }) => SendTestSchema.safeParse(testBodyOf(context)).success,
    canSend: ({ context }) => context.campaignId !== null,
    sending: ({ context }) => context.campaign?.status === 'sending',
    canPause: ({ context }) => ['sending', 'scheduled'].includes(context.campaign?.status ?? ''),
    canResume: ({ context }) => context.campaign?.status === 'paused',
    canCancel: ({ context }) => ['sending', 'scheduled', 'paused'].includes(context.campaign?.status ?? ''),
    canEdit: ({ context }) => context.campaign?.status === 'scheduled',
  },
  actions: {
    keepLoad: assign((_, load: EditorLoad) => ({
      choices: load.choices,
      campaign: load.campaign,
      campaignId: load.campaign?.id ?? null,
      draft: load.campaign ? draftOfCampaign(load.campaign) : EMPTY_DRAFT,
      dirty: load.campaign === null,
      contentDirty: false,
      problem: null,
    })),
    changeName: assign(({ context }, value: string) => ({
      draft: { ...context.draft, name: value },
      dirty: true,
      fieldErrors: withoutFields(context.fieldErrors, ['name']),
    })),
    changeAudience: assign(({ context }, audience: Partial<CampaignAudience>) => ({
      draft: { ...context.draft, audience: { ...context.draft.audience, ...audience } },
      dirty: true,
    })),
    changeContent: assign(({ context }, content: Partial<ContentDraft>) => ({
      draft: { ...context.draft, content: { ...context.draft.content, ...content } },
      contentDirty: true,
      fieldErrors: withoutFields(context.fieldErrors, Object.keys(content)),
    })),
    changeSchedule: assign(({ context }, schedule: Partial<ScheduleDraft>) => ({
      draft: { ...context.draft, schedule: { ...context.draft.schedule, ...schedule } },
      dirty: true,
      fieldErrors: withoutFields(context.fieldErrors, [...Object.keys(schedule), 'start', 'schedules']),
    })),
    enterStep: assign((_, step: CampaignStep) => ({ step, target: step })),
    aimAt: assign((_, step: CampaignStep) => ({ target: step, problem: null })),
    aimBy: assign(({ context }, by: 1 | -1) => ({ target: stepAfter(context.step, by), problem: null })),
    checkDraft: assign(({ context }) => {
      const campaign = CampaignCreateSchema.safeParse(campaignBodyOf(context.draft));
      const content = EmailCampaignFieldsSchema.safeParse(context.draft.content);
      return {
        fieldErrors: {
          ...(campaign.success ? {} : fieldErrorsOf(campaign.error)),
          ...(content.success || !context.contentDirty ? {} : fieldErrorsOf(content.error)),
        },
      };
    }),
    keepCampaign: assign((_, campaign: Campaign) => ({
      campaign,
      campaignId: campaign.id,
      dirty: false,
      fieldErrors: {},
      problem: null,
    })),
    keepEmail: assign(({ context }, email: EmailCampaign) => ({
      campaign: context.campaign ? { ...context.campaign, email } : null,
      contentDirty: false,
      fieldErrors: {},
      problem: null,
    })),
    keepCount: assign((_, count: AudienceCount) => ({ count })),
    forgetCount: assign({ count: null }),
    keepPreview: assign(({ context }, html: string) => ({
      preview: { templateId: context.draft.content.template_id ?? 0, html },
    })),
    forgetPreview: assign({ preview: null }),
    keepFailure: assign((_, error: unknown) => {
      const problem = problemOf(error);
      return { problem, fieldErrors: problem.fields };
    }),
    keepProblem: assign((_, error: unknown) => ({ problem: problemOf(error) })),
    dismissProblem: assign({ problem: null }),
    openTest: assign(({ context }) => ({ test: { ...NO_TEST, emails: context.test.emails } })),
    changeTest: assign(({ context }, emails: string) => ({
      test: { ...context.test, emails, fieldErrors: {}, problem: null },
    })),
    checkTest: assign(({ context }) => {
      const checked = SendTestSchema.safeParse(testBodyOf(context));
      return { test: { ...context.test, fieldErrors: checked.success ? {} : fieldErrorsOf(checked.error) } };
    }),
    keepTestSent: assign(({ context }, answer: { sent: number }) => ({
      test: { ...context.test, sent: answer.sent, problem: null, fieldErrors: {} },
    })),
    keepTestFailure: assign(({ context }, error: unknown) => {
      const problem = problemOf(error);
      return { test: { ...context.test, problem, fieldErrors: problem.fields } };
    }),
    keepProgress: assign(({ context }, progress: CampaignProgress) => ({
      progress,
      // The progress carries the newest status: the buttons follow it.
      campaign: context.campaign ? { ...context.campaign, status: progress.status } : null,
    })),
    aimAction: assign((_, action: CampaignAction) => ({ action, problem: null })),
  },
});
const request = requestIn(updateSetup);

/** The field errors without the named fields (the user just changed them). */
function withoutFields(fields: FieldErrors, names: readonly string[]): FieldErrors {
  return Object.fromEntries(
    Object.entries(fields).filter(
      ([name]) => !names.some((field) => name === field || name.startsWith(`${field}[`)),
    ),
  );
}

const ID = 'campaignUpdate';
type StepTransition = TransitionConfig<
  CampaignUpdateContext,
  CampaignUpdateEvent,
  CampaignUpdateEvent,
  never,
  never,
  never,
  never,
  never
>;

/** Transitions to each step, chosen by a guard on the context (`target` or `step`). */
const toSteps = (guard: 'targetIs' | 'stepIs', actions?: StepTransition['actions']) =>
  CAMPAIGN_STEPS.map((step) => ({
    guard: { type: guard, params: step },
    target: `#${ID}.editing.${step}`,
    actions,
  }));

const errorParams = ({ event }: { event: { error: unknown } }) => event.error;

/** A step's own state: it says it is shown, and leaves through a save on back, next or the step bar. */
function stepState(step: CampaignStep) {
  return {
    entry: { type: 'enterStep' as const, params: step },
    on: {
      'step.next': {
        target: `#${ID}.editing.saving`,
        actions: { type: 'aimBy' as const, params: 1 as const },
      },
      'step.back': {
        target: `#${ID}.editing.saving`,
        actions: { type: 'aimBy' as const, params: -1 as const },
      },
      'step.go': {
        guard: {
          type: 'elsewhere' as const,
          params: ({ event }: { event: { step: CampaignStep } }) => event.step,
        },
        target: `#${ID}.editing.saving`,
        actions: {
          type: 'aimAt' as const,
          params: ({ event }: { event: { step: CampaignStep } }) => event.step,
        },
      },
    },
  };
}

const countRequest = (done: string, failed: string) =>
  request('countAudience', {
    input: ({ context }) => context.draft.audience,
    done: { target: done, actions: { type: 'keepCount', params: ({ event }) => event.output } },
    error: { target: failed, actions: 'forgetCount' },
  });

/**
 * Spec §2's campaign update mode: one campaign's editor, from its audience to its send and progress.
 * - `loading` the campaign and the pickers (`loadEditor`) → `editing` a draft (or `live` for one that was
 *   sent, is sending, scheduled, paused or cancelled), or `failed` (retried with `load.retry`);
 * - `editing` walks the steps `audience` → `content` → `schedule` → `review` (back, next or the step bar);
 *   leaving a step enters `saving`, which checks the draft against the shared schemas, then saves the
 *   campaign (`saveCampaign`: POST the first time, PUT after) and its content (`saveEmail`: POST, then
 *   PATCH) when they changed, and arrives at the target step, or stays on the step it left with the server's
 *   field errors;
 * - `audience` counts the recipients after suppression (`countAudience`) `countDelay` after the last pick;
 * - `content` shows the chosen template's preview (`loadPreview`) and the test-send dialog (`sendTest`);
 * - `review` counts again, asks to confirm a send naming the count, and sends (`sendCampaign`, spec §4);
 * - `live` shows the status and progress (`loadProgress`), polled every `progressPoll` while sending and
 *   stopped when done; pause, resume and cancel (confirmed) call `campaignAction`; a scheduled campaign
 *   may go back to `editing`.
 */
export const campaignUpdateModeMachine = updateSetup.createMachine({
  id: ID,
  context: ({ input }) => ({
    campaignId: input.campaignId,
    campaign: null,
    draft: EMPTY_DRAFT,
    dirty: input.campaignId === null,
    contentDirty: false,
    choices: null,
    step: 'audience',
    target: 'audience',
    count: null,
    preview: null,
    test: NO_TEST,
    progress: null,
    action: null,
    fieldErrors: {},
    problem: null,
  }),
  initial: 'loading',
  on: { 'problem.dismiss': { actions: 'dismissProblem' } },
  states: {
    loading: {
      tags: ['busy'],
      ...request('loadEditor', {
        input: ({ context }) => context.campaignId,
        done: [
          {
            guard: { type: 'opensEditable', params: ({ event }) => event.output },
            target: 'editing',
            actions: { type: 'keepLoad', params: ({ event }) => event.output },
          },
          { target: 'live', actions: { type: 'keepLoad', params: ({ event }) => event.output } },
        ],
        error: { target: 'failed', actions: { type: 'keepProblem', params: errorParams } },
      }),
    },
    failed: { on: { 'load.retry': { target: 'loading', actions: 'dismissProblem' } } },
    editing: {
      initial: 'audience',
      states: {
        audience: {
          ...stepState('audience'),
          initial: 'waiting',
          on: {
            ...stepState('audience').on,
            // The name is edited with the audience (a change while saving would be lost).
            'name.change': { actions: { type: 'changeName', params: ({ event }) => event.value } },
            'audience.change': {
              target: '.waiting',
              reenter: true,
              actions: { type: 'changeAudience', params: ({ event }) => event.audience },
            },
          },
          states: {
            waiting: {
              entry: raise({ type: 'count.due' }, { delay: 'countDelay', id: 'countWait' }),
              exit: cancel('countWait'),
              on: {
                'count.due': [
                  { guard: 'namesSomeone', target: 'counting' },
                  { target: 'empty', actions: 'forgetCount' },
                ],
              },
            },
            counting: { tags: ['counting'], ...countRequest('counted', 'uncounted') },
            counted: {},
            uncounted: {},
            empty: {},
          },
        },
        content: {
          ...stepState('content'),
          type: 'parallel',
          on: {
            ...stepState('content').on,
            'content.change': {
              // The test dialog sends the content as it was when it opened.
              guard: stateIn('#campaignUpdate.editing.content.test.closed'),
              actions: [
                { type: 'changeContent', params: ({ event }) => event.content },
                raise({ type: 'preview.check' }),
              ],
            },
          },
          states: {
            preview: {
              initial: 'checking',
              on: { 'preview.check': { target: '.checking' } },
              states: {
                checking: {
                  always: [
                    { guard: 'noTemplate', target: 'none', actions: 'forgetPreview' },
                    { guard: 'previewDue', target: 'loading' },
                    { target: 'shown' },
                  ],
                },
                none: {},
                loading: {
                  tags: ['previewing'],
                  ...request('loadPreview', {
                    input: ({ context }) => context.draft.content.template_id ?? 0,
                    done: {
                      target: 'shown',
                      actions: { type: 'keepPreview', params: ({ event }) => event.output },
                    },
                    error: { target: 'failed', actions: 'forgetPreview' },
                  }),
                },
                shown: {},
                failed: { on: { 'preview.retry': { target: 'loading' } } },
              },
            },
            test: {
              initial: 'closed',
              states: {
                closed: { on: { 'test.open': { target: 'open', actions: 'openTest' } } },
                open: {
                  on: {
                    'test.change': { actions: { type: 'changeTest', params: ({ event }) => event.emails } },
                    'test.submit': [{ guard: 'testValid', target: 'sending' }, { actions: 'checkTest' }],
                    'test.close': { target: 'closed' },
                  },
                },
                sending: {
                  tags: ['busy'],
                  ...request('sendTest', {
                    input: ({ context }) => testBodyOf(context),
                    done: {
                      target: 'sent',
                      actions: { type: 'keepTestSent', params: ({ event }) => event.output },
                    },
                    error: { target: 'open', actions: { type: 'keepTestFailure', params: errorParams } },
                  }),
                },
                sent: {
                  on: {
                    'test.close': { target: 'closed' },
                    'test.open': { target: 'open', actions: 'openTest' },
                  },
                },
              },
            },
          },
        },
        schedule: {
          ...stepState('schedule'),
          on: {
            ...stepState('schedule').on,
            'schedule.change': { actions: { type: 'changeSchedule', params: ({ event }) => event.schedule } },
          },
        },
        review: {
          ...stepState('review'),
          initial: 'counting',
          states: {
            counting: { tags: ['counting'], ...countRequest('ready', 'ready') },
            ready: {
              on: { 'send.request': { guard: 'canSend', target: 'confirming', actions: 'dismissProblem' } },
            },
            confirming: {
              on: { 'send.confirm': { target: 'sending' }, 'send.dismiss': { target: 'ready' } },
            },
            sending: {
              tags: ['busy'],
              ...request('sendCampaign', {
                input: ({ context }) => context.campaignId ?? 0,
                done: {
                  target: `#${ID}.live`,
                  actions: { type: 'keepCampaign', params: ({ event }) => event.output },
                },
                error: { target: 'ready', actions: { type: 'keepFailure', params: errorParams } },
              }),
            },
          },
        },
        saving: {
          tags: ['busy', 'saving'],
          initial: 'checking',
          states: {
            checking: {
              always: [
                { guard: 'draftInvalid', target: 'refused', actions: 'checkDraft' },
                { guard: 'contentInvalid', target: 'refused', actions: 'checkDraft' },
                { guard: 'campaignDirty', target: 'campaign' },
                { guard: 'contentDirty', target: 'content' },
                ...toSteps('targetIs'),
              ],
            },
            campaign: {
              ...request('saveCampaign', {
                input: ({ context }) => ({ id: context.campaignId, body: campaignBodyOf(context.draft) }),
                done: {
                  target: 'checking',
                  actions: { type: 'keepCampaign', params: ({ event }) => event.output },
                },
                error: { target: 'refused', actions: { type: 'keepFailure', params: errorParams } },
              }),
            },
            content: {
              ...request('saveEmail', {
                input: ({ context }) => ({
                  exists: context.campaign?.email != null,
                  body: emailBodyOf(context.campaignId ?? 0, context.draft.content),
                }),
                done: {
                  target: 'checking',
                  actions: { type: 'keepEmail', params: ({ event }) => event.output },
                },
                error: { target: 'refused', actions: { type: 'keepFailure', params: errorParams } },
              }),
            },
            // Back to the step being left, with its problems shown on it.
            refused: { always: toSteps('stepIs') },
          },
        },
      },
    },
    live: {
      initial: 'fetching',
      on: {
        'campaign.pause': {
          guard: 'canPause',
          target: '.acting',
          actions: { type: 'aimAction', params: 'pause' },
        },
        'campaign.resume': {
          guard: 'canResume',
          target: '.acting',
          actions: { type: 'aimAction', params: 'resume' },
        },
        'campaign.cancel': { guard: 'canCancel', target: '.confirmingCancel', actions: 'dismissProblem' },
        'campaign.edit': { guard: 'canEdit', target: `#${ID}.editing.review` },
      },
      states: {
        fetching: {
          tags: ['polling'],
          ...request('loadProgress', {
            input: ({ context }) => context.campaignId ?? 0,
            done: [
              {
                guard: ({ event }) => event.output.status === 'sending',
                target: 'waiting',
                actions: { type: 'keepProgress', params: ({ event }) => event.output },
              },
              { target: 'settled', actions: { type: 'keepProgress', params: ({ event }) => event.output } },
            ],
            // A missed poll is tried again while the campaign sends.
            error: [
              { guard: 'sending', target: 'waiting', actions: { type: 'keepProblem', params: errorParams } },
              { target: 'settled', actions: { type: 'keepProblem', params: errorParams } },
            ],
          }),
        },
        waiting: {
          tags: ['polling'],
          entry: raise({ type: 'progress.due' }, { delay: 'progressPoll', id: 'progressWait' }),
          exit: cancel('progressWait'),
          on: { 'progress.due': { target: 'fetching' } },
        },
        settled: {},
        confirmingCancel: {
          on: {
            'cancel.confirm': { target: 'acting', actions: { type: 'aimAction', params: 'cancel' } },
            'cancel.dismiss': { target: 'fetching' },
          },
        },
        acting: {
          tags: ['busy'],
          ...request('campaignAction', {
            input: ({ context }) => ({ id: context.campaignId ?? 0, action: context.action ?? 'pause' }),
            done: {
              target: 'fetching',
              actions: { type: 'keepCampaign', params: ({ event }) => event.output },
            },
            error: { target: 'fetching', actions: { type: 'keepProblem', params: errorParams } },
          }),
        },
      },
    },
  },
});
