import {
  Alert,
  Box,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { testAddressesOf } from '../../machines/campaign-update-mode.machine.js';
import { CAMPAIGN_LIMITS } from '../../schemas/campaigns.js';
import { fieldMessage } from '../shared/field-message.js';
import { EmailFrame } from '../templates/EmailFrame.js';
import { problemMessage } from '../shared/problem-message.js';
import type { CampaignEditorActor } from './campaign-editor-actor.js';

/** The content step: template (with its thumbnail), subject, preheader, sender, tracking and the test send. */
export function ContentStep({ actor }: { actor: CampaignEditorActor }) {
  const { t } = useTranslation();
  const content = useSelector(actor, (state) => state.context.draft.content);
  const choices = useSelector(actor, (state) => state.context.choices);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const busy = useSelector(
    actor,
    (state) => state.hasTag('busy') && !state.matches({ editing: { content: { test: 'sending' } } }),
  );
  const senders = choices?.senders ?? [];
  const anyUnverified = senders.some((sender) => !sender.verified);
  const labels = {
    template: t('campaigns.fields.template'),
    subject: t('campaigns.fields.subject'),
    preheader: t('campaigns.fields.preheader'),
    sender: t('campaigns.fields.sender'),
  };
  const counter = (length: number, max: number) => t('campaigns.content.counter', { length, max });
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Stack gap="md">
        <Select
          label={labels.template}
          data={(choices?.templates ?? []).map((template) => ({
            value: String(template.id),
            label: template.name,
          }))}
          value={content.template_id === null ? null : String(content.template_id)}
          onChange={(value) =>
            actor.send({
              type: 'content.change',
              content: { template_id: value === null ? null : Number(value) },
            })
          }
          searchable
          withAsterisk
          nothingFoundMessage={t('campaigns.content.noTemplates')}
          error={fieldMessage(t, fieldErrors.template_id, labels.template)}
          disabled={busy}
        />
        <TextInput
          label={labels.subject}
          value={content.subject}
          onChange={(event) =>
            actor.send({ type: 'content.change', content: { subject: event.currentTarget.value } })
          }
          maxLength={CAMPAIGN_LIMITS.subjectMaxLength}
          description={counter(content.subject.length, CAMPAIGN_LIMITS.subjectMaxLength)}
          withAsterisk
          error={fieldMessage(t, fieldErrors.subject, labels.subject)}
          disabled={busy}
        />
        <TextInput
          label={labels.preheader}
          value={content.preheader}
          onChange={(event) =>
            actor.send({ type: 'content.change', content: { preheader: event.currentTarget.value } })
          }
          maxLength={CAMPAIGN_LIMITS.preheaderMaxLength}
          description={`${t('campaigns.content.preheaderHint')} ${counter(content.preheader.length, CAMPAIGN_LIMITS.preheaderMaxLength)}`}
          error={fieldMessage(t, fieldErrors.preheader, labels.preheader)}
          disabled={busy}
        />
        <Select
          label={labels.sender}
          data={senders.map((sender) => ({
            value: String(sender.id),
            label: sender.verified
              ? `${sender.name} <${sender.email}>`
              : `${sender.name} <${sender.email}> — ${t('campaigns.content.unverified')}`,
            disabled: !sender.verified,
          }))}
          value={content.sender_id === null ? null : String(content.sender_id)}
          onChange={(value) =>
            actor.send({
              type: 'content.change',
              content: { sender_id: value === null ? null : Number(value) },
            })
          }
          withAsterisk
          description={anyUnverified ? t('campaigns.content.unverifiedHint') : undefined}
          nothingFoundMessage={t('campaigns.content.noSenders')}
          error={fieldMessage(t, fieldErrors.sender_id, labels.sender)}
          disabled={busy}
        />
        {senders.length === 0 && <Alert color="yellow">{t('campaigns.content.noSenders')}</Alert>}
        <Switch
          label={t('campaigns.fields.tracking')}
          description={t('campaigns.content.trackingHint')}
          checked={content.tracking}
          onChange={(event) =>
            actor.send({ type: 'content.change', content: { tracking: event.currentTarget.checked } })
          }
          disabled={busy}
        />
        <Group>
          <Button
            variant="light"
            onClick={() => actor.send({ type: 'test.open' })}
            disabled={busy || content.template_id === null}
          >
            {t('campaigns.test.open')}
          </Button>
        </Group>
      </Stack>
      <TemplateThumbnail actor={actor} />
      <TestSendDialog actor={actor} />
    </SimpleGrid>
  );
}

// The preview is drawn at an email's width and shown at half size.
const PREVIEW_WIDTH = 640;
const PREVIEW_HEIGHT = 900;
const SCALE = 0.5;

/** The chosen template's preview as a thumbnail: its HTML in a frame that runs no script. */
function TemplateThumbnail({ actor }: { actor: CampaignEditorActor }) {
  const { t } = useTranslation();
  const html = useSelector(actor, (state) => state.context.preview?.html ?? null);
  const loading = useSelector(actor, (state) => state.hasTag('previewing'));
  const failed = useSelector(actor, (state) =>
    state.matches({ editing: { content: { preview: 'failed' } } }),
  );
  const none = useSelector(actor, (state) => state.matches({ editing: { content: { preview: 'none' } } }));
  return (
    <Paper withBorder radius="md" p="sm" style={{ alignSelf: 'start' }}>
      <Stack gap="xs" align="center">
        <Text fw={600} size="sm">
          {t('campaigns.content.preview')}
        </Text>
        <Box
          w={PREVIEW_WIDTH * SCALE}
          h={PREVIEW_HEIGHT * SCALE}
          style={{ overflow: 'hidden', position: 'relative', background: 'var(--mantine-color-gray-0)' }}
        >
          {loading ? (
            <Group justify="center" pt="xl">
              <Loader size="sm" />
            </Group>
          ) : failed ? (
            <Stack p="md" gap="xs">
              <Text size="sm">{t('campaigns.content.previewFailed')}</Text>
              <Button size="xs" variant="light" onClick={() => actor.send({ type: 'preview.retry' })}>
                {t('kit.retry')}
              </Button>
            </Stack>
          ) : none || html === null ? (
            <Text size="sm" c="dimmed" p="md" ta="center">
              {t('campaigns.content.pickTemplate')}
            </Text>
          ) : (
            <EmailFrame
              html={html}
              title={t('campaigns.content.previewTitle')}
              width={PREVIEW_WIDTH}
              height={PREVIEW_HEIGHT}
              scale={SCALE}
            />
          )}
        </Box>
      </Stack>
    </Paper>
  );
}

/** The test send: up to five addresses, and how many went. */
function TestSendDialog({ actor }: { actor: CampaignEditorActor }) {
  const { t } = useTranslation();
  const open = useSelector(
    actor,
    (state) =>
      !state.matches({ editing: { content: { test: 'closed' } } }) && state.matches({ editing: 'content' }),
  );
  const sending = useSelector(actor, (state) => state.matches({ editing: { content: { test: 'sending' } } }));
  const sent = useSelector(actor, (state) => state.matches({ editing: { content: { test: 'sent' } } }));
  const test = useSelector(actor, (state) => state.context.test);
  const label = t('campaigns.test.emails');
  const typed = testAddressesOf(test.emails).length;
  const emailsError = Object.entries(test.fieldErrors).find(([field]) => field.startsWith('emails'))?.[1];
  const otherProblem = test.problem && Object.keys(test.problem.fields).length === 0 ? test.problem : null;
  return (
    <Modal opened={open} onClose={() => actor.send({ type: 'test.close' })} title={t('campaigns.test.title')}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // React carries a portal's events to the step's form around it: this submit is the dialog's alone.
          event.stopPropagation();
          actor.send({ type: sent ? 'test.close' : 'test.submit' });
        }}
      >
        <Stack gap="md">
          {sent ? (
            <Alert color="green" role="status">
              {t('campaigns.test.sent', { sent: test.sent ?? 0 })}
            </Alert>
          ) : (
            <>
              <Text size="sm">{t('campaigns.test.intro', { max: CAMPAIGN_LIMITS.maxTestAddresses })}</Text>
              <Textarea
                label={label}
                value={test.emails}
                onChange={(event) => actor.send({ type: 'test.change', emails: event.currentTarget.value })}
                autosize
                minRows={3}
                description={t('campaigns.test.counter', {
                  typed,
                  max: CAMPAIGN_LIMITS.maxTestAddresses,
                })}
                error={
                  emailsError
                    ? emailsError.code === 'required'
                      ? fieldMessage(t, emailsError, label)
                      : t('campaigns.test.invalid', { max: CAMPAIGN_LIMITS.maxTestAddresses })
                    : undefined
                }
                disabled={sending}
                data-autofocus
              />
              {otherProblem && <Alert color="red">{problemMessage(t, 'campaigns', otherProblem)}</Alert>}
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => actor.send({ type: 'test.close' })} disabled={sending}>
              {t('kit.close')}
            </Button>
            {sent ? (
              <Button variant="light" onClick={() => actor.send({ type: 'test.open' })}>
                {t('campaigns.test.again')}
              </Button>
            ) : (
              <Button type="submit" loading={sending}>
                {t('campaigns.test.send')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
