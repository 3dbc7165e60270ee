import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { locationFilterOf } from '../../machines/subscribers-list.machine.js';
import { SegmentDashboardView } from '../../views/segment-dashboard/SegmentDashboardView.js';
import { useAppActor } from '../actors.js';
import { useLocationSelectionActor } from '../location-selection-context.js';
import { segmentDashboardLogic } from '../wiring/segment-dashboard.js';

/** The selected location or group as a key that changes only when the choice does. */
function useSelectionKey(): string {
  const selectionActor = useLocationSelectionActor();
  const key = useSelector(selectionActor ?? undefined, (state) => {
    const selection = state?.context.selection;
    return selection && selection.kind !== 'all' ? `${selection.kind}:${selection.id}` : 'all';
  });
  return key ?? 'all';
}

/** The picker's choice from its key, as the call's filters. */
function filterOfKey(key: string) {
  const [kind, id] = key.split(':');
  return locationFilterOf(
    kind === 'location' || kind === 'group' ? { kind, id: Number(id), name: '' } : { kind: 'all' },
  );
}

/** The panel of one segment: its own actor, started with the picker's choice at the time. */
function SegmentDashboard({ segmentId, onClose }: { segmentId: number; onClose: () => void }) {
  const key = useSelectionKey();
  const [initialKey] = useState(key);
  const actor = useAppActor(segmentDashboardLogic, {
    input: { segmentId, filter: filterOfKey(initialKey) },
  });
  const lastKey = useRef(initialKey);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    actor.send({ type: 'filter.change', filter: filterOfKey(key) });
  }, [key, actor]);
  return <SegmentDashboardView actor={actor} onClose={onClose} />;
}

/**
 * One segment's dashboard (v2), mounted by the /segments screen when a segment is chosen: its figures and
 * charts for the locations picked in the header (a new choice loads again), its CSV export with progress.
 * Another segment gets a new actor; closing stops it, which aborts a running export.
 */
export default function SegmentDashboardPanel({
  segmentId,
  onClose,
}: {
  segmentId: number;
  onClose: () => void;
}) {
  return <SegmentDashboard key={segmentId} segmentId={segmentId} onClose={onClose} />;
}
