import { useSelector } from '@xstate/react';
import type { LocationFilter } from '../machines/file-paging.machine.js';
import { locationFilterOf } from '../machines/support/location-filter.js';
import { useLocationSelectionActor } from './location-selection-context.js';

/**
 * The header's selected location or group as the calls' filter, and a key that changes only when the choice
 * does (a screen sends its actors the new filter when the key changes).
 */
export function useLocationFilter(): { filter: LocationFilter; key: string } {
  const selectionActor = useLocationSelectionActor();
  const key =
    useSelector(selectionActor ?? undefined, (state) => {
      const selection = state?.context.selection;
      return selection && selection.kind !== 'all' ? `${selection.kind}:${selection.id}` : 'all';
    }) ?? 'all';
  const [kind, id] = key.split(':');
  const filter = locationFilterOf(
    kind === 'location' || kind === 'group' ? { kind, id: Number(id), name: '' } : { kind: 'all' },
  );
  return { filter, key };
}
