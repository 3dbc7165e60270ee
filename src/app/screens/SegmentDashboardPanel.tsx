import { type ReactNode, useEffect, useRef, useState } from 'react';
import { SegmentDashboardView } from '../../views/segment-dashboard/SegmentDashboardView.js';
import { useAppActor } from '../actors.js';
import { useLocationFilter } from '../location-filter.js';
import { segmentDashboardLogic } from '../wiring/segment-dashboard.js';

/** The panel of one segment: its own actor, started with the picker's choice at the time. */
function SegmentDashboard({
  segmentId,
  onClose,
  background,
}: {
  segmentId: number;
  onClose: () => void;
  background?: ReactNode;
}) {
  const { filter, key } = useLocationFilter();
  // The first filter is the actor's input; later choices are sent as events.
  const [initial] = useState(() => ({ filter, key }));
  const actor = useAppActor(segmentDashboardLogic, { input: { segmentId, filter: initial.filter } });
  const lastKey = useRef(initial.key);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    actor.send({ type: 'filter.change', filter });
  }, [key, filter, actor]);
  return <SegmentDashboardView actor={actor} onClose={onClose} background={background} />;
}

/**
 * One segment's dashboard (v2), mounted by the /segments screen when a segment is chosen: its figures and
 * charts for the locations picked in the header (a new choice loads again), its CSV export with progress.
 * Another segment gets a new actor; closing stops it, which aborts a running export.
 */
export default function SegmentDashboardPanel({
  segmentId,
  onClose,
  background,
}: {
  segmentId: number;
  onClose: () => void;
  /** "Export in the background" for this segment, from the screen's background exports. */
  background?: ReactNode;
}) {
  return <SegmentDashboard key={segmentId} segmentId={segmentId} onClose={onClose} background={background} />;
}
