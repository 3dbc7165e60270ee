import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import type { ActorRefFrom } from 'xstate';
import type { PasswordField, passwordChangeMachine } from '../../machines/password-change.machine.js';
import { LIMITS } from '../../schemas/constants.js';

const FIELDS: readonly { field: PasswordField; label: string; autoComplete: string }[] = [
  { field: 'current_password', label: 'account.password.current', autoComplete: 'current-password' },
  { field: 'new_password', label: 'account.password.new', autoComplete: 'new-password' },
  { field: 'confirm_password', label: 'account.password.confirm', autoComplete: 'new-password' },
];

/** The Password tab: current, new and confirmation, checked after spec section 5 before sending. */
export function PasswordView({ actor }: { actor: ActorRefFrom<typeof passwordChangeMachine> }) {
  const { t } = useTranslation();
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const draft = useSelector(actor, (state) => state.context.draft);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const notice = useSelector(actor, (state) => state.context.notice);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'password.submit' });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={480}>
        <Text c="dimmed">{t('account.password.intro')}</Text>
        {notice === 'changed' && (
          <Alert color="green" withCloseButton onClose={() => actor.send({ type: 'notice.dismiss' })}>
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
            onChange={(event) =>
              actor.send({ type: 'field.change', field, value: event.currentTarget.value })
            }
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
