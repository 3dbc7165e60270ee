import { Alert, Button, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { TemplateForm } from '../../machines/email-templates.machine.js';
import { formatCount, formatDateTime, languageOf } from '../../format/index.js';
import { LIMITS } from '../../schemas/constants.js';
import {
  EmailTemplateCreateSchema,
  EmailTemplateRenameSchema,
  type EmailTemplateSummary,
} from '../../schemas/email-templates.js';
import { textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog, useListView } from '../kit/useListView.js';
import { fieldMessage } from '../shared/field-message.js';
import { ListScreenTable } from '../shared/ListScreenTable.js';
import { problemMessage } from '../shared/problem-message.js';
import { RowActionButtons } from '../shared/RowActionButtons.js';
import type {
  TemplateActionsActor,
  TemplateGalleryActor,
  TemplateRestoreActor,
  TemplateThumbnailsActor,
} from './template-actors.js';
import { TemplateThumbnail } from './TemplateThumbnail.js';
import { TemplateUndoToast } from './TemplateUndoToast.js';

/** The templates list actor, as the view sees it. */
export type EmailTemplatesActor = ListActor<EmailTemplateSummary, TemplateForm>;

// The kit's notices in this screen's words.
const NOTICES = { created: 'created', updated: 'updated', deleted: 'deleted' } as const;

/**
 * /templates: the company's email templates (name, last change) searched by name, with "New template" from a
 * starter of the gallery, duplicate, rename and a confirmed delete, which offers Undo for a few seconds.
 */
export function TemplatesView({
  actor,
  gallery,
  actions,
  restore,
  canWrite,
  duplicatedName,
  restoredName,
  timeZone,
  thumbnails,
  onOpen,
}: {
  actor: EmailTemplatesActor;
  gallery: TemplateGalleryActor;
  actions: TemplateActionsActor;
  /** The Undo offer after a delete. */
  restore: TemplateRestoreActor;
  thumbnails: TemplateThumbnailsActor;
  /** Opens the editor: a template by id, or a new one (null). */
  onOpen: (id: number | null) => void;
  /** Marketers and above create, copy, rename and delete templates. */
  canWrite: boolean;
  /** The name of the copy just made, for its notice. */
  duplicatedName: string | null;
  /** The name of the template Undo just brought back, for its notice. */
  restoredName: string | null;
  timeZone?: string;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { notice, listProblem, total } = useListView(actor);
  const noticeKey = notice && notice in NOTICES ? NOTICES[notice as keyof typeof NOTICES] : null;
  const copying = useSelector(actions, (state) => state.matches('duplicating'));
  const copyProblem = useSelector(actions, (state) => (state.matches('idle') ? state.context.problem : null));
  const copyFailedOf = useSelector(actions, (state) => state.context.template?.name ?? '');
  const shown = useSelector(thumbnails, (state) => state.context.shown);
  const noticeText = duplicatedName
    ? t('emailTemplates.notices.duplicated', { name: duplicatedName })
    : restoredName
      ? t('emailTemplates.notices.restored', { name: restoredName })
      : noticeKey
        ? t(`emailTemplates.notices.${noticeKey}`)
        : null;
  return (
    <ListScreenTable
      actor={actor}
      title={t('emailTemplates.page.title')}
      headerAction={
        canWrite && <Button onClick={() => onOpen(null)}>{t('templateEditor.list.design')}</Button>
      }
      actionProblem={
        copyProblem && {
          text: (
            <>
              {t('emailTemplates.duplicateFailed', { name: copyFailedOf })}{' '}
              {problemMessage(t, 'emailTemplates', copyProblem)}
            </>
          ),
          onDismiss: () => actions.send({ type: 'problem.dismiss' }),
          closeLabel: t('emailTemplates.preview.close'),
        }
      }
      texts={{
        intro: t('emailTemplates.page.intro'),
        add: canWrite ? t('emailTemplates.actions.create') : undefined,
        search: t('emailTemplates.search'),
        empty: canWrite ? t('templateEditor.list.empty') : t('emailTemplates.empty'),
        loadFailed: t('emailTemplates.loadFailed'),
        problem: problemMessage(t, 'emailTemplates', listProblem),
        notice: noticeText,
        summary: t('emailTemplates.total', { total: formatCount(total, language) }),
      }}
      rowKey={(template) => template.id}
      columns={[
        {
          key: 'thumbnail',
          header: '',
          cell: (template) => (
            <TemplateThumbnail
              html={shown[template.id]}
              label={t('templateEditor.list.thumbnail', { name: template.name })}
              failedText={t('templateEditor.list.thumbnailFailed')}
              onVisible={() => thumbnails.send({ type: 'thumbnail.visible', id: template.id })}
            />
          ),
        },
        {
          key: 'name',
          header: t('emailTemplates.table.name'),
          primary: true,
          cell: (template) => (
            <Text size="sm" fw={500}>
              {template.name}
            </Text>
          ),
        },
        {
          key: 'updated',
          header: t('emailTemplates.table.updated'),
          cell: (template) => formatDateTime(template.updated_at, language, timeZone),
        },
      ]}
      rowActions={(template, browsing) =>
        canWrite ? (
          <RowActionButtons
            wrap="wrap"
            actions={[
              {
                key: 'open',
                label: t('templateEditor.list.open'),
                ariaLabel: t('templateEditor.list.openOf', { name: template.name }),
                disabled: !browsing,
                onClick: () => onOpen(template.id),
              },
              {
                key: 'duplicate',
                label: t('emailTemplates.actions.duplicate'),
                ariaLabel: t('emailTemplates.actions.duplicateOf', { name: template.name }),
                variant: 'light',
                disabled: !browsing || copying,
                onClick: () => actions.send({ type: 'template.duplicate', template }),
              },
              {
                key: 'rename',
                label: t('emailTemplates.actions.rename'),
                ariaLabel: t('emailTemplates.actions.renameOf', { name: template.name }),
                variant: 'subtle',
                disabled: !browsing,
                onClick: () => actor.send({ type: 'item.edit', item: template }),
              },
              {
                key: 'delete',
                label: t('kit.delete'),
                ariaLabel: t('emailTemplates.actions.deleteOf', { name: template.name }),
                variant: 'subtle',
                color: 'red',
                disabled: !browsing,
                onClick: () => actor.send({ type: 'item.delete', item: template }),
              },
            ]}
          />
        ) : null
      }
      deleteDialog={{
        title: t('emailTemplates.dialog.deleteTitle'),
        message: (template) => t('emailTemplates.dialog.deleteConfirm', { name: template.name }),
        problemText: (problem) => problemMessage(t, 'emailTemplates', problem),
      }}
    >
      <TemplateDialog actor={actor} gallery={gallery} />
      <TemplateUndoToast restore={restore} />
    </ListScreenTable>
  );
}

/** The new-template dialog (a name and a starter) and the rename dialog (the name). */
function TemplateDialog({ actor, gallery }: { actor: EmailTemplatesActor; gallery: TemplateGalleryActor }) {
  const { t } = useTranslation();
  const { busy, form, fieldErrors, selected, dialog } = useListDialog(actor);
  const starters = useSelector(gallery, (state) => state.context.starters);
  const galleryLoading = useSelector(gallery, (state) => state.matches('loading'));
  const galleryFailed = useSelector(gallery, (state) => state.matches('failed'));
  const label = t('emailTemplates.dialog.name');
  const required = useRequiredFields(actor, {
    creating: EmailTemplateCreateSchema,
    editing: EmailTemplateRenameSchema,
  });
  const picked = starters.find((starter) => starter.export_html === form.export_html)?.key ?? null;
  const pick = (key: string | null) => {
    const starter = starters.find((candidate) => candidate.key === key);
    if (!starter) return;
    actor.send({ type: 'field.change', field: 'export_html', value: starter.export_html });
    // A blank name takes the starter's, which the user may change.
    if (form.name.trim() === '') actor.send({ type: 'field.change', field: 'name', value: starter.name });
  };
  return (
    <FormDialog
      actor={actor}
      title={{
        creating: t('emailTemplates.dialog.createTitle'),
        editing: t('emailTemplates.dialog.renameTitle', { name: selected?.name ?? '' }),
      }}
      submit={{ creating: t('emailTemplates.actions.create'), editing: t('kit.save') }}
      problemText={(problem) => problemMessage(t, 'emailTemplates', problem)}
    >
      <Stack gap="md">
        {dialog === 'creating' &&
          (galleryFailed ? (
            <Alert color="red" title={t('emailTemplates.gallery.failed')}>
              <Button size="xs" variant="light" onClick={() => gallery.send({ type: 'gallery.retry' })}>
                {t('emailTemplates.gallery.retry')}
              </Button>
            </Alert>
          ) : galleryLoading ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{t('emailTemplates.gallery.loading')}</Text>
            </Group>
          ) : (
            <Select
              label={t('emailTemplates.dialog.starter')}
              description={t('emailTemplates.dialog.starterHint')}
              data={starters.map((starter) => ({
                value: starter.key,
                label: `${starter.name} — ${starter.description}`,
              }))}
              value={picked}
              onChange={pick}
              withAsterisk
              allowDeselect={false}
              disabled={busy}
              error={fieldErrors.export_html ? t('emailTemplates.dialog.starterRequired') : undefined}
              data-autofocus
            />
          ))}
        <TextInput
          label={label}
          {...textFieldProps(actor, form, 'name', required)}
          maxLength={LIMITS.nameMaxLength}
          error={fieldMessage(t, fieldErrors.name, label)}
          disabled={busy}
        />
      </Stack>
    </FormDialog>
  );
}
