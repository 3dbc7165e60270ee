import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListActor } from './list-actor.js';

/** A row's edit and delete buttons; each is left out when the screen does not offer it. */
export function RowActions<Item, Form extends object>({
  actor,
  item,
  enabled,
  edit = true,
  remove = true,
  label,
}: {
  actor: ListActor<Item, Form>;
  item: Item;
  /** False while the list loads or a dialog is open. */
  enabled: boolean;
  edit?: boolean;
  remove?: boolean;
  /** What screen readers hear after "Edit" and "Delete": the row's name. */
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      {edit && (
        <Button
          size="xs"
          variant="light"
          disabled={!enabled}
          aria-label={t('kit.editOf', { name: label })}
          onClick={() => actor.send({ type: 'item.edit', item })}
        >
          {t('kit.edit')}
        </Button>
      )}
      {remove && (
        <Button
          size="xs"
          variant="light"
          color="red"
          disabled={!enabled}
          aria-label={t('kit.deleteOf', { name: label })}
          onClick={() => actor.send({ type: 'item.delete', item })}
        >
          {t('kit.delete')}
        </Button>
      )}
    </Group>
  );
}
