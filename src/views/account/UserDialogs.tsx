import { Group, PasswordInput, Select, Switch, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import type { UserForm } from '../../machines/company-users.machine.js';
import {
  CompanyUserCreateSchema,
  CompanyUserUpdateSchema,
  USER_ROLES,
  type CompanyUser,
} from '../../schemas/accounts.js';
import { LIMITS } from '../../schemas/constants.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import { changeField, textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog } from '../kit/useListView.js';
import { displayName } from './messages.js';

/** The text fields of the user dialog. */
type UserTextField = 'email' | 'username' | 'first_name' | 'last_name';

/**
 * The create, edit and delete dialogs of the Users tab, each open while the machine is in its state.
 * Creating asks the email, names, role and a first password; editing the username, names, role and
 * whether the user may sign in.
 */
export function UserDialogs({ actor }: { actor: ListActor<CompanyUser, UserForm> }) {
  const { t } = useTranslation();
  const { dialog, busy, form, fieldErrors, selected } = useListDialog(actor);
  const editing = dialog === 'editing';
  const required = useRequiredFields(actor, {
    creating: CompanyUserCreateSchema,
    editing: CompanyUserUpdateSchema,
  });
  const text = (
    field: UserTextField,
    label: string,
    extra: { type?: string; autoComplete?: string } = {},
  ) => (
    <TextInput
      label={label}
      {...textFieldProps(actor, form, field, required)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      {...extra}
    />
  );
  const roleLabel = t('account.users.role');
  const passwordLabel = t('account.users.password');
  const name = selected ? displayName(selected) : '';

  return (
    <>
      <FormDialog
        actor={actor}
        title={{ creating: t('account.users.createTitle'), editing: t('account.users.editTitle', { name }) }}
        submit={{ creating: t('account.users.add'), editing: t('kit.save') }}
        problemText={(problem) => problemMessage(t, 'account', problem)}
      >
        {editing
          ? text('username', t('account.users.username'), { autoComplete: 'off' })
          : text('email', t('account.users.email'), { type: 'email', autoComplete: 'off' })}
        <Group grow>
          {text('first_name', t('account.users.firstName'))}
          {text('last_name', t('account.users.lastName'))}
        </Group>
        <Select
          label={roleLabel}
          data={USER_ROLES.map((role) => ({ value: role, label: t(`account.roles.${role}`) }))}
          value={form.role}
          onChange={(value) => value && changeField(actor, 'role', value)}
          description={
            (USER_ROLES as readonly string[]).includes(form.role)
              ? t(`account.roleHints.${form.role}`)
              : undefined
          }
          error={fieldMessage(t, fieldErrors.role, roleLabel)}
          allowDeselect={false}
          required={required.has('role')}
          disabled={busy}
        />
        {editing ? (
          <Switch
            label={t('account.users.activeLabel')}
            checked={form.is_active}
            onChange={(event) => changeField(actor, 'is_active', event.currentTarget.checked)}
            error={fieldMessage(t, fieldErrors.is_active, t('account.users.status'))}
            disabled={busy}
          />
        ) : (
          <PasswordInput
            label={passwordLabel}
            description={t('account.users.passwordHint', { min: LIMITS.passwordMinLength })}
            {...textFieldProps(actor, form, 'password', required)}
            error={fieldMessage(t, fieldErrors.password, passwordLabel)}
            autoComplete="new-password"
            disabled={busy}
          />
        )}
      </FormDialog>
      <ConfirmDeleteDialog
        actor={actor}
        title={t('account.users.deleteTitle')}
        message={(user) => t('account.users.deleteConfirm', { name: displayName(user), email: user.email })}
        problemText={(problem) => problemMessage(t, 'account', problem)}
      />
    </>
  );
}
