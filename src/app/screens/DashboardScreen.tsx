import { DashboardPlaceholderView } from '../../views/shell/DashboardPlaceholderView.js';

/** /dashboard (Recommendations): a placeholder until the dashboard ships. */
export default function DashboardScreen() {
  return <DashboardPlaceholderView />;
}
