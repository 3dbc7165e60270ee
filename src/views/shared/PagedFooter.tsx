import { Group, Pagination, Text } from '@mantine/core';

/** What screen readers call the pager's controls, in the screen's own words. */
export interface PagerLabels {
  /** The whole pager, e.g. "Guest list pages". */
  pager?: string;
  /** First, previous, next and last. */
  control: (control: 'first' | 'previous' | 'next' | 'last') => string;
  /** One numbered page, e.g. "Page 3". */
  page?: (page: number) => string;
}

/**
 * Under a paged table: how many rows there are, and the pager when there is more than one page. Every list
 * screen (subscribers, lists, members, guests) shows the same footer.
 */
export function PagedFooter({
  summary,
  page,
  pages,
  disabled,
  onPage,
  labels,
}: {
  summary: string;
  page: number;
  pages: number;
  disabled: boolean;
  onPage: (page: number) => void;
  labels: PagerLabels;
}) {
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm" c="dimmed">
        {summary}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          disabled={disabled}
          onChange={onPage}
          aria-label={labels.pager}
          getControlProps={(control) => ({ 'aria-label': labels.control(control) })}
          getItemProps={labels.page ? (item) => ({ 'aria-label': labels.page!(item) }) : undefined}
        />
      )}
    </Group>
  );
}
