import { useSelector } from '@xstate/react';
import { SubscriberListsView } from '../../views/subscriber-lists/SubscriberListsView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { subscriberListsLogic } from '../wiring/subscriber-lists.js';

/** /subscriber-list: the company's subscriber lists and their members. */
export default function SubscriberListsScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const actor = useAppActor(subscriberListsLogic);
  // Writes need a marketer, deletes an admin (the server refuses the others, so the buttons are hidden).
  const canDelete = roleAtLeast(role, 'admin');
  const canWrite = roleAtLeast(role, 'marketer');
  return <SubscriberListsView actor={actor} canWrite={canWrite} canDelete={canDelete} timeZone={timeZone} />;
}
