import { Button } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { locationSelectionMachine } from '../../machines/location-selection.machine.js';

// The modal (and Mantine's modal, list and input code) downloads on first open, not with every page.
const LocationSelectModal = lazy(() =>
  import('./LocationSelectModal.js').then((module) => ({ default: module.LocationSelectModal })),
);

/** The location-selection actor the header's picker drives. */
export type LocationSelectionActorRef = ActorRefFrom<typeof locationSelectionMachine>;

/**
 * The header's location picker: shows the current choice ("All locations" when none) and opens the
 * location select modal, which it renders too while open. Nothing when there is no selection actor.
 */
export function LocationPickerButton({ actor }: { actor: LocationSelectionActorRef | null }) {
  if (!actor) return null;
  return <PickerButton actor={actor} />;
}

function PickerButton({ actor }: { actor: LocationSelectionActorRef }) {
  const { t } = useTranslation();
  const selection = useSelector(actor, (state) => state.context.selection);
  const visible = useSelector(actor, (state) => state.matches('visible'));
  const everywhere = selection.kind === 'all';
  const label = everywhere ? t('locations.picker.all') : selection.name;
  return (
    <>
      {/* Sized to its words (smaller on a phone); only a location name, user data, may be cut: its tooltip shows it. */}
      <Button
        variant="default"
        size="sm"
        px={{ base: 10, sm: 18 }}
        fz={{ base: 'xs', sm: 'sm' }}
        maw="100%"
        title={everywhere ? t('locations.picker.open') : `${t('locations.picker.open')}: ${label}`}
        aria-label={`${t('locations.picker.open')}: ${label}`}
        onClick={() => actor.send({ type: 'picker.open' })}
        styles={
          everywhere
            ? undefined
            : { label: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } }
        }
      >
        {label}
      </Button>
      {visible && (
        <Suspense fallback={null}>
          <LocationSelectModal actor={actor} />
        </Suspense>
      )}
    </>
  );
}
