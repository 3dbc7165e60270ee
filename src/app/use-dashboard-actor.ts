import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { DashboardMachine } from '../machines/kit/dashboard-machine.js';
import { useAppActor } from './actors.js';
import { todayIn, useDashboardRange } from './dashboard-range.js';
import { useLocationFilter } from './location-filter.js';
import { useAuthActor } from './session-context.js';

/**
 * A dashboard screen's actor started with the header's locations and the session's range, sent the new ones when
 * either changes, and what the kit's DashboardFrame needs to change the range (docs/dashboards.md).
 */
export function useDashboardActor<Figures>(logic: DashboardMachine<Figures>) {
  const { filter, key: filterKey } = useLocationFilter();
  const choice = useDashboardRange();
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  // The first choices are the actor's input; later ones are sent as events.
  const [initial] = useState(() => ({
    filter,
    filterKey,
    range: choice.range,
    compare: choice.compare,
    key: choice.key,
  }));
  const actor = useAppActor(logic, {
    input: { filter: initial.filter, range: initial.range, compare: initial.compare },
  }) as ActorRefFrom<DashboardMachine<Figures>>;
  const lastFilter = useRef(initial.filterKey);
  useEffect(() => {
    if (filterKey === lastFilter.current) return;
    lastFilter.current = filterKey;
    actor.send({ type: 'filter.change', filter });
  }, [filterKey, filter, actor]);
  const lastRange = useRef(initial.key);
  useEffect(() => {
    if (choice.key === lastRange.current) return;
    lastRange.current = choice.key;
    // Only what changed, so one choice is one load.
    const context = actor.getSnapshot().context;
    if (context.compare !== choice.compare) actor.send({ type: 'compare.change', compare: choice.compare });
    const { from, to, preset } = context.range;
    const { range } = choice;
    if (from !== range.from || to !== range.to || preset !== range.preset) {
      actor.send({ type: 'range.change', range });
    }
  }, [choice, actor]);
  return {
    actor,
    choice,
    today: todayIn(timeZone),
    setRange: choice.setRange,
    setCompare: choice.setCompare,
  };
}
