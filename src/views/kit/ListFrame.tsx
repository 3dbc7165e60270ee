import { Alert, Box, Button, Group, LoadingOverlay, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../shared/LoadFailedAlert.js';
import { PagedFooter } from '../shared/PagedFooter.js';
import type { ListActor } from './list-actor.js';
import { useListView } from './useListView.js';

/** The words of one list screen; the kit's own (retry, pager) come from the `kit` messages. */
export interface ListFrameTexts {
  /** Above the list: what it holds. */
  intro?: ReactNode;
  /** The add button, when the user may add. */
  add?: string;
  /** Why the list is empty (and what to do). */
  empty: string;
  /** Why it is empty while a search is typed. */
  noMatch?: string;
  loadFailed: string;
  /** The failed call in the user's language. */
  problem: string | null;
  /** The notice after a change (`created`, `updated`, …), or null for none. */
  notice: string | null;
  /** Under a paged list: how many there are in all. */
  summary?: string;
  /** The search box's label, when the list is searched. */
  search?: string;
  /** What the search box suggests typing (names, emails). */
  searchPlaceholder?: string;
}

/**
 * Everything around a list screen's table: the notice, the search box and the add button, the failed
 * alert with its retry, the loading overlay, the empty state, and the pager. The table is `children`.
 */
export function ListFrame<Item, Form extends object>({
  actor,
  texts,
  toolbar,
  children,
}: {
  actor: ListActor<Item, Form>;
  texts: ListFrameTexts;
  /** More buttons beside the add button (upload, export). */
  toolbar?: ReactNode;
  children: (items: Item[], browsing: boolean) => ReactNode;
}) {
  const { t } = useTranslation();
  const view = useListView(actor);
  const searched = view.search.trim() !== '';
  return (
    <Stack gap="md">
      {texts.intro && <Text c="dimmed">{texts.intro}</Text>}
      {texts.notice && (
        <Alert
          color={view.notice === 'exportFailed' ? 'red' : 'green'}
          withCloseButton
          closeButtonLabel={t('kit.close')}
          onClose={() => actor.send({ type: 'notice.dismiss' })}
        >
          {texts.notice}
        </Alert>
      )}
      {(texts.search || texts.add || toolbar) && (
        <Group justify="space-between" align="flex-end" wrap="wrap">
          {texts.search ? (
            <TextInput
              label={texts.search}
              placeholder={texts.searchPlaceholder}
              type="search"
              value={view.search}
              onChange={(event) => actor.send({ type: 'search.change', query: event.currentTarget.value })}
              w={{ base: '100%', sm: 320 }}
            />
          ) : (
            <span />
          )}
          <Group gap="sm">
            {toolbar}
            {texts.add && (
              <Button onClick={() => actor.send({ type: 'item.add' })} disabled={!view.browsing}>
                {texts.add}
              </Button>
            )}
          </Group>
        </Group>
      )}
      {view.failed && (
        <LoadFailedAlert
          title={texts.loadFailed}
          message={texts.problem}
          retryLabel={t('kit.retry')}
          onRetry={() => actor.send({ type: 'list.retry' })}
        />
      )}
      <Box pos="relative" mih={80} aria-busy={view.loading}>
        <LoadingOverlay visible={view.loading} />
        {view.items && view.items.length === 0 && (
          <Text c="dimmed" ta="center" py="lg">
            {searched && texts.noMatch ? texts.noMatch : texts.empty}
          </Text>
        )}
        {view.items && view.items.length > 0 && children(view.items, view.browsing)}
      </Box>
      {texts.summary && view.items && (
        <PagedFooter
          summary={texts.summary}
          page={view.page}
          pages={view.pages}
          disabled={!view.browsing}
          onPage={(page) => actor.send({ type: 'page.change', page })}
          labels={{
            control: (control) => t(`kit.pager.${control}`),
            page: (page) => t('kit.pager.page', { page }),
          }}
        />
      )}
    </Stack>
  );
}
