import { useSelector } from '@xstate/react';
import { ComingSoonView } from '../../views/shell/ComingSoonView.js';
import { routeAt } from '../routes.js';
import { useNavigationActor } from '../session-context.js';

/** Every route whose screen arrives with a later issue: the shared empty state naming the page. */
export default function ComingSoonScreen() {
  const navigation = useNavigationActor();
  const path = useSelector(navigation, (state) => state.context.path);
  const route = routeAt(path);
  if (!route) return null;
  return <ComingSoonView titleKey={route.titleKey} feature={route.feature} navigation={navigation} />;
}
