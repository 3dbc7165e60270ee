import { Alert, Button, Group, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { basketSegmentMachine } from '../../machines/basket-segment.machine.js';
import type { Basket } from '../../schemas/basket-analytics.js';
import { formatDateTime, languageOf } from '../../format/index.js';
import { formatFigure } from '../kit/figure-format.js';

/** The segment machine's actor, as the view sees it. */
export type BasketSegmentActor = ActorRefFrom<typeof basketSegmentMachine>;

/**
 * "Guests who ordered X": pick an item, see how many known guests ordered it in the range (counted for the item
 * picked), and make them a segment (marketers and above) — or read why the range or day part cannot be kept by a
 * segment.
 */
export function BasketSegmentCard({
  basket,
  segments,
  canSave,
  timeZone,
}: {
  basket: Basket;
  segments: BasketSegmentActor;
  canSave: boolean;
  /** The user's time zone, for when the guests were counted. */
  timeZone?: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const saving = useSelector(segments, (state) => state.hasTag('busy'));
  const problem = useSelector(segments, (state) => state.context.problem);
  // The screen hands each answer to the machine before it is painted, so its state is always this answer's.
  const counted = useSelector(segments, (state) => state.matches({ count: 'counted' }));
  const countFailed = useSelector(segments, (state) => state.matches({ count: 'failed' }));
  const pickedId = useSelector(segments, (state) => state.context.itemId);
  const guests = useSelector(segments, (state) => state.context.guests) ?? 0;
  const countedAt = useSelector(segments, (state) => state.context.countedAt);
  const item = basket.items.find((row) => row.menu_item_id === pickedId) ?? basket.items[0] ?? null;
  if (!item) return null;
  const { reason, window_days: windowDays, location_ids: locationIds } = basket.segment;
  const make = () =>
    segments.send({
      type: 'segment.make',
      request: {
        name: t('basketDashboard.segment.name', { item: item.name }),
        itemId: item.menu_item_id,
        locationIds,
        windowDays: windowDays!,
      },
    });
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('basketDashboard.segment.title')}
        </Title>
        <Select
          label={t('basketDashboard.segment.item')}
          data={basket.items.map((row) => ({ value: String(row.menu_item_id), label: row.name }))}
          value={String(item.menu_item_id)}
          onChange={(value) => value !== null && segments.send({ type: 'item.pick', itemId: Number(value) })}
          allowDeselect={false}
          searchable
          maw={360}
        />
        <div aria-live="polite">
          {countFailed ? (
            <Group gap="sm">
              <Text c="red" role="alert">
                {t('basketDashboard.segment.countFailed', { item: item.name })}
              </Text>
              <Button size="xs" variant="light" onClick={() => segments.send({ type: 'count.retry' })}>
                {t('basketDashboard.segment.retry')}
              </Button>
            </Group>
          ) : counted ? (
            <>
              <Text data-testid="basket-segment-count">
                {guests === 0
                  ? t('basketDashboard.segment.noGuests')
                  : t('basketDashboard.segment.count', {
                      guests: formatFigure(guests, 'count', i18n.language),
                      item: item.name,
                    })}
              </Text>
              {countedAt !== null && (
                <Text size="xs" c="dimmed" data-testid="basket-segment-counted-at">
                  {t('basketDashboard.segment.countedAt', {
                    when: formatDateTime(countedAt, languageOf(i18n.language), timeZone),
                  })}
                </Text>
              )}
            </>
          ) : (
            <Group gap="xs">
              <Loader size="xs" aria-hidden />
              <Text c="dimmed">{t('basketDashboard.segment.counting', { item: item.name })}</Text>
            </Group>
          )}
        </div>
        {reason !== 'ok' ? (
          <Text size="sm" c="dimmed">
            {t(
              reason === 'day_part' ? 'basketDashboard.segment.dayPart' : 'basketDashboard.segment.pastRange',
            )}
          </Text>
        ) : (
          canSave && (
            <Button w="fit-content" onClick={make} loading={saving} disabled={!counted || guests === 0}>
              {t('basketDashboard.segment.button')}
            </Button>
          )
        )}
        {problem && (
          <Alert
            color="red"
            role="alert"
            title={t('basketDashboard.segment.failed')}
            withCloseButton
            onClose={() => segments.send({ type: 'problem.dismiss' })}
          >
            {problem.message}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
