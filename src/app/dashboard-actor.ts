import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import type { DashboardMachine } from '../machines/kit/dashboard-machine.js';
import { useAppActor } from './actors.js';
import { todayIn, useDashboardRange } from './dashboard-range.js';
import { useLocationFilter } from './location-filter.js';
import { useAuthActor } from './session-context.js';

/**
 * A dashboard screen's actor, started with the header's locations and the session's range and comparison, and
 * told of each later choice (only what changed, so one choice is one load); with the user's today for the
 * range presets and the range's setters for the view.
 */
export function useDashboardActor<Figures>(logic: DashboardMachine<Figures>) {
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const { filter, key } = useLocationFilter();
  const choice = useDashboardRange();
  // The first choice is the actor's input; later ones are sent as events.
  const [initial] = useState(() => ({ filter, key, choice }));
  const actor = useAppActor(logic, {
    input: { filter: initial.filter, range: initial.choice.range, compare: initial.choice.compare },
  });

  const lastKey = useRef(initial.key);
  useEffect(() => {
    if (key === lastKey.current) return;
    lastKey.current = key;
    actor.send({ type: 'filter.change', filter });
  }, [key, filter, actor]);

  const lastChoice = useRef(initial.choice.key);
  useEffect(() => {
    if (choice.key === lastChoice.current) return;
    lastChoice.current = choice.key;
    const context = actor.getSnapshot().context;
    if (context.compare !== choice.compare) actor.send({ type: 'compare.change', compare: choice.compare });
    const { from, to, preset } = context.range;
    const { range } = choice;
    if (from !== range.from || to !== range.to || preset !== range.preset) {
      actor.send({ type: 'range.change', range });
    }
  }, [choice, actor]);

  return { actor, today: todayIn(timeZone), setRange: choice.setRange, setCompare: choice.setCompare };
}
