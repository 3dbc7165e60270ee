import type { TFunction } from 'i18next';
import type { DistributionBucket } from '../../schemas/segment-dashboard.js';
import { formatCount, formatCurrency } from '../../format/index.js';

/** A visit bucket's label: `3`, `4–5`, `21+`. */
export function visitBucketLabel(t: TFunction, bucket: DistributionBucket, language: string): string {
  const min = formatCount(bucket.min, language);
  if (bucket.max === null) return t('segmentDashboard.bucket.open', { min });
  if (bucket.max === bucket.min) return min;
  return t('segmentDashboard.bucket.range', { min, max: formatCount(bucket.max, language) });
}

/** A spend bucket's label in dollars: `$0.00`, `$25.00–$49.99`, `$1,000.00+`. */
export function spendBucketLabel(t: TFunction, bucket: DistributionBucket): string {
  const min = formatCurrency(bucket.min);
  if (bucket.max === null) return t('segmentDashboard.bucket.open', { min });
  if (bucket.max === bucket.min) return min;
  return t('segmentDashboard.bucket.range', { min, max: formatCurrency(bucket.max) });
}
