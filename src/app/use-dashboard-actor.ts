import { useEffect, useRef, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { DashboardMachine, NoExtra } from '../machines/kit/dashboard-machine.js';
import type { DashboardRangeProps } from '../views/kit/DashboardFrame.js';
import { useAppActor } from './actors.js';
import { useCompanyToday, useDashboardRange } from './dashboard-range.js';
import { useLocationFilter } from './location-filter.js';

/**
 * A dashboard screen's actor, started with the header's locations and the session's range and comparison and
 * told of each later choice (only what changed, so one choice is one load), with what the kit's DashboardFrame
 * needs to change the range: the company's today and the range's setters (docs/dashboards.md).
 */
export function useDashboardActor<Figures, Extra = NoExtra>(
  logic: DashboardMachine<Figures, Extra>,
): { actor: ActorRefFrom<DashboardMachine<Figures, Extra>>; rangeProps: DashboardRangeProps } {
  const today = useCompanyToday();
  const { filter, key: filterKey } = useLocationFilter();
  const choice = useDashboardRange();
  // The first choices are the actor's input; later ones are sent as events.
  const [initial] = useState(() => ({ filter, filterKey, choice }));
  const actor = useAppActor(logic, {
    input: { filter: initial.filter, range: initial.choice.range, compare: initial.choice.compare },
  }) as ActorRefFrom<DashboardMachine<Figures, Extra>>;

  const lastFilter = useRef(initial.filterKey);
  useEffect(() => {
    if (filterKey === lastFilter.current) return;
    lastFilter.current = filterKey;
    actor.send({ type: 'filter.change', filter });
  }, [filterKey, filter, actor]);

  const lastRange = useRef(initial.choice.key);
  useEffect(() => {
    if (choice.key === lastRange.current) return;
    lastRange.current = choice.key;
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
    rangeProps: {
      today,
      onRangeChange: choice.setRange,
      onCompareChange: choice.setCompare,
    },
  };
}
