import { Alert, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { postalAddressMachine, PostalAddressFields } from '../../machines/postal-address.machine.js';
import { POSTAL_ADDRESS_MAX_LENGTH } from '../../schemas/sending.js';
import { fieldMessage } from '../shared/field-message.js';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { useSettingsForm } from '../shared/use-settings-form.js';

/**
 * The company's postal address on the Email senders tab: every marketing email shows it in its footer, and
 * nothing is sent until it is set. Admins and owners change it; others read it.
 */
export function PostalAddressView({
  actor,
  canManage,
}: {
  actor: ActorRefFrom<typeof postalAddressMachine>;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const { busy, failed, draft, saved, fieldErrors, problem, notice, ...form } = useSettingsForm<
    string,
    string,
    PostalAddressFields
  >(actor);
  const label = t('account.postalAddress.label');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.submit();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" maw={560}>
        <Title order={3}>{t('account.postalAddress.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('account.postalAddress.intro')}
        </Text>
        {!busy && !failed && saved === '' && (
          <Alert color="yellow">{t('account.postalAddress.missing')}</Alert>
        )}
        {notice === 'saved' && (
          <Alert color="green" withCloseButton onClose={form.dismissNotice}>
            {t('account.postalAddress.saved')}
          </Alert>
        )}
        {problem && !hasFieldMessages(problem) && (
          <Alert color="red">
            <Group gap="sm">
              <Text size="sm">{problemMessage(t, 'account', problem)}</Text>
              {failed && (
                <Button size="xs" variant="light" onClick={form.retry}>
                  {t('account.postalAddress.retry')}
                </Button>
              )}
            </Group>
          </Alert>
        )}
        <Textarea
          label={label}
          description={t('account.postalAddress.hint', { max: POSTAL_ADDRESS_MAX_LENGTH })}
          value={draft}
          onChange={(event) => form.change('postal_address', event.currentTarget.value)}
          error={fieldMessage(t, fieldErrors.postal_address, label)}
          autosize
          minRows={3}
          maxLength={POSTAL_ADDRESS_MAX_LENGTH}
          readOnly={!canManage}
          disabled={busy || failed}
          required
        />
        {canManage && (
          <Group>
            <Button type="submit" loading={busy} disabled={failed}>
              {t('account.postalAddress.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
