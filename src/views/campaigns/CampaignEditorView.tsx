import { Alert, Button, Group, Loader, Modal, Stack, Stepper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatCount, languageOf } from '../../format/index.js';
import { CAMPAIGN_STEPS, type CampaignStep } from '../../machines/campaign-update-mode.machine.js';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { AudienceStep } from './AudienceStep.js';
import type { CampaignEditorActor } from './campaign-editor-actor.js';
import { CampaignProgressPanel } from './CampaignProgressPanel.js';
import { CampaignStatusBadge } from './CampaignStatusBadge.js';
import { CampaignSummaryPanel, FixLink } from './CampaignSummaryPanel.js';
import { ContentStep } from './ContentStep.js';
import { ScheduleStep } from './ScheduleStep.js';

/** A navigation held back because a step has unsaved changes: leave anyway, or stay. */
export interface LeaveGuard {
  blocked: boolean;
  leave: () => void;
  stay: () => void;
}

/**
 * The campaign editor (spec §2, campaign update mode): the step bar, the step shown, back and next (each
 * saving the draft), the review's send behind a confirmation naming the recipients, and after the send
 * the campaign's progress with its summary, read-only.
 */
export function CampaignEditorView({
  actor,
  timeZone,
  canWrite,
  leaveGuard,
  onBackToList,
  onOpenSettings,
}: {
  actor: CampaignEditorActor;
  /** The company's time zone, where the schedule's days and times are. */
  timeZone: string;
  canWrite: boolean;
  leaveGuard: LeaveGuard;
  onBackToList: () => void;
  onOpenSettings: () => void;
}) {
  const { t } = useTranslation();
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const editing = useSelector(actor, (state) => state.matches('editing'));
  const live = useSelector(actor, (state) => state.matches('live'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const name = useSelector(actor, (state) => state.context.draft.name);
  const status = useSelector(actor, (state) => state.context.campaign?.status ?? 'draft');
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm" wrap="wrap">
          <Title order={2}>{name.trim() || t('campaigns.editor.untitled')}</Title>
          {!loading && !failed && <CampaignStatusBadge status={status} />}
        </Group>
        <Button variant="subtle" onClick={onBackToList}>
          {t('campaigns.editor.backToList')}
        </Button>
      </Group>
      {loading && (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">{t('campaigns.editor.loading')}</Text>
        </Group>
      )}
      {failed && (
        <LoadFailedAlert
          title={t('campaigns.editor.loadFailed')}
          message={problemMessage(t, 'campaigns', problem)}
          retryLabel={t('kit.retry')}
          onRetry={() => actor.send({ type: 'load.retry' })}
        />
      )}
      {editing && (
        <EditingSteps actor={actor} timeZone={timeZone} canWrite={canWrite} onOpenSettings={onOpenSettings} />
      )}
      {live && (
        <>
          <CampaignProgressPanel actor={actor} canWrite={canWrite} timeZone={timeZone} />
          <CampaignSummaryPanel actor={actor} timeZone={timeZone} editable={false} />
        </>
      )}
      <Modal opened={leaveGuard.blocked} onClose={leaveGuard.stay} title={t('campaigns.editor.unsavedTitle')}>
        <Stack gap="md">
          <Text size="sm">{t('campaigns.editor.unsaved')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={leaveGuard.stay} data-autofocus>
              {t('campaigns.editor.stay')}
            </Button>
            <Button color="red" onClick={leaveGuard.leave}>
              {t('campaigns.editor.leave')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The step bar, the step, its problems and the buttons under it. */
function EditingSteps({
  actor,
  timeZone,
  canWrite,
  onOpenSettings,
}: {
  actor: CampaignEditorActor;
  timeZone: string;
  canWrite: boolean;
  onOpenSettings: () => void;
}) {
  const { t } = useTranslation();
  const step = useSelector(actor, (state) => state.context.step);
  const saving = useSelector(actor, (state) => state.hasTag('saving'));
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const index = CAMPAIGN_STEPS.indexOf(step);
  // A phone shows the steps' names alone.
  const narrow = useMediaQuery('(max-width: 36em)');
  // Problems named on a field are shown there; the rest (and a refused send's) above the step.
  const shownAbove = problem && (!hasFieldMessages(problem) || step === 'review') ? problem : null;
  return (
    <Stack gap="lg">
      <Stepper
        active={index}
        onStepClick={(next) => actor.send({ type: 'step.go', step: CAMPAIGN_STEPS[next] as CampaignStep })}
        allowNextStepsSelect
        size="sm"
        aria-label={t('campaigns.editor.steps')}
      >
        {CAMPAIGN_STEPS.map((name) => (
          <Stepper.Step
            key={name}
            label={t(`campaigns.steps.${name}`)}
            description={narrow ? undefined : t(`campaigns.stepHints.${name}`)}
            aria-current={name === step ? 'step' : undefined}
            disabled={busy}
          />
        ))}
      </Stepper>
      {shownAbove && (
        <Alert
          color="red"
          withCloseButton
          closeButtonLabel={t('kit.close')}
          onClose={() => actor.send({ type: 'problem.dismiss' })}
          title={step === 'review' ? t('campaigns.review.sendRefused') : t('campaigns.editor.saveFailed')}
        >
          <Stack gap={4}>
            <Text size="sm">{problemMessage(t, 'campaigns', shownAbove)}</Text>
            {Object.entries(shownAbove.fields).map(([field, failure]) => (
              <Group key={field} gap="xs">
                <Text size="sm">{failure.message}</Text>
                <FixLink field={field} actor={actor} onOpenSettings={onOpenSettings} />
              </Group>
            ))}
          </Stack>
        </Alert>
      )}
      <form
        aria-label={t(`campaigns.steps.${step}`)}
        onSubmit={(event) => {
          event.preventDefault();
          if (step !== 'review') actor.send({ type: 'step.next' });
        }}
      >
        <Stack gap="lg">
          {step === 'audience' && <AudienceStep actor={actor} />}
          {step === 'content' && <ContentStep actor={actor} />}
          {step === 'schedule' && <ScheduleStep actor={actor} timeZone={timeZone} />}
          {step === 'review' && <CampaignSummaryPanel actor={actor} timeZone={timeZone} editable />}
          <Group justify="space-between">
            <Button
              variant="default"
              onClick={() => actor.send({ type: 'step.back' })}
              disabled={index === 0 || busy}
            >
              {t('campaigns.editor.back')}
            </Button>
            {step === 'review' ? (
              canWrite && <SendButton actor={actor} />
            ) : (
              <Button type="submit" loading={saving}>
                {t('campaigns.editor.next', { step: t(`campaigns.steps.${CAMPAIGN_STEPS[index + 1]!}`) })}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** The review's Send (or Schedule) button and its confirmation naming the recipient count. */
function SendButton({ actor }: { actor: CampaignEditorActor }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const when = useSelector(actor, (state) => state.context.draft.schedule.when);
  const name = useSelector(actor, (state) => state.context.draft.name);
  const count = useSelector(actor, (state) => state.context.count);
  const ready = useSelector(actor, (state) => state.can({ type: 'send.request' }));
  const confirming = useSelector(actor, (state) => state.matches({ editing: { review: 'confirming' } }));
  const sending = useSelector(actor, (state) => state.matches({ editing: { review: 'sending' } }));
  const label = when === 'now' ? t('campaigns.actions.send') : t('campaigns.actions.schedule');
  const recipients = count?.recipients ?? 0;
  const words = { name, formatted: formatCount(recipients, language) };
  return (
    <>
      <Button onClick={() => actor.send({ type: 'send.request' })} disabled={!ready} loading={sending}>
        {label}
      </Button>
      <Modal
        opened={confirming || sending}
        onClose={() => actor.send({ type: 'send.dismiss' })}
        title={label}
      >
        <Stack gap="md">
          <Text size="sm">
            {when === 'now'
              ? t('campaigns.review.confirmSend', words)
              : t('campaigns.review.confirmSchedule', words)}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => actor.send({ type: 'send.dismiss' })} disabled={sending}>
              {t('kit.cancel')}
            </Button>
            <Button onClick={() => actor.send({ type: 'send.confirm' })} loading={sending} data-autofocus>
              {label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
