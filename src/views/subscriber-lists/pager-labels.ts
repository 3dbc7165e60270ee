import type { TFunction } from 'i18next';
import type { PagerLabels } from '../shared/PagedFooter.js';

/** The pager labels of the list index and of a list's members. */
export function listPagerLabels(t: TFunction): PagerLabels {
  return {
    control: (control) => t(`subscriberLists.pagination.${control}`),
    page: (item) => t('subscriberLists.pagination.page', { page: item }),
  };
}
