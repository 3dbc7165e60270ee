import { StatusPageView } from '../../views/shell/StatusPageView.js';
import { useNavigationActor } from '../session-context.js';

/** /404: no page at the address. */
export default function NotFoundScreen() {
  return <StatusPageView kind="notFound" navigation={useNavigationActor()} />;
}
