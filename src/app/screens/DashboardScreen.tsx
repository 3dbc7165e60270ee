import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { roleAtLeast } from '../../schemas/roles.js';
import { HomeDashboardView } from '../../views/home/HomeDashboardView.js';
import { useAppActor } from '../actors.js';
import { todayIn, useDashboardRange } from '../dashboard-range.js';
import { useLocationFilter } from '../location-filter.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import { homeDashboardLogic, recommendationFollowLogic } from '../wiring/home-dashboard.js';

/**
 * /dashboard and /marketing-analytics (Recommendations): the home dashboard over the header's locations and the
 * session's date range; a recommendation's saved segment opens in the segment list.
 */
export default function DashboardScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const navigation = useNavigationActor();
  const { filter, key: filterKey } = useLocationFilter();
  const { range, compare, setRange, setCompare, key: rangeKey } = useDashboardRange();
  // The first choices are the actor's input; later ones are sent as events.
  const [initial] = useState(() => ({ filter, filterKey, range, compare, rangeKey }));
  const actor = useAppActor(homeDashboardLogic, {
    input: { filter: initial.filter, range: initial.range, compare: initial.compare },
  });
  const follow = useAppActor(recommendationFollowLogic);

  const lastFilter = useRef(initial.filterKey);
  useEffect(() => {
    if (filterKey === lastFilter.current) return;
    lastFilter.current = filterKey;
    actor.send({ type: 'filter.change', filter });
  }, [filterKey, filter, actor]);

  const lastRange = useRef(initial.rangeKey);
  useEffect(() => {
    if (rangeKey === lastRange.current) return;
    lastRange.current = rangeKey;
    if (actor.getSnapshot().context.compare !== compare) actor.send({ type: 'compare.change', compare });
    const shown = actor.getSnapshot().context.range;
    if (shown.from !== range.from || shown.to !== range.to || shown.preset !== range.preset) {
      actor.send({ type: 'range.change', range });
    }
  }, [rangeKey, range, compare, actor]);

  useEffect(() => {
    const subscription = follow.on('segment.saved', ({ id }) =>
      navigation.send({ type: 'route.navigate', path: `/segments?segment=${id}` }),
    );
    return () => subscription.unsubscribe();
  }, [follow, navigation]);

  return (
    <HomeDashboardView
      actor={actor}
      follow={follow}
      canCreate={roleAtLeast(role, 'marketer')}
      today={todayIn(timeZone)}
      onRangeChange={setRange}
      onCompareChange={setCompare}
    />
  );
}
