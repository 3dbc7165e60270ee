import { useEffect } from 'react';
import { HijackView } from '../../views/hijack/HijackView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { hijackLogic } from '../wiring/hijack.js';

/**
 * /hijack (platform staff; the route table restricts it): the search and "Act as". The token the
 * server issues goes to the auth actor as `impersonation.begin`, which keeps the staff token aside,
 * switches the session and shows the banner naming both people.
 */
export default function HijackScreen() {
  const auth = useAuthActor();
  const actor = useAppActor(hijackLogic);
  useEffect(() => {
    const subscription = actor.on('impersonation.started', (event) =>
      auth.send({ type: 'impersonation.begin', tokenData: event.tokenData }),
    );
    return () => subscription.unsubscribe();
  }, [actor, auth]);
  return <HijackView actor={actor} />;
}
