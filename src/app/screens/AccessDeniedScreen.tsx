import { StatusPageView } from '../../views/shell/StatusPageView.js';

/** /access-denied: the user's role may not open the page. */
export default function AccessDeniedScreen() {
  return <StatusPageView kind="accessDenied" />;
}
