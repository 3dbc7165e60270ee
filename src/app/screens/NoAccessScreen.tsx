import { StatusPageView } from '../../views/shell/StatusPageView.js';

/** /no-access: the company lacks the page's feature. */
export default function NoAccessScreen() {
  return <StatusPageView kind="noAccess" />;
}
