import { Alert, Box, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { AuthErrorCode } from '../../machines/auth.machine.js';
import { ColorSchemeToggle } from '../shell/ColorSchemeToggle.js';
import { LanguagePicker } from '../shell/LanguagePicker.js';
import type { AuthActor } from '../shell/types.js';

/** The progress message of each busy state. */
const PROGRESS: Record<string, string> = {
  loadingConfig: 'auth.loading',
  restoring: 'auth.loading',
  redirecting: 'auth.redirecting',
  exchanging: 'auth.finishing',
  storingToken: 'auth.finishing',
  checkingToken: 'auth.checking',
  verifying: 'auth.checking',
  authenticated: 'auth.checking',
  keepingStaffToken: 'auth.switching',
  endingImpersonation: 'auth.switching',
  loggingOut: 'auth.signingOut',
  clearingSession: 'auth.signingOut',
  endingProviderSession: 'auth.signingOut',
};

const FAILED_MESSAGE: Partial<Record<AuthErrorCode, string>> = {
  configUnavailable: 'auth.failed.configUnavailable',
  redirectFailed: 'auth.failed.redirectFailed',
  storageFailed: 'auth.failed.storageFailed',
  verifyFailed: 'auth.failed.verifyFailed',
};

function BrandMark() {
  return (
    <svg width="40" height="40" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)" />
      <path
        d="M10 23V9h7a4.5 4.5 0 0 1 0 9h-7m7 0 5 5"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The sign-in screens (/login, /authenticate and every page while nobody is signed in): progress while
 * the session is found or the browser is sent to the provider, "You have signed out" with Sign in, and
 * the clear errors of a failed callback ("Sign in again") or an unreachable service ("Try again").
 */
export function AuthView({ actor }: { actor: AuthActor }) {
  const { t } = useTranslation();
  const value = useSelector(actor, (state) => (typeof state.value === 'string' ? state.value : ''));
  const error = useSelector(actor, (state) => state.context.error);
  const providerError = useSelector(actor, (state) => state.context.providerError);

  let body;
  if (value === 'signedOut') {
    body = (
      <Stack gap="md" align="center" ta="center">
        <Title order={1} size="h2">
          {t('auth.signedOut.title')}
        </Title>
        <Text c="dimmed">{t('auth.signedOut.body')}</Text>
        <Button size="md" fullWidth onClick={() => actor.send({ type: 'session.signIn' })}>
          {t('auth.signedOut.signIn')}
        </Button>
      </Stack>
    );
  } else if (value === 'callbackFailed') {
    const message =
      error === 'providerRefused'
        ? t('auth.callbackFailed.providerRefused', { code: providerError ?? '' })
        : error === 'exchangeFailed'
          ? t('auth.callbackFailed.exchangeFailed')
          : t('auth.callbackFailed.stateMismatch');
    body = (
      <Stack gap="md">
        <Title order={1} size="h3" ta="center">
          {t('auth.callbackFailed.title')}
        </Title>
        <Alert color="red" role="alert">
          {message}
        </Alert>
        <Button size="md" fullWidth onClick={() => actor.send({ type: 'session.signIn' })}>
          {t('auth.callbackFailed.signInAgain')}
        </Button>
      </Stack>
    );
  } else if (value === 'failed') {
    const messageKey = (error && FAILED_MESSAGE[error]) ?? 'auth.failed.other';
    body = (
      <Stack gap="md">
        <Title order={1} size="h3" ta="center">
          {t('auth.failed.title')}
        </Title>
        <Alert color="red" role="alert">
          {t(messageKey)}
        </Alert>
        <Button size="md" fullWidth onClick={() => actor.send({ type: 'session.retry' })}>
          {t('auth.failed.retry')}
        </Button>
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md" align="center" role="status" aria-live="polite">
        <Loader />
        <Text>{t(PROGRESS[value] ?? 'auth.loading')}</Text>
      </Stack>
    );
  }

  const settled = value === 'signedOut' || value === 'callbackFailed' || value === 'failed';
  return (
    <Box mih="100vh" bg="var(--mantine-color-body)">
      <Center mih="100vh" p="md">
        <Stack w="100%" maw={420} gap="lg">
          <Stack gap={6} align="center">
            <BrandMark />
            <Text fw={700} size="xl">
              {t('brand')}
            </Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('auth.tagline')}
            </Text>
          </Stack>
          <Paper withBorder shadow="sm" radius="lg" p="xl">
            {body}
          </Paper>
          {settled && (
            <Group justify="center" gap="sm">
              <LanguagePicker actor={actor} />
              <ColorSchemeToggle />
            </Group>
          )}
        </Stack>
      </Center>
    </Box>
  );
}
