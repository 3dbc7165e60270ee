import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { roleAtLeast } from '../../schemas/roles.js';
import { FlowsView, type FlowActedNotice } from '../../views/flows/FlowsView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { flowActionsLogic, flowsLogic } from '../wiring/flows.js';

/**
 * /flows: the company's flows; a row's Open and a new flow (once its name made it) go to the builder
 * (/flows/builder/{id}); a copy, a pause or a resume reloads the list and is named in the notice.
 */
export default function FlowsScreen() {
  const auth = useAuthActor();
  const navigate = useNavigate();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const list = useAppActor(flowsLogic);
  const actions = useAppActor(flowActionsLogic);
  const status = useSelector(list, (state) => state.context.filters.status);
  const created = useSelector(list, (state) => state.context.created);
  const [acted, setActed] = useState<FlowActedNotice | null>(null);
  useEffect(() => {
    const opened = list.on('item.opened', ({ item }) => void navigate(`/flows/builder/${item.id}`));
    const done = actions.on('flow.acted', ({ action, flow }) => {
      setActed({ action, name: flow.name });
      list.send({ type: 'list.refresh' });
    });
    return () => {
      opened.unsubscribe();
      done.unsubscribe();
    };
  }, [list, actions, navigate]);
  // A new flow opens in the builder as soon as it is made.
  useEffect(() => {
    if (created) void navigate(`/flows/builder/${created.id}`);
  }, [created, navigate]);
  // Any other change's notice replaces the action's.
  const notice = useSelector(list, (state) => state.context.notice);
  useEffect(() => {
    if (notice !== null) setActed(null);
  }, [notice]);
  return (
    <FlowsView
      actor={list}
      actions={actions}
      status={status}
      canWrite={roleAtLeast(role, 'marketer')}
      acted={acted}
      onOpen={(flow) => list.send({ type: 'item.open', item: flow })}
    />
  );
}
