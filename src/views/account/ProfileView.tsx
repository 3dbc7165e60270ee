import {
  Alert,
  Button,
  Fieldset,
  Group,
  Loader,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import type { ActorRefFrom } from 'xstate';
import {
  PROFILE_COMMANDS,
  type accountSettingsMachine,
  type CommunicationChannel,
  type SettingsDraft,
  type SettingsFields,
} from '../../machines/account-settings.machine.js';
import type { AccountSettings } from '../../schemas/accounts.js';
import { LANGUAGES } from '../../schemas/constants.js';

import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { useSettingsForm } from '../shared/use-settings-form.js';

const CHANNELS: readonly CommunicationChannel[] = ['email', 'sms', 'phone'];

/** The Profile tab: the user's own username, email, language, time zone and communication preferences. */
export function ProfileView({
  actor,
  timeZones,
}: {
  actor: ActorRefFrom<typeof accountSettingsMachine>;
  /** The time zones to offer (the runtime's list, passed in by the screen). */
  timeZones: readonly string[];
}) {
  const { t } = useTranslation();
  const { busy, loading, failed, draft, fieldErrors, problem, notice, ...form } = useSettingsForm<
    SettingsDraft,
    AccountSettings | null,
    SettingsFields
  >(actor, PROFILE_COMMANDS);

  if (loading) return <Loader aria-label={t('account.loading')} />;
  if (failed) {
    return (
      <LoadFailedAlert
        title={t('account.profile.loadFailed')}
        message={problemMessage(t, 'account', problem)}
        retryLabel={t('account.actions.retry')}
        onRetry={form.retry}
      />
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.submit();
  };
  const usernameLabel = t('account.profile.username');
  const emailLabel = t('account.profile.email');
  const languageLabel = t('account.profile.language');
  const timeZoneLabel = t('account.profile.timeZone');
  // A saved zone the runtime does not list (e.g. UTC on some engines) is still offered.
  const zones = timeZones.includes(draft.time_zone) ? [...timeZones] : [draft.time_zone, ...timeZones];

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={560}>
        <Text c="dimmed">{t('account.profile.intro')}</Text>
        {notice === 'saved' && (
          <Alert color="green" withCloseButton onClose={form.dismissNotice}>
            {t('account.profile.saved')}
          </Alert>
        )}
        {problem && !hasFieldMessages(problem) && (
          <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>
        )}
        <TextInput
          label={usernameLabel}
          value={draft.username}
          onChange={(event) => form.change('username', event.currentTarget.value)}
          error={fieldMessage(t, fieldErrors.username, usernameLabel)}
          autoComplete="username"
          required
        />
        <TextInput
          label={emailLabel}
          type="email"
          value={draft.email}
          onChange={(event) => form.change('email', event.currentTarget.value)}
          error={fieldMessage(t, fieldErrors.email, emailLabel)}
          autoComplete="email"
          required
        />
        <Select
          label={languageLabel}
          description={t('account.profile.languageHint')}
          data={LANGUAGES.map((code) => ({ value: code, label: t(`account.languages.${code}`) }))}
          value={draft.language}
          onChange={(value) => value && form.change('language', value)}
          error={fieldMessage(t, fieldErrors.language, languageLabel)}
          allowDeselect={false}
        />
        <Select
          label={timeZoneLabel}
          description={t('account.profile.timeZoneHint')}
          data={zones}
          value={draft.time_zone}
          onChange={(value) => value && form.change('time_zone', value)}
          error={fieldMessage(t, fieldErrors.time_zone, timeZoneLabel)}
          nothingFoundMessage={t('account.profile.timeZoneNone')}
          searchable
          limit={50}
          allowDeselect={false}
        />
        <Fieldset legend={t('account.profile.communication')}>
          <Text size="sm" c="dimmed" mb="xs">
            {t('account.profile.communicationHint')}
          </Text>
          <Group gap="lg">
            {CHANNELS.map((channel) => (
              <Switch
                key={channel}
                label={t(`account.profile.channels.${channel}`)}
                checked={draft.communication[channel]}
                onChange={(event) =>
                  form.change('communication', {
                    ...draft.communication,
                    [channel]: event.currentTarget.checked,
                  })
                }
              />
            ))}
          </Group>
        </Fieldset>
        <Group>
          <Button type="submit" loading={busy}>
            {t('account.actions.save')}
          </Button>
          <Button variant="default" disabled={busy} onClick={form.reset}>
            {t('account.actions.discard')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
