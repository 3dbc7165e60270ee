import { Alert, Anchor, Button, Drawer, Group, Loader, Stack, Table, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { formatCount, formatCurrency, formatDate, languageOf } from '../../format/index.js';
import type { RfmDashboardActor } from './RfmDashboardView.js';
import { fieldMessage } from '../shared/field-message.js';
import { problemMessage } from '../shared/problem-message.js';

const FOCUSABLE_SCROLL = { viewportProps: { tabIndex: 0 } };

/**
 * The open cell in a drawer: its size, "save as segment" with a name to start from (marketers and above), and its
 * guests a page at a time, each name opening the guest's profile.
 */
export function RfmCellPanel({
  actor,
  canSave,
  timeZone,
}: {
  actor: RfmDashboardActor;
  canSave: boolean;
  timeZone?: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const cell = useSelector(actor, (state) => state.context.cell);
  const guests = useSelector(actor, (state) => state.context.guests);
  const count = useSelector(actor, (state) => state.context.guestsCount);
  const hasMore = useSelector(actor, (state) => state.context.nextAfter !== null);
  const loading = useSelector(actor, (state) => state.matches({ ready: { cell: 'loadingGuests' } }));
  const failed = useSelector(actor, (state) => state.matches({ ready: { cell: 'guestsFailed' } }));
  const saving = useSelector(actor, (state) => state.matches({ ready: { cell: 'saving' } }));
  const name = useSelector(actor, (state) => state.context.segmentName);
  const saveProblem = useSelector(actor, (state) => state.context.saveProblem);
  const nameError = saveProblem?.fields.name
    ? saveProblem.code === 'name_required'
      ? t('rfm.save.nameRequired')
      : fieldMessage(t, saveProblem.fields.name, t('rfm.save.name'))
    : null;
  return (
    <Drawer
      opened={cell !== null}
      onClose={() => actor.send({ type: 'cell.close' })}
      position="right"
      size="lg"
      title={cell ? t(`rfm.names.${cell}`) : ''}
      closeButtonProps={{ 'aria-label': t('rfm.cell.close') }}
    >
      <Stack gap="md">
        <Text data-testid="rfm-cell-count">
          {t('rfm.cell.count', { total: formatCount(count, language) })}
        </Text>
        {canSave && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              actor.send({ type: 'segment.save' });
            }}
          >
            <Stack gap="xs">
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput
                  label={t('rfm.save.name')}
                  value={name}
                  maxLength={200}
                  onChange={(event) =>
                    actor.send({ type: 'segment.nameChange', value: event.currentTarget.value })
                  }
                  error={nameError}
                  style={{ flex: '1 1 14rem' }}
                />
                <Button type="submit" loading={saving} disabled={loading || failed}>
                  {t('rfm.save.button')}
                </Button>
              </Group>
              <Text size="xs" c="dimmed">
                {t('rfm.save.hint')}
              </Text>
              {saveProblem && !nameError && (
                <Alert color="red" role="alert">
                  {t('rfm.save.failed')} {problemMessage(t, 'segments', saveProblem)}
                </Alert>
              )}
            </Stack>
          </form>
        )}
        {failed && (
          <Alert color="red" role="alert">
            <Group justify="space-between">
              <Text size="sm">{t('rfm.cell.loadFailed')}</Text>
              <Button size="xs" variant="light" onClick={() => actor.send({ type: 'guests.retry' })}>
                {t('rfm.retry')}
              </Button>
            </Group>
          </Alert>
        )}
        {!loading && !failed && guests.length === 0 && <Text c="dimmed">{t('rfm.cell.none')}</Text>}
        {guests.length > 0 && (
          <Table.ScrollContainer minWidth={460} scrollAreaProps={FOCUSABLE_SCROLL}>
            <Table striped data-testid="rfm-cell-guests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('rfm.cell.name')}</Table.Th>
                  <Table.Th>{t('rfm.cell.posId')}</Table.Th>
                  <Table.Th ta="right">{t('rfm.cell.visits')}</Table.Th>
                  <Table.Th ta="right">{t('rfm.cell.spend')}</Table.Th>
                  <Table.Th>{t('rfm.cell.lastVisit')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {guests.map((guest) => (
                  <Table.Tr key={guest.id}>
                    <Table.Td>
                      <Anchor
                        component="button"
                        type="button"
                        onClick={() => actor.send({ type: 'guest.open', guest })}
                      >
                        {guest.customer_name || guest.pos_id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{guest.pos_id}</Table.Td>
                    <Table.Td ta="right">{formatCount(guest.visit_count, language)}</Table.Td>
                    <Table.Td ta="right">{formatCurrency(guest.total_spend)}</Table.Td>
                    <Table.Td>{formatDate(guest.last_visit_at, language, timeZone)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {loading && (
          <Group justify="center">
            <Loader size="sm" aria-label={t('rfm.cell.more')} />
          </Group>
        )}
        {hasMore && !loading && (
          <Button variant="light" onClick={() => actor.send({ type: 'guests.more' })}>
            {t('rfm.cell.more')}
          </Button>
        )}
      </Stack>
    </Drawer>
  );
}
