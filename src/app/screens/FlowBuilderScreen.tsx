import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { formatCurrency } from '../../format/index.js';
import { roleAtLeast } from '../../schemas/roles.js';
import type { FlowBuilderActor } from '../../views/flows/flow-builder-actor.js';
import { FlowBuilderView } from '../../views/flows/FlowBuilderView.js';
import { StatusPageView } from '../../views/shell/StatusPageView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { useWarnBeforeUnload } from '../use-warn-before-unload.js';
import { flowBuilderLogic } from '../wiring/flow-builder.js';

/** The flow a path names: a saved one's id, `new`, or null for anything else (no such flow). */
function flowIdOf(param: string | undefined): number | 'new' | null {
  if (param === 'new') return 'new';
  // Digits only: `Number` would take ' 12', '1e3' or '0x1f' as ids.
  const id = /^[1-9][0-9]{0,15}$/.test(param ?? '') ? Number(param) : NaN;
  return Number.isSafeInteger(id) ? id : null;
}

/** Amounts in cents as the app shows money. */
const formatMoney = (cents: number) => formatCurrency(cents / 100);

/**
 * /flows/builder/new and /flows/builder/{id}: the flow builder. `new` makes a draft at once and its address
 * becomes the draft's, so a reload opens it again.
 */
export default function FlowBuilderScreen() {
  const { id } = useParams();
  const role = useSelector(useAuthActor(), (state) => state.context.user?.role);
  const flowId = flowIdOf(id);
  // An address naming no flow asks the server nothing; an analyst reads flows but never makes a draft.
  if (flowId === null) return <StatusPageView kind="notFound" />;
  if (flowId === 'new' && !roleAtLeast(role, 'marketer')) return <StatusPageView kind="accessDenied" />;
  return <FlowBuilder flowId={flowId === 'new' ? null : flowId} />;
}

/** One flow's builder actor and its view, with the warning before leaving unsaved changes. */
function FlowBuilder({ flowId }: { flowId: number | null }) {
  const { t } = useTranslation();
  const auth = useAuthActor();
  const navigate = useNavigate();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const staffEmail = useSelector(auth, (state) => state.context.user?.email) ?? '';
  const actor: FlowBuilderActor = useAppActor(flowBuilderLogic, {
    input: { flowId, newName: t('flows.builder.newName'), staffEmail },
  });
  const unsaved = useSelector(actor, (state) => state.hasTag('unsaved'));
  const notFound = useSelector(actor, (state) => state.matches('notFound'));
  // Replaced in the browser's history only: the layout remounts a screen on every routed path change.
  useEffect(() => {
    const created = actor.on('flow.created', ({ id }) =>
      window.history.replaceState(window.history.state, '', `/flows/builder/${id}`),
    );
    return () => created.unsubscribe();
  }, [actor]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  useWarnBeforeUnload(unsaved);
  // A number naming no flow of this company reads as the address `abc` does.
  if (notFound) return <StatusPageView kind="notFound" />;
  return (
    <FlowBuilderView
      actor={actor}
      canWrite={roleAtLeast(role, 'marketer')}
      formatMoney={formatMoney}
      leaveGuard={{
        blocked: blocker.state === 'blocked',
        leave: () => blocker.proceed?.(),
        stay: () => blocker.reset?.(),
      }}
      onBackToList={() => void navigate('/flows')}
    />
  );
}
