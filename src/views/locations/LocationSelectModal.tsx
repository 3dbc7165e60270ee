import { Badge, Loader, Modal, NavLink, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import type { ActorRefFrom } from 'xstate';
import {
  matchingChoices,
  type LocationSelection,
  type locationSelectionMachine,
} from '../../machines/location-selection.machine.js';
import { displayLocationName } from '../../schemas/locations.js';

import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';

function sameChoice(a: LocationSelection, b: LocationSelection): boolean {
  if (a.kind === 'all' || b.kind === 'all') return a.kind === b.kind;
  return a.kind === b.kind && a.id === b.id;
}

/**
 * The location select modal (spec section 2): every location, the groups and the locations, with a
 * search field; choosing one closes it. Loading, empty and error (with retry) states.
 */
export function LocationSelectModal({ actor }: { actor: ActorRefFrom<typeof locationSelectionMachine> }) {
  const { t } = useTranslation();
  const visible = useSelector(actor, (state) => state.matches('visible'));
  const loading = useSelector(actor, (state) => state.matches({ visible: 'loading' }));
  const failed = useSelector(actor, (state) => state.matches({ visible: 'failed' }));
  const selection = useSelector(actor, (state) => state.context.selection);
  const choices = useSelector(actor, (state) => state.context.choices);
  const query = useSelector(actor, (state) => state.context.query);
  const problem = useSelector(actor, (state) => state.context.problem);
  const shown = matchingChoices(choices, query);
  const choose = (choice: LocationSelection) => actor.send({ type: 'choice.select', selection: choice });
  const nothing = choices !== null && shown.locations.length === 0 && shown.groups.length === 0;

  return (
    <Modal
      opened={visible}
      onClose={() => actor.send({ type: 'picker.close' })}
      title={t('locations.picker.title')}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      size="md"
    >
      <Stack gap="sm">
        <TextInput
          label={t('locations.picker.search')}
          placeholder={t('locations.picker.searchPlaceholder')}
          type="search"
          value={query}
          onChange={(event) => actor.send({ type: 'search.change', query: event.currentTarget.value })}
          data-autofocus
        />
        {failed && (
          <LoadFailedAlert
            title={t('locations.picker.loadFailed')}
            message={problemMessage(t, 'locations', problem)}
            retryLabel={t('locations.actions.retry')}
            onRetry={() => actor.send({ type: 'list.retry' })}
          />
        )}
        <ScrollArea.Autosize mah="60vh" type="auto">
          <NavLink
            component="button"
            label={t('locations.picker.all')}
            description={t('locations.picker.allHint')}
            active={selection.kind === 'all'}
            onClick={() => choose({ kind: 'all' })}
          />
          {loading && choices === null && (
            <Stack align="center" py="md">
              <Loader size="sm" />
            </Stack>
          )}
          {choices !== null && choices.locations.length === 0 && choices.groups.length === 0 && (
            <Text c="dimmed" ta="center" py="md">
              {t('locations.picker.empty')}
            </Text>
          )}
          {nothing && query.trim() && (choices.locations.length > 0 || choices.groups.length > 0) && (
            <Text c="dimmed" ta="center" py="md">
              {t('locations.picker.noMatch', { query: query.trim() })}
            </Text>
          )}
          {shown.groups.length > 0 && (
            <>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm" px="sm">
                {t('locations.picker.groups')}
              </Text>
              {shown.groups.map((group) => {
                const choice: LocationSelection = { kind: 'group', id: group.id, name: group.name };
                const active = sameChoice(selection, choice);
                return (
                  <NavLink
                    key={`group-${group.id}`}
                    component="button"
                    label={group.name}
                    description={t('locations.picker.members', { count: group.location_ids.length })}
                    active={active}
                    rightSection={active ? <Badge size="xs">{t('locations.picker.current')}</Badge> : null}
                    onClick={() => choose(choice)}
                  />
                );
              })}
            </>
          )}
          {shown.locations.length > 0 && (
            <>
              <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm" px="sm">
                {t('locations.picker.locations')}
              </Text>
              {shown.locations.map((location) => {
                const name = displayLocationName(location);
                const choice: LocationSelection = { kind: 'location', id: location.id, name };
                const active = sameChoice(selection, choice);
                return (
                  <NavLink
                    key={`location-${location.id}`}
                    component="button"
                    label={name}
                    description={[location.street, location.city].filter(Boolean).join(', ')}
                    active={active}
                    rightSection={active ? <Badge size="xs">{t('locations.picker.current')}</Badge> : null}
                    onClick={() => choose(choice)}
                  />
                );
              })}
            </>
          )}
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}
