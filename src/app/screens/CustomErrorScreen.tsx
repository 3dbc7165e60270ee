import { useSelector } from '@xstate/react';
import { currentLocation } from '../../services/history.js';
import { type CustomErrorNumber, CustomErrorView } from '../../views/errors/CustomErrorView.js';
import { HOME_ROUTE } from '../../machines/navigation.machine.js';
import { useNavigationActor } from '../session-context.js';

/** The page a Retry goes back to: `?from=` when it is a path of this app, else the dashboard. */
function retryPath(): string {
  const from = new URLSearchParams(currentLocation().split('?')[1] ?? '').get('from');
  return from?.startsWith('/') && !from.startsWith('//') && !from.startsWith('/custom-error')
    ? from
    : HOME_ROUTE;
}

/** /custom-error/error-N: which failure happened (from the path), Retry reloading the failed page. */
export default function CustomErrorScreen() {
  const navigation = useNavigationActor();
  const path = useSelector(navigation, (state) => state.context.path);
  const code = Number(/error-(\d)$/.exec(path)?.[1] ?? 5) as CustomErrorNumber;
  return (
    <CustomErrorView
      code={code}
      // A full load, so a page whose code or styles failed is downloaded afresh.
      onRetry={() => window.location.assign(retryPath())}
      onHome={() => navigation.send({ type: 'route.navigate', path: HOME_ROUTE })}
    />
  );
}
