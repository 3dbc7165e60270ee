import { Badge, Button, Group, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import { EmailSenderInputSchema, type EmailSender } from '../../schemas/accounts.js';
import type { SenderForm } from '../../machines/email-senders.machine.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import { changeField, textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { RowActions } from '../kit/RowActions.js';
import { useListDialog, useListView } from '../kit/useListView.js';
import { SenderVerificationNotice, type SenderVerificationActor } from './SenderVerificationNotice.js';

type SendersActor = ListActor<EmailSender, SenderForm>;

/** The Email senders tab: the sender addresses of campaign email; admins and owners add, edit and delete them. */
export function SendersView({
  actor,
  verification,
  canManage,
}: {
  actor: SendersActor;
  verification: SenderVerificationActor;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const { notice, listProblem } = useListView(actor);
  const sending = useSelector(verification, (state) => state.hasTag('busy'));
  return (
    <Stack gap="md">
      {!canManage && (
        <Text size="sm" c="dimmed">
          {t('account.senders.readOnly')}
        </Text>
      )}
      <SenderVerificationNotice actor={verification} />
      <ListFrame
        actor={actor}
        texts={{
          intro: t('account.senders.intro'),
          add: canManage ? t('account.senders.add') : undefined,
          empty: t('account.senders.empty'),
          loadFailed: t('account.senders.loadFailed'),
          problem: problemMessage(t, 'account', listProblem),
          notice: notice ? t(`account.senders.${notice}`) : null,
        }}
      >
        {(senders, browsing) => (
          <ListTable
            items={senders}
            rowKey={(sender) => sender.id}
            label={t('account.tabs.senders')}
            minWidth={640}
            columns={[
              {
                key: 'name',
                header: t('account.senders.name'),
                primary: true,
                cell: (sender) => sender.name,
              },
              { key: 'email', header: t('account.senders.email'), cell: (sender) => sender.email },
              { key: 'replyTo', header: t('account.senders.replyTo'), cell: (sender) => sender.reply_to },
              {
                key: 'status',
                // The users tab's word for the column ("Status") in every language.
                header: t('account.users.status'),
                cell: (sender) => (
                  <Group gap="xs">
                    {sender.is_default && <Badge variant="filled">{t('account.senders.isDefault')}</Badge>}
                    <Badge
                      color={sender.verified_at ? 'green' : 'gray'}
                      variant="light"
                      // The light badge's own green is too pale on its tint (axe: contrast): the page's text colour.
                      c="var(--mantine-color-text)"
                    >
                      {sender.verified_at ? t('account.senders.verified') : t('account.senders.unverified')}
                    </Badge>
                  </Group>
                ),
              },
            ]}
            actions={
              canManage
                ? (sender) => (
                    <Group gap="xs" wrap="wrap">
                      {!sender.verified_at && (
                        <Button
                          size="xs"
                          variant="light"
                          disabled={!browsing || sending}
                          aria-label={t('account.senders.sendVerificationOf', { email: sender.email })}
                          onClick={() => verification.send({ type: 'verification.send', sender })}
                        >
                          {t('account.senders.sendVerification')}
                        </Button>
                      )}
                      <RowActions actor={actor} item={sender} enabled={browsing} label={sender.email} />
                    </Group>
                  )
                : undefined
            }
          />
        )}
      </ListFrame>
      <SenderDialog actor={actor} />
      <ConfirmDeleteDialog
        actor={actor}
        title={t('account.senders.deleteTitle')}
        message={(sender) => t('account.senders.deleteConfirm', { name: sender.name, email: sender.email })}
        problemText={(problem) => problemMessage(t, 'account', problem)}
      />
    </Stack>
  );
}

function SenderDialog({ actor }: { actor: SendersActor }) {
  const { t } = useTranslation();
  const { busy, form, fieldErrors } = useListDialog(actor);
  const required = useRequiredFields(actor, {
    creating: EmailSenderInputSchema,
    editing: EmailSenderInputSchema,
  });
  const text = (field: 'name' | 'email' | 'reply_to', label: string) => (
    <TextInput
      label={label}
      {...textFieldProps(actor, form, field, required)}
      error={fieldMessage(t, fieldErrors[field], label)}
      disabled={busy}
      type={field === 'name' ? 'text' : 'email'}
    />
  );
  return (
    <FormDialog
      actor={actor}
      title={{ creating: t('account.senders.createTitle'), editing: t('account.senders.editTitle') }}
      submit={{ creating: t('account.senders.add'), editing: t('kit.save') }}
      problemText={(problem) => problemMessage(t, 'account', problem)}
    >
      {text('name', t('account.senders.name'))}
      {text('email', t('account.senders.email'))}
      <TextInput
        label={t('account.senders.replyTo')}
        description={t('account.senders.replyToHint')}
        type="email"
        {...textFieldProps(actor, form, 'reply_to', required)}
        error={fieldMessage(t, fieldErrors.reply_to, t('account.senders.replyTo'))}
        disabled={busy}
      />
      <Switch
        label={t('account.senders.makeDefault')}
        checked={form.is_default}
        onChange={(event) => changeField(actor, 'is_default', event.currentTarget.checked)}
        disabled={busy}
      />
    </FormDialog>
  );
}
