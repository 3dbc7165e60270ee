import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import type { DashboardContext } from '../../machines/kit/dashboard-machine.js';

/** Any dashboard's actor (the kit's dashboardMachine, whatever its extra filters), as its views read it. */
export interface DashboardActorLike<Figures> extends Pick<AnyActorRef, 'subscribe'> {
  getSnapshot(): {
    context: DashboardContext<Figures, unknown>;
    hasTag(tag: 'busy'): boolean;
    matches(state: 'failed' | 'empty'): boolean;
  };
  send(event: { type: 'dashboard.retry' }): void;
}

/** What every dashboard view reads of its machine: the figures and whether they are loading, empty or failed. */
export function useDashboardState<Figures>(actor: DashboardActorLike<Figures>) {
  const figures = useSelector(actor, (state) => state.context.figures);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const empty = useSelector(actor, (state) => state.matches('empty'));
  return { figures, busy, failed, empty };
}
