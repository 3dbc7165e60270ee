import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import { ConfirmDeleteDialog } from '../kit/ConfirmDeleteDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame, type ListFrameTexts } from '../kit/ListFrame.js';
import { ListTable, type ListColumn } from '../kit/ListTable.js';
import { useListView } from '../kit/useListView.js';

/** The alert of a failed row action (a copy, a pause): its words and how it is dismissed. */
export interface ListActionProblem {
  text: ReactNode;
  onDismiss: () => void;
  /** The close button's name; the kit's "Close" when not given. */
  closeLabel?: string;
}

/**
 * A list screen of the list kit, laid out once for /flows, /campaigns, /templates and /subscriber-lists:
 * the title (with a button beside it, when given), a failed row action's alert, the kit's frame (intro,
 * notice, search, toolbar, empty state, pager) around the table whose rows are cards on a phone, a
 * "create the first one" button under an empty list, the screen's own dialogs and the confirmed delete.
 */
export function ListScreenTable<Item, Form extends object>({
  actor,
  title,
  headerAction,
  actionProblem,
  texts,
  toolbar,
  rowKey,
  columns,
  minWidth,
  rowActions,
  createFirst,
  deleteDialog,
  children,
}: {
  actor: ListActor<Item, Form>;
  /** The page's heading, also the table's name for screen readers. */
  title: string;
  /** A button beside the title (the templates' "Design a template"). */
  headerAction?: ReactNode;
  actionProblem?: ListActionProblem | null;
  texts: ListFrameTexts;
  toolbar?: ReactNode;
  rowKey: (item: Item) => string | number;
  columns: readonly ListColumn<Item>[];
  minWidth?: number;
  /** A row's buttons; `browsing` is false while the list loads or a dialog is open. */
  rowActions: (item: Item, browsing: boolean) => ReactNode;
  /** The button under an empty list (left out when the user may not create, or a filter emptied it). */
  createFirst?: { label: string; onClick: () => void } | null;
  deleteDialog: {
    title: string;
    message: (item: Item) => string;
    problemText: (problem: ApiProblem) => string | null;
  };
  /** The screen's own dialogs (create, rename). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { items } = useListView(actor);
  const heading = <Title order={2}>{title}</Title>;
  return (
    <Stack gap="lg">
      {headerAction ? (
        <Group justify="space-between" align="center">
          {heading}
          {headerAction}
        </Group>
      ) : (
        heading
      )}
      {actionProblem && (
        <Alert
          color="red"
          withCloseButton
          closeButtonLabel={actionProblem.closeLabel ?? t('kit.close')}
          onClose={actionProblem.onDismiss}
        >
          {actionProblem.text}
        </Alert>
      )}
      <ListFrame actor={actor} texts={texts} toolbar={toolbar}>
        {(rows, browsing) => (
          <ListTable
            items={rows}
            rowKey={rowKey}
            label={title}
            minWidth={minWidth}
            columns={columns}
            actions={(item) => rowActions(item, browsing)}
          />
        )}
      </ListFrame>
      {createFirst && items && items.length === 0 && (
        <Group justify="center">
          <Button variant="light" onClick={createFirst.onClick}>
            {createFirst.label}
          </Button>
        </Group>
      )}
      {children}
      <ConfirmDeleteDialog actor={actor} {...deleteDialog} />
    </Stack>
  );
}
