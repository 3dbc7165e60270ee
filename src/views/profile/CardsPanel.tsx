import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../shared/field-message.js';
import type { CardField } from '../../machines/customer-profile.machine.js';
import { formatDate, languageOf } from '../../format/index.js';
import { ERROR_STYLES, maskedCard } from '../guests/messages.js';
import type { ProfileActor } from './types.js';
import { hasFieldMessages, problemMessage } from '../shared/problem-message.js';

/**
 * The payment cards linked to the person (not the card digits the POS saw, which the header shows): remove
 * one, or link another in a dialog.
 */
export function CardsPanel({ actor, timeZone }: { actor: ProfileActor; timeZone?: string }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const cards = useSelector(actor, (state) => state.context.cards);
  const idle = useSelector(actor, (state) => state.matches({ viewing: 'idle' }));
  const removing = useSelector(actor, (state) => state.context.removing);
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {t('profile.cards.title')}
          </Title>
          <Button size="xs" variant="light" disabled={!idle} onClick={() => actor.send({ type: 'card.add' })}>
            {t('profile.cards.add')}
          </Button>
        </Group>
        {cards.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('profile.cards.empty')}
          </Text>
        ) : (
          <Stack gap={0}>
            {cards.map((card, index) => (
              <Stack key={card.id} gap={0}>
                {index > 0 && <Divider my="xs" />}
                <Group justify="space-between" wrap="nowrap" align="center">
                  <Stack gap={2} miw={0}>
                    <Group gap="xs" wrap="nowrap">
                      <Text ff="monospace" fw={600} style={{ whiteSpace: 'nowrap' }}>
                        {maskedCard(card.last_four_digits)}
                      </Text>
                      {card.card_brand && (
                        <Badge variant="outline" color="gray" size="sm">
                          {card.card_brand}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {[
                        card.name_on_card,
                        t('profile.cards.addedOn', { date: formatDate(card.created_at, language, timeZone) }),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  </Stack>
                  <Button
                    size="xs"
                    variant="default"
                    // The card's details may wrap; the button keeps its whole word.
                    style={{ flexShrink: 0 }}
                    disabled={!idle}
                    loading={removing?.id === card.id}
                    aria-label={t('profile.cards.removeLabel', { card: maskedCard(card.last_four_digits) })}
                    onClick={() => actor.send({ type: 'card.remove', card })}
                  >
                    {t('profile.cards.remove')}
                  </Button>
                </Group>
              </Stack>
            ))}
          </Stack>
        )}
      </Stack>
      <CardDialog actor={actor} />
    </Paper>
  );
}

/** Links a card: four digits required, brand and name optional. */
function CardDialog({ actor }: { actor: ProfileActor }) {
  const { t } = useTranslation();
  const open = useSelector(actor, (state) => state.matches({ viewing: 'addingCard' }));
  const busy = useSelector(actor, (state) => state.matches({ viewing: { addingCard: 'saving' } }));
  const form = useSelector(actor, (state) => state.context.cardForm);
  const errors = useSelector(actor, (state) => state.context.cardErrors);
  const problem = useSelector(actor, (state) =>
    state.matches({ viewing: 'addingCard' }) ? state.context.problem : null,
  );
  const close = () => actor.send({ type: 'dialog.close' });
  const change = (field: CardField, value: string) => actor.send({ type: 'card.change', field, value });
  const showProblem = problem !== null && !hasFieldMessages(problem);
  return (
    <Modal
      opened={open}
      onClose={close}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      title={t('profile.cards.dialogTitle')}
      closeButtonProps={{ 'aria-label': t('profile.close') }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          actor.send({ type: 'dialog.submit' });
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('profile.cards.lastFour')}
            description={t('profile.cards.lastFourHint')}
            required
            inputMode="numeric"
            maxLength={4}
            data-autofocus
            value={form.last_four_digits}
            styles={ERROR_STYLES}
            error={fieldMessage(t, errors.last_four_digits, t('profile.cards.lastFour'))}
            onChange={(event) => change('last_four_digits', event.currentTarget.value)}
          />
          <TextInput
            label={t('profile.cards.brand')}
            maxLength={40}
            value={form.card_brand}
            styles={ERROR_STYLES}
            error={fieldMessage(t, errors.card_brand, t('profile.cards.brand'))}
            onChange={(event) => change('card_brand', event.currentTarget.value)}
          />
          <TextInput
            label={t('profile.cards.nameOnCard')}
            maxLength={120}
            value={form.name_on_card}
            styles={ERROR_STYLES}
            error={fieldMessage(t, errors.name_on_card, t('profile.cards.nameOnCard'))}
            onChange={(event) => change('name_on_card', event.currentTarget.value)}
          />
          {showProblem && <Alert color="red">{problemMessage(t, 'profile', problem)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('profile.cards.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('profile.cards.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
