import { DashboardPlaceholderView } from '../../views/shell/DashboardPlaceholderView.js';
import { useNavigationActor } from '../session-context.js';

/** /dashboard (Recommendations): a placeholder until the dashboard ships. */
export default function DashboardScreen() {
  return <DashboardPlaceholderView navigation={useNavigationActor()} />;
}
