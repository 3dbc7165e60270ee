import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { roleAtLeast } from '../../schemas/roles.js';
import { BasketAnalyticsView } from '../../views/basket/BasketAnalyticsView.js';
import { useAppActor } from '../actors.js';
import { todayIn, useDashboardRange } from '../dashboard-range.js';
import { useLocationFilter } from '../location-filter.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { basketAnalyticsLogic, basketSegmentLogic } from '../wiring/basket-analytics.js';

/**
 * /basket-analytics: the basket dashboard over the header's locations and the dashboards' shared range; a
 * "guests who ordered X" segment, once saved, opens in the segment list.
 */
export default function BasketAnalyticsScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const navigation = useNavigationActor();
  const { filter, key: filterKey } = useLocationFilter();
  const { range, compare, setRange, setCompare, key: rangeKey } = useDashboardRange();
  // The first choices are the actor's input; later ones are sent as events.
  const [initial] = useState(() => ({ filter, filterKey, range, compare, rangeKey }));
  const actor = useAppActor(basketAnalyticsLogic, {
    input: { filter: initial.filter, range: initial.range, compare: initial.compare },
  });
  const segments = useAppActor(basketSegmentLogic);

  const lastFilter = useRef(initial.filterKey);
  useEffect(() => {
    if (filterKey === lastFilter.current) return;
    lastFilter.current = filterKey;
    actor.send({ type: 'filter.change', filter });
  }, [filterKey, filter, actor]);

  // Only what changed is sent: each event loads the figures again.
  const last = useRef({ key: initial.rangeKey, range: initial.range, compare: initial.compare });
  useEffect(() => {
    if (rangeKey === last.current.key) return;
    const before = last.current;
    last.current = { key: rangeKey, range, compare };
    if (
      before.range.from !== range.from ||
      before.range.to !== range.to ||
      before.range.preset !== range.preset
    ) {
      actor.send({ type: 'range.change', range });
    }
    if (before.compare !== compare) actor.send({ type: 'compare.change', compare });
  }, [rangeKey, range, compare, actor]);

  useEffect(() => {
    const subscription = segments.on('segment.saved', ({ id }) =>
      navigation.send({ type: 'route.navigate', path: `/segments?segment=${id}` }),
    );
    return () => subscription.unsubscribe();
  }, [segments, navigation]);

  return (
    <BasketAnalyticsView
      actor={actor}
      segments={segments}
      canSave={roleAtLeast(role, 'marketer')}
      today={todayIn(timeZone)}
      onRangeChange={setRange}
      onCompareChange={setCompare}
    />
  );
}
