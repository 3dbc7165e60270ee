import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { formatCurrency } from '../../format/index.js';
import { roleAtLeast } from '../../schemas/roles.js';
import type { FlowBuilderActor } from '../../views/flows/flow-builder-actor.js';
import { FlowBuilderView } from '../../views/flows/FlowBuilderView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { useWarnBeforeUnload } from '../use-warn-before-unload.js';
import { flowBuilderLogic } from '../wiring/flow-builder.js';

/** The flow a path names: a saved one's id, or null for `/flows/builder/new`. */
function flowIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Amounts in cents as the app shows money. */
const formatMoney = (cents: number) => formatCurrency(cents / 100);

/**
 * /flows/builder/new and /flows/builder/{id}: the flow builder. `new` makes a draft at once and its address
 * becomes the draft's, so a reload opens it again.
 */
export default function FlowBuilderScreen() {
  const { id } = useParams();
  return <FlowBuilder flowId={flowIdOf(id)} />;
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
