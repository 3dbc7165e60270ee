import { StatusPageView } from '../../views/shell/StatusPageView.js';
import { useNavigationActor } from '../session-context.js';

/** /no-access: the company lacks the page's feature. */
export default function NoAccessScreen() {
  return <StatusPageView kind="noAccess" navigation={useNavigationActor()} />;
}
