import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { verifySenderMachine } from '../../machines/verify-sender.machine.js';
import { problemMessage } from '../shared/problem-message.js';
import { RouteButton } from '../shell/RouteLink.js';

/** The /verify-sender page's actor. */
export type VerifySenderActor = ActorRefFrom<typeof verifySenderMachine>;

/** /verify-sender: following a verification link; shows the verified sender or why the link did not work. */
export function VerifySenderView({ actor }: { actor: VerifySenderActor }) {
  const { t } = useTranslation();
  const state = useSelector(actor, (snapshot) => snapshot);
  const { sender, problem } = state.context;
  const verified = state.matches('verified');
  const failed = state.matches('failed') || state.matches('missingToken');
  const canRetry = state.can({ type: 'verify.retry' });
  return (
    <Center p="md" mih={360}>
      <Paper withBorder p="lg" radius="md" maw={560} w="100%">
        <Stack gap="md">
          <Title order={1} size="h3">
            {verified
              ? t('account.verifySender.verifiedTitle')
              : failed
                ? t('account.verifySender.failedTitle')
                : t('pages.titles.verifySender')}
          </Title>
          {state.hasTag('busy') && (
            <Group gap="sm" role="status">
              <Loader size="sm" />
              <Text>{t('account.verifySender.verifying')}</Text>
            </Group>
          )}
          {verified && sender && (
            <Alert color="green" role="status">
              {t('account.verifySender.verified', { email: sender.email })}
            </Alert>
          )}
          {state.matches('missingToken') && (
            <Alert color="red">{t('account.verifySender.missingToken')}</Alert>
          )}
          {state.matches('failed') && <Alert color="red">{problemMessage(t, 'account', problem)}</Alert>}
          {!state.hasTag('busy') && (
            <Group justify="flex-end" gap="sm">
              {canRetry && (
                <Button variant="default" onClick={() => actor.send({ type: 'verify.retry' })}>
                  {t('kit.retry')}
                </Button>
              )}
              <RouteButton to="/account" variant={verified ? 'filled' : 'light'}>
                {t('account.verifySender.toAccount')}
              </RouteButton>
            </Group>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
