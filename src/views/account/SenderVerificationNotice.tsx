import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { senderVerificationMachine } from '../../machines/sender-verification.machine.js';
import type { CapturedEmail } from '../../schemas/sender-verification.js';
import { problemMessage } from '../shared/problem-message.js';

/** The senders tab's verification actor. */
export type SenderVerificationActor = ActorRefFrom<typeof senderVerificationMachine>;

// Links in a captured email's text become clickable; the rest stays as written.
const LINK = /(https?:\/\/[^\s<>"]+)/g;

function TextWithLinks({ text }: { text: string }) {
  return (
    <>
      {text.split(LINK).map((part, index) =>
        index % 2 === 1 ? (
          <Anchor key={index} href={part} style={{ wordBreak: 'break-all' }}>
            {part}
          </Anchor>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

function CapturedEmailDialog({ email, onClose }: { email: CapturedEmail | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={email !== null}
      onClose={onClose}
      title={t('account.senders.emailTitle')}
      closeButtonProps={{ 'aria-label': t('kit.close') }}
      size="lg"
    >
      {email && (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('account.senders.emailHint')}
          </Text>
          <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 12px' }}>
            {(
              [
                ['account.senders.emailFrom', email.from],
                ['account.senders.emailTo', email.to],
                ['account.senders.emailSubject', email.subject],
              ] as const
            ).map(([label, value]) => (
              <Fragment key={label}>
                <Text component="dt" size="sm" fw={600}>
                  {t(label)}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ wordBreak: 'break-word' }}>
                  {value}
                </Text>
              </Fragment>
            ))}
          </dl>
          <Text
            component="div"
            size="sm"
            p="sm"
            bg="var(--mantine-color-default-hover)"
            style={{ whiteSpace: 'pre-wrap', borderRadius: 'var(--mantine-radius-sm)' }}
          >
            <TextWithLinks text={email.text} />
          </Text>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * What became of a verification email: sent, or kept in the app because no mail server is set up (then the
 * email opens in a dialog whose link the user can follow), or why it could not be sent.
 */
export function SenderVerificationNotice({ actor }: { actor: SenderVerificationActor }) {
  const { t } = useTranslation();
  const { delivery, captured, sender, problem } = useSelector(actor, (state) => state.context);
  const reading = useSelector(actor, (state) => state.matches('reading'));
  const dismiss = () => actor.send({ type: 'notice.dismiss' });
  return (
    <>
      {problem && (
        <Alert color="red" withCloseButton closeButtonLabel={t('kit.close')} onClose={dismiss}>
          {problemMessage(t, 'account', problem)}
        </Alert>
      )}
      {delivery === 'sent' && sender && (
        <Alert color="green" withCloseButton closeButtonLabel={t('kit.close')} onClose={dismiss}>
          {t('account.senders.verificationSent', { email: sender.email })}
        </Alert>
      )}
      {delivery === 'captured' && (
        <Alert color="blue" withCloseButton closeButtonLabel={t('kit.close')} onClose={dismiss}>
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('account.senders.verificationCaptured')}</Text>
            <Button size="xs" variant="light" onClick={() => actor.send({ type: 'message.open' })}>
              {t('account.senders.openEmail')}
            </Button>
          </Group>
        </Alert>
      )}
      <CapturedEmailDialog
        email={reading ? captured : null}
        onClose={() => actor.send({ type: 'message.close' })}
      />
    </>
  );
}
