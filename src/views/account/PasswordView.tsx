import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import type { ActorRefFrom } from 'xstate';
import {
  PASSWORD_COMMANDS,
  type PasswordDraft,
  type PasswordField,
  type PasswordFields,
  type passwordChangeMachine,
} from '../../machines/password-change.machine.js';
import { LIMITS } from '../../schemas/constants.js';
import { useSettingsForm } from '../shared/use-settings-form.js';

const FIELDS: readonly { field: PasswordField; label: string; autoComplete: string }[] = [
  { field: 'current_password', label: 'account.password.current', autoComplete: 'current-password' },
  { field: 'new_password', label: 'account.password.new', autoComplete: 'new-password' },
  { field: 'confirm_password', label: 'account.password.confirm', autoComplete: 'new-password' },
];

/** The Password tab: current, new and confirmation, checked after spec section 5 before sending. */
export function PasswordView({ actor }: { actor: ActorRefFrom<typeof passwordChangeMachine> }) {
  const { t } = useTranslation();
  const { busy, draft, fieldErrors, problem, notice, ...form } = useSettingsForm<
    PasswordDraft,
    null,
    PasswordFields
  >(actor, PASSWORD_COMMANDS);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.submit();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={480}>
        <Text c="dimmed">{t('account.password.intro')}</Text>
        {notice === 'saved' && (
          <Alert color="green" withCloseButton onClose={form.dismissNotice}>
            {t('account.password.changed')}
          </Alert>
        )}
        {problem && !hasFieldMessages(problem) && (
          <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>
        )}
        {FIELDS.map(({ field, label, autoComplete }) => (
          <PasswordInput
            key={field}
            label={t(label)}
            description={
              field === 'new_password'
                ? t('account.password.hint', { min: LIMITS.passwordMinLength })
                : undefined
            }
            value={draft[field]}
            onChange={(event) => form.change(field, event.currentTarget.value)}
            error={fieldMessage(t, fieldErrors[field], t(label))}
            autoComplete={autoComplete}
            disabled={busy}
            required
          />
        ))}
        <Group>
          <Button type="submit" loading={busy}>
            {t('account.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
