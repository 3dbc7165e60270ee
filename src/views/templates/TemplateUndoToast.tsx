import { Alert, Box, Button, CloseButton, Group, Paper, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { problemMessage } from '../shared/problem-message.js';
import type { TemplateRestoreActor } from './template-actors.js';

/**
 * The few seconds after a template is deleted: a toast at the foot of the screen naming it, with Undo
 * (which makes it again) and a close button; a restore that failed shows its alert instead, naming it.
 */
export function TemplateUndoToast({ restore }: { restore: TemplateRestoreActor }) {
  const { t } = useTranslation();
  const offered = useSelector(restore, (state) => !state.matches('idle'));
  const restoring = useSelector(restore, (state) => state.matches('restoring'));
  const name = useSelector(restore, (state) => state.context.template?.name ?? '');
  const problem = useSelector(restore, (state) => state.context.problem);
  if (problem)
    return (
      <Alert
        color="red"
        withCloseButton
        closeButtonLabel={t('kit.close')}
        onClose={() => restore.send({ type: 'problem.dismiss' })}
      >
        {t('emailTemplates.undo.failed', { name })} {problemMessage(t, 'emailTemplates', problem)}
      </Alert>
    );
  if (!offered) return null;
  return (
    // Above the page's foot and clear of the phone's edges; polite, so a screen reader hears it once.
    <Box
      pos="fixed"
      bottom={16}
      left={16}
      right={16}
      style={{ zIndex: 300 }}
      role="status"
      aria-live="polite"
    >
      <Paper shadow="md" withBorder p="sm" maw={520} mx="auto" data-testid="template-undo">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {restoring ? t('emailTemplates.undo.restoring') : t('emailTemplates.undo.deleted', { name })}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Button
              size="xs"
              variant="light"
              loading={restoring}
              onClick={() => restore.send({ type: 'template.undo' })}
              aria-label={t('emailTemplates.undo.actionOf', { name })}
            >
              {t('emailTemplates.undo.action')}
            </Button>
            {!restoring && (
              <CloseButton
                size="sm"
                aria-label={t('kit.close')}
                onClick={() => restore.send({ type: 'offer.dismiss' })}
              />
            )}
          </Group>
        </Group>
      </Paper>
    </Box>
  );
}
