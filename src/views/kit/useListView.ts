import { useSelector } from '@xstate/react';
import type { ListActor } from './list-actor.js';

/** Which dialog a list machine has open. */
export type ListDialog = 'creating' | 'editing' | 'deleting' | null;

/**
 * What a list screen's view shows, read from its machine: the rows and where the list is (loading,
 * failed, browsing), the page, the search text, the notice, and which dialog is open.
 */
export function useListView<Item, Form extends object>(actor: ListActor<Item, Form>) {
  const loading = useSelector(actor, (state) => state.matches({ listing: 'loading' }));
  const failed = useSelector(actor, (state) => state.matches({ listing: 'failed' }));
  const browsing = useSelector(actor, (state) => state.matches({ listing: 'browsing' }));
  const items = useSelector(actor, (state) => state.context.items);
  const total = useSelector(actor, (state) => state.context.total);
  const totalEstimated = useSelector(actor, (state) => state.context.totalEstimated);
  const page = useSelector(actor, (state) => state.context.page);
  const pageSize = useSelector(actor, (state) => state.context.pageSize);
  const search = useSelector(actor, (state) => state.context.search);
  const ordering = useSelector(actor, (state) => state.context.ordering);
  const notice = useSelector(actor, (state) => state.context.notice);
  const exporting = useSelector(actor, (state) => state.context.exporting);
  const listProblem = useSelector(actor, (state) =>
    state.matches('listing') ? state.context.problem : null,
  );
  const pages = pageSize ? Math.max(1, Math.ceil(total / pageSize)) : 1;
  return {
    loading,
    failed,
    browsing,
    items,
    total,
    totalEstimated,
    page,
    pages,
    search,
    ordering,
    notice,
    exporting,
    listProblem,
  };
}

/** The open dialog of a list machine: which one, the form as typed, its errors, and whether it is saving. */
export function useListDialog<Item, Form extends object, Created = unknown>(
  actor: ListActor<Item, Form, Created>,
) {
  const dialog = useSelector(actor, (state): ListDialog => {
    if (state.matches('creating')) return 'creating';
    if (state.matches('editing')) return 'editing';
    if (state.matches('deleting')) return 'deleting';
    return null;
  });
  const busy = useSelector(actor, (state) => !state.matches('listing') && state.hasTag('busy'));
  const form = useSelector(actor, (state) => state.context.form);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => (state.matches('listing') ? null : state.context.problem));
  const selected = useSelector(actor, (state) => state.context.selected);
  const created = useSelector(actor, (state) =>
    state.matches({ creating: 'created' }) ? state.context.created : null,
  );
  return { dialog, busy, form, fieldErrors, problem, selected, created };
}
