import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { SentMailView } from '../../views/sent-mail/SentMailView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { sentMailLogic, sentMailMessageLogic } from '../wiring/sent-mail.js';

/** /sent-mail: the company's captured mail; opening a row shows that message. */
export default function SentMailScreen() {
  const auth = useAuthActor();
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const list = useAppActor(sentMailLogic);
  const message = useAppActor(sentMailMessageLogic);
  useEffect(() => {
    const subscription = list.on('item.opened', ({ item }) =>
      message.send({ type: 'message.open', id: item.id }),
    );
    return () => subscription.unsubscribe();
  }, [list, message]);
  return <SentMailView actor={list} message={message} timeZone={timeZone} />;
}
