import { useLocation } from 'react-router';
import { ComingSoonView } from '../../views/shell/ComingSoonView.js';
import { routeAt } from '../routes.js';

/** Every route whose screen arrives with a later issue: the shared empty state naming the page. */
export default function ComingSoonScreen() {
  const route = routeAt(useLocation().pathname);
  if (!route) return null;
  return <ComingSoonView titleKey={route.titleKey} feature={route.feature} />;
}
