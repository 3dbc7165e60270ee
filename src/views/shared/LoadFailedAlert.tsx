import { Alert, Button, Stack, Text } from '@mantine/core';

/** A list or form that could not load: what failed, why, and a button that tries again. */
export function LoadFailedAlert({
  title,
  message,
  retryLabel,
  onRetry,
}: {
  title: string;
  message: string | null;
  retryLabel: string;
  onRetry: () => void;
}) {
  return (
    <Alert color="red" title={title}>
      <Stack gap="sm" align="flex-start">
        {message && <Text size="sm">{message}</Text>}
        <Button variant="light" onClick={onRetry}>
          {retryLabel}
        </Button>
      </Stack>
    </Alert>
  );
}
