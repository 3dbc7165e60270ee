import { Alert, Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import {
  fieldErrorKey,
  keyNeeded,
  PROVIDER_CHOICES,
  type emailProviderMachine,
  type ProviderChoice,
  type ProviderField,
  type ProviderDraft,
  type ProviderFields,
} from '../../machines/email-provider.machine.js';
import type { EmailProvider } from '../../schemas/accounts.js';
import { fieldMessage } from '../shared/field-message.js';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { useSettingsForm } from '../shared/use-settings-form.js';

/** What each provider calls the secret its SMTP relay takes as the password (docs/sending.md). */
const KEY_LABELS: Record<ProviderChoice, 'apiKey' | 'smtpPassword' | 'serverToken'> = {
  none: 'apiKey',
  sendgrid: 'apiKey',
  mailgun: 'smtpPassword',
  ses: 'smtpPassword',
  postmark: 'serverToken',
  smtp: 'smtpPassword',
};

/**
 * The company's own email provider on the Email senders tab: SendGrid, Mailgun, Amazon SES, Postmark or none
 * (mail goes through this installation). The API key is never shown back, only whether one is set; admins and
 * owners save and remove it, others read which provider is set.
 */
export function EmailProviderView({
  actor,
  canManage,
}: {
  actor: ActorRefFrom<typeof emailProviderMachine>;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const { busy, failed, draft, saved, fieldErrors, problem, notice, ...form } = useSettingsForm<
    ProviderDraft,
    EmailProvider | null,
    ProviderFields
  >(actor);
  const choices: ProviderChoice[] = [
    ...PROVIDER_CHOICES,
    ...(saved?.provider === 'smtp' ? ['smtp' as const] : []),
  ];
  const disabled = busy || failed || !canManage;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.submit();
  };
  /** A text field of the form, its error named by its own label. */
  const field = (
    name: ProviderField,
    label: string,
    extra: { description?: string; placeholder?: string } = {},
  ) => (
    <TextInput
      label={label}
      value={draft[name]}
      onChange={(event) => form.change(name, event.currentTarget.value)}
      error={fieldMessage(t, fieldErrors[fieldErrorKey(name)], label)}
      disabled={disabled}
      required
      {...extra}
    />
  );
  const keyLabel = t(`account.emailProvider.keyLabel.${KEY_LABELS[draft.provider]}`);
  const keyIsSet = saved !== null && saved.provider === draft.provider && saved.has_api_key;
  const service = draft.provider !== 'none' && draft.provider !== 'smtp';
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={560}>
        <Title order={3}>{t('account.emailProvider.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('account.emailProvider.intro')}
        </Text>
        {notice && (
          <Alert color="green" withCloseButton closeButtonLabel={t('kit.close')} onClose={form.dismissNotice}>
            {t(`account.emailProvider.${notice}`)}
          </Alert>
        )}
        {problem && !hasFieldMessages(problem) && (
          <Alert color="red">
            <Group gap="sm">
              <Text size="sm">{problemMessage(t, 'account', problem)}</Text>
              {failed && (
                <Button size="xs" variant="light" onClick={form.retry}>
                  {t('account.emailProvider.retry')}
                </Button>
              )}
            </Group>
          </Alert>
        )}
        <Select
          label={t('account.emailProvider.provider')}
          data={choices.map((choice) => ({
            value: choice,
            label: t(`account.emailProvider.providers.${choice}`),
          }))}
          value={draft.provider}
          onChange={(value) => value && form.change('provider', value)}
          allowDeselect={false}
          disabled={disabled}
        />
        {draft.provider === 'smtp' && (
          <Text size="sm" c="dimmed">
            {t('account.emailProvider.smtpNote')}
          </Text>
        )}
        {service && (
          <>
            <TextInput
              type="password"
              label={keyLabel}
              description={keyIsSet ? t('account.emailProvider.keyKeep') : t('account.emailProvider.keyHint')}
              value={draft.api_key}
              onChange={(event) => form.change('api_key', event.currentTarget.value)}
              error={fieldMessage(t, fieldErrors.api_key, keyLabel)}
              autoComplete="new-password"
              disabled={disabled}
              required={keyNeeded(draft, saved)}
            />
            <Group gap="xs">
              <Text size="sm">{t('account.emailProvider.keyStatus')}</Text>
              <Badge color={keyIsSet ? 'green' : 'gray'} variant="light" c="var(--mantine-color-text)">
                {keyIsSet ? t('account.emailProvider.keySet') : t('account.emailProvider.keyNotSet')}
              </Badge>
            </Group>
          </>
        )}
        {draft.provider === 'mailgun' && (
          <>
            {field('smtp_login', t('account.emailProvider.smtpLogin'), {
              placeholder: 'postmaster@mg.example.com',
            })}
            <Select
              label={t('account.emailProvider.mailgunRegion')}
              data={[
                { value: 'us', label: t('account.emailProvider.regions.us') },
                { value: 'eu', label: t('account.emailProvider.regions.eu') },
              ]}
              value={draft.mailgun_region || 'us'}
              onChange={(value) => value && form.change('mailgun_region', value)}
              allowDeselect={false}
              disabled={disabled}
            />
          </>
        )}
        {draft.provider === 'ses' && (
          <>
            {field('region', t('account.emailProvider.sesRegion'), {
              placeholder: 'eu-west-1',
              description: t('account.emailProvider.sesRegionHint'),
            })}
            {field('smtp_username', t('account.emailProvider.smtpUsername'))}
          </>
        )}
        {!service && draft.provider === 'none' && (
          <Text size="sm" c="dimmed">
            {t('account.emailProvider.noneNote')}
          </Text>
        )}
        {canManage && (
          <Group>
            {draft.provider !== 'smtp' && (
              <Button type="submit" loading={busy} disabled={failed || (draft.provider === 'none' && !saved)}>
                {t('account.emailProvider.save')}
              </Button>
            )}
            {saved && (
              <Button variant="light" color="red" disabled={busy || failed} onClick={form.remove}>
                {t('account.emailProvider.remove')}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}
