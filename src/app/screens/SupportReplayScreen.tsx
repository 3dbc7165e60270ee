import { ReplayView } from '../../views/support/ReplayView.js';
import { useAppActor } from '../actors.js';
import { supportReplayLogic } from '../wiring/support-replay.js';

/**
 * /support/replay (platform staff; the route table restricts it): loads an event log (a file, this page's
 * own log or one captured on the server), replays it through the app's machines and steps through it.
 */
export default function SupportReplayScreen() {
  const actor = useAppActor(supportReplayLogic);
  return <ReplayView actor={actor} />;
}
