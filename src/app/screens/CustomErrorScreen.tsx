import { useLocation, useSearchParams } from 'react-router';
import { type CustomErrorNumber, CustomErrorView } from '../../views/errors/CustomErrorView.js';
import { HOME_ROUTE } from '../../machines/navigation.machine.js';
import { useNavigationActor } from '../session-context.js';

/** The page a Retry goes back to: `?from=` when it is a path of this app, else the dashboard. */
function retryPath(from: string | null): string {
  return from?.startsWith('/') && !from.startsWith('//') && !from.startsWith('/custom-error')
    ? from
    : HOME_ROUTE;
}

/** /custom-error/error-N: which failure happened (from the path), Retry reloading the failed page. */
export default function CustomErrorScreen() {
  const navigation = useNavigationActor();
  const path = useLocation().pathname;
  const [query] = useSearchParams();
  const code = Number(/error-(\d)$/.exec(path)?.[1] ?? 5) as CustomErrorNumber;
  return (
    <CustomErrorView
      code={code}
      // A full load, so a page whose code or styles failed is downloaded afresh.
      onRetry={() => window.location.assign(retryPath(query.get('from')))}
      onHome={() => navigation.send({ type: 'route.navigate', path: HOME_ROUTE })}
    />
  );
}
