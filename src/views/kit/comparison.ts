import { createContext } from 'react';

/**
 * Whether the dashboard around compares with the previous period (its machine's `compare`, given by
 * `DashboardFrame`): without it, a KPI card says nothing of a previous period. True outside a dashboard.
 */
export const ComparisonContext = createContext(true);
