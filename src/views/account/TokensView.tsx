import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Stack, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';
import { fieldMessage } from '../shared/field-message.js';
import type { TokenForm } from '../../machines/company-tokens.machine.js';
import {
  CompanyTokenCreateSchema,
  type CompanyToken,
  type CompanyTokenCreated,
} from '../../schemas/accounts.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import { textFieldProps } from '../kit/field-props.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog, useListView } from '../kit/useListView.js';
import { formatMoment } from './messages.js';

type TokensActor = ListActor<CompanyToken, TokenForm, CompanyTokenCreated>;

// Mantine's light green text (green 9) has 3.8:1 on its tint; this shade keeps AA (5.7:1).
const ACTIVE_LABEL = 'light-dark(#1e6b30, var(--mantine-color-green-0))';

/** The API tokens tab (admins and owners): the tokens with their state, creation that shows the key once, revocation. */
export function TokensView({ actor, timeZone }: { actor: TokensActor; timeZone?: string }) {
  const { t, i18n } = useTranslation();
  const { notice, listProblem } = useListView(actor);
  const moment = (iso: string | null) =>
    iso ? formatMoment(iso, i18n.language, timeZone) : t('account.never');
  // Revoking is the kit's delete: its notice says "revoked".
  const noticeText =
    notice === 'created'
      ? t('account.tokens.createdNotice')
      : notice === 'deleted'
        ? t('account.tokens.revokedNotice')
        : null;

  return (
    <Stack gap="md">
      <ListFrame
        actor={actor}
        texts={{
          intro: t('account.tokens.intro'),
          add: t('account.tokens.add'),
          empty: t('account.tokens.empty'),
          loadFailed: t('account.tokens.loadFailed'),
          problem: problemMessage(t, 'account', listProblem),
          notice: noticeText,
        }}
      >
        {(tokens, browsing) => (
          <ListTable
            items={tokens}
            rowKey={(token) => token.id}
            label={t('account.tabs.tokens')}
            columns={[
              { key: 'name', header: t('account.tokens.name'), primary: true, cell: (token) => token.name },
              {
                key: 'prefix',
                header: t('account.tokens.prefix'),
                cell: (token) => <Code>{`rgl_${token.key_prefix}_…`}</Code>,
              },
              {
                key: 'created',
                header: t('account.tokens.created'),
                cell: (token) => moment(token.created_at),
              },
              {
                key: 'lastUsed',
                header: t('account.tokens.lastUsed'),
                cell: (token) => moment(token.last_used_at),
              },
              {
                key: 'status',
                header: t('account.tokens.status'),
                cell: (token) =>
                  token.revoked_at ? (
                    <Badge color="gray" variant="light" title={moment(token.revoked_at)}>
                      {t('account.tokens.revoked')}
                    </Badge>
                  ) : (
                    <Badge color="green" variant="light" styles={{ label: { color: ACTIVE_LABEL } }}>
                      {t('account.tokens.active')}
                    </Badge>
                  ),
              },
            ]}
            // A revoked token stays listed (its history) but cannot be revoked again.
            actions={(token) =>
              !token.revoked_at && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  disabled={!browsing}
                  onClick={() => actor.send({ type: 'item.delete', item: token })}
                >
                  {t('account.tokens.revoke')}
                </Button>
              )
            }
          />
        )}
      </ListFrame>
      <CreateTokenDialog actor={actor} />
      <ConfirmDeleteDialog
        actor={actor}
        title={t('account.tokens.revokeTitle')}
        message={(token) => t('account.tokens.revokeConfirm', { name: token.name })}
        problemText={(problem) => problemMessage(t, 'account', problem)}
        confirm={t('account.tokens.revoke')}
      />
    </Stack>
  );
}

/**
 * The create dialog: the name, then the new key once (`creating.created`) with a copy button. It is
 * the screen's own (not the kit's FormDialog) because its second step shows the key instead of the form.
 */
function CreateTokenDialog({ actor }: { actor: TokensActor }) {
  const { t } = useTranslation();
  const { dialog, busy, form, fieldErrors, problem, created: token } = useListDialog(actor);
  // The key arrives typed as the machine's Created: a token with its key.
  const close = () => actor.send({ type: 'dialog.close' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'dialog.submit' });
  };
  const nameLabel = t('account.tokens.name');
  const required = useRequiredFields(actor, { creating: CompanyTokenCreateSchema });
  const failure = problem && !hasFieldMessages(problem) ? problemMessage(t, 'account', problem) : null;

  return (
    <Modal
      opened={dialog === 'creating'}
      onClose={close}
      // The key is shown once: closing by a stray click outside would lose it.
      closeOnClickOutside={!busy && token === null}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      title={token ? t('account.tokens.keyTitle') : t('account.tokens.createTitle')}
    >
      {token ? (
        <Stack gap="md">
          <Alert color="yellow">{t('account.tokens.keyWarning')}</Alert>
          <Code block>{token.key}</Code>
          <Group justify="space-between">
            <CopyButton value={token.key}>
              {({ copied, copy }) => (
                <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                  {copied ? t('account.tokens.copied') : t('account.tokens.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={close}>{t('account.tokens.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <TextInput
              label={nameLabel}
              placeholder={t('account.tokens.namePlaceholder')}
              {...textFieldProps(actor, form, 'name', required)}
              error={fieldMessage(t, fieldErrors.name, nameLabel)}
              disabled={busy}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close} disabled={busy}>
                {t('kit.cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('account.tokens.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
