/**
 * Every feature a company can buy, by its stored name (the `company_features.feature` column); each gated
 * page and API route of the product specification belongs to one of them.
 */
export const ALL_FEATURES = [
  'Benchmark Analytics',
  'Locations',
  'Recommendations',
  'Overview',
  'Segments Dashboard',
  'Segments List',
  'Subscribers',
  'Campaigns',
  'Campaign Analytics',
  'Campaign Flows',
  'Templates',
  'Consumer Insights Analytics',
  'Demographics',
  'Customer Journey',
  'Summary',
  'Locations Summary',
] as const;

/** The name of one feature. */
export type Feature = (typeof ALL_FEATURES)[number];
