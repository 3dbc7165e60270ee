import {
  Alert,
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { companyUsersMachine, UserTextField } from '../../machines/company-users.machine.js';
import { USER_ROLES } from '../../schemas/accounts.js';
import { LIMITS } from '../../schemas/constants.js';
import { displayName, fieldMessage, hasFieldMessages, problemMessage } from './messages.js';

type UsersActor = ActorRefFrom<typeof companyUsersMachine>;

/** The create, edit and delete dialogs of the Users tab, each open while the machine is in its state. */
export function UserDialogs({ actor }: { actor: UsersActor }) {
  const { t } = useTranslation();
  const creating = useSelector(actor, (state) => state.matches('creating'));
  const editing = useSelector(actor, (state) => state.matches('editing'));
  const deleting = useSelector(actor, (state) => state.matches('deleting'));
  const busy = useSelector(actor, (state) => !state.matches('listing') && state.hasTag('busy'));
  const selected = useSelector(actor, (state) => state.context.selected);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? null : state.context.problem));
  const close = () => actor.send({ type: 'dialog.close' });
  const name = selected ? displayName(selected) : '';

  return (
    <>
      <Modal
        opened={creating || editing}
        onClose={close}
        closeOnClickOutside={!busy}
        closeOnEscape={!busy}
        withCloseButton={!busy}
        title={editing ? t('account.users.editTitle', { name }) : t('account.users.createTitle')}
      >
        <UserForm actor={actor} mode={editing ? 'edit' : 'create'} />
      </Modal>
      <Modal
        opened={deleting}
        onClose={close}
        closeOnClickOutside={!busy}
        closeOnEscape={!busy}
        withCloseButton={!busy}
        title={t('account.users.deleteTitle')}
      >
        <Stack gap="md">
          <Text>{t('account.users.deleteConfirm', { name, email: selected?.email ?? '' })}</Text>
          {problem && <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('account.actions.cancel')}
            </Button>
            <Button color="red" loading={busy} onClick={() => actor.send({ type: 'delete.confirm' })}>
              {t('account.actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function UserForm({ actor, mode }: { actor: UsersActor; mode: 'create' | 'edit' }) {
  const { t } = useTranslation();
  const form = useSelector(actor, (state) => state.context.form);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));

  const change = (field: UserTextField) => (value: string) =>
    actor.send({ type: 'field.change', field, value });
  const text = (
    field: UserTextField,
    label: string,
    extra: { type?: string; autoComplete?: string } = {},
  ) => (
    <TextInput
      label={label}
      value={form[field]}
      onChange={(event) => change(field)(event.currentTarget.value)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      {...extra}
    />
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  const roleLabel = t('account.users.role');
  const passwordLabel = t('account.users.password');

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {problem && !hasFieldMessages(problem) && (
          <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>
        )}
        {mode === 'create'
          ? text('email', t('account.users.email'), { type: 'email', autoComplete: 'off' })
          : text('username', t('account.users.username'), { autoComplete: 'off' })}
        <Group grow>
          {text('first_name', t('account.users.firstName'))}
          {text('last_name', t('account.users.lastName'))}
        </Group>
        <Select
          label={roleLabel}
          data={USER_ROLES.map((role) => ({ value: role, label: t(`account.roles.${role}`) }))}
          value={form.role}
          onChange={(value) => value && change('role')(value)}
          description={
            (USER_ROLES as readonly string[]).includes(form.role)
              ? t(`account.roleHints.${form.role}`)
              : undefined
          }
          error={fieldMessage(t, fieldErrors.role, roleLabel)}
          allowDeselect={false}
          disabled={busy}
        />
        {mode === 'create' ? (
          <PasswordInput
            label={passwordLabel}
            description={t('account.users.passwordHint', { min: LIMITS.passwordMinLength })}
            value={form.password}
            onChange={(event) => change('password')(event.currentTarget.value)}
            error={fieldMessage(t, fieldErrors.password, passwordLabel)}
            autoComplete="new-password"
            disabled={busy}
          />
        ) : (
          <Switch
            label={t('account.users.activeLabel')}
            checked={form.is_active}
            onChange={(event) => actor.send({ type: 'active.change', value: event.currentTarget.checked })}
            error={fieldMessage(t, fieldErrors.is_active, t('account.users.status'))}
            disabled={busy}
          />
        )}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={() => actor.send({ type: 'dialog.close' })} disabled={busy}>
            {t('account.actions.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {mode === 'create' ? t('account.users.add') : t('account.actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
