import { StatusPageView } from '../../views/shell/StatusPageView.js';

/** /404: no page at the address. */
export default function NotFoundScreen() {
  return <StatusPageView kind="notFound" />;
}
