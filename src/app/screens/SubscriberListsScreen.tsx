import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { SubscriberList } from '../../schemas/subscribers.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { MemberPicker } from '../../views/subscriber-lists/MemberPicker.js';
import { MembersPanel, type ListMembersActor } from '../../views/subscriber-lists/MembersPanel.js';
import { SubscriberListsView } from '../../views/subscriber-lists/SubscriberListsView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { listMembersLogic, memberCandidatesLogic, subscriberListsLogic } from '../wiring/subscriber-lists.js';

/**
 * /subscriber-lists: the company's subscriber lists; a list the lists machine announces as opened
 * shows its members instead, and coming back reloads the lists (their member counts may have changed).
 */
export default function SubscriberListsScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const lists = useAppActor(subscriberListsLogic);
  const [opened, setOpened] = useState<SubscriberList | null>(null);
  useEffect(() => {
    const subscription = lists.on('item.opened', ({ item }) => setOpened(item));
    return () => subscription.unsubscribe();
  }, [lists]);
  // Writes need a marketer, deletes an admin (the server refuses the others, so the buttons are hidden).
  const canDelete = roleAtLeast(role, 'admin');
  const canWrite = roleAtLeast(role, 'marketer');
  if (opened) {
    const back = () => {
      setOpened(null);
      lists.send({ type: 'list.refresh' });
    };
    return <OpenedList key={opened.id} list={opened} canWrite={canWrite} onBack={back} />;
  }
  return <SubscriberListsView actor={lists} canWrite={canWrite} canDelete={canDelete} timeZone={timeZone} />;
}

/** One list's members, with its own members machine for as long as the list is open. */
function OpenedList({
  list,
  canWrite,
  onBack,
}: {
  list: SubscriberList;
  canWrite: boolean;
  onBack: () => void;
}) {
  const [logic] = useState(() => listMembersLogic(list.id));
  const members = useAppActor(logic, { input: { filters: { listId: list.id } } });
  const picking = useSelector(members, (state) => state.matches('creating'));
  return (
    <MembersPanel
      actor={members}
      list={list}
      canWrite={canWrite}
      onBack={onBack}
      picker={picking ? <OpenPicker members={members} list={list} /> : null}
    />
  );
}

/** The add-members picker, with its own candidates machine while it is open. */
function OpenPicker({ members, list }: { members: ListMembersActor; list: SubscriberList }) {
  const candidates = useAppActor(memberCandidatesLogic);
  return <MemberPicker members={members} candidates={candidates} list={list} />;
}
