import { Portal, Text, VisuallyHidden } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { supportLogMachine } from '../../machines/support-log.machine.js';
import { useFloatingParts } from '../shell/useFloatingParts.js';

/** The support menu's actor: export and send the page's event log. */
export type SupportLogActor = ActorRefFrom<typeof supportLogMachine>;

/**
 * The support items of a Mantine menu (put inside `Menu.Dropdown`): "Download event log" (`log.export`),
 * "Send to support" (`log.send`), and a line saying whether the log is being sent, was sent (with its
 * reference) or failed. The send item keeps the menu open so that line can be read.
 */
export function SupportMenuItems({ actor }: { actor: SupportLogActor }) {
  const { t } = useTranslation();
  // Rendered inside the user menu, which exists only once the floating parts have loaded.
  const floating = useFloatingParts();
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const sentId = useSelector(actor, (state) => (state.matches('sent') ? state.context.sentId : null));
  const problem = useSelector(actor, (state) => (state.matches('failed') ? state.context.problem : null));
  const message = busy
    ? { text: t('support.sending'), color: undefined }
    : sentId !== null
      ? { text: t('support.sent', { id: sentId }), color: 'teal.9' }
      : problem
        ? { text: t('support.failed', { message: problem.message }), color: 'red.9' }
        : null;
  if (!floating) return null;
  const { Menu } = floating;
  return (
    <>
      <Menu.Label>{t('support.label')}</Menu.Label>
      <Menu.Item onClick={() => actor.send({ type: 'log.export' })}>{t('support.export')}</Menu.Item>
      <Menu.Item closeMenuOnClick={false} disabled={busy} onClick={() => actor.send({ type: 'log.send' })}>
        {t('support.send')}
      </Menu.Item>
      {message && (
        <Text size="xs" px="sm" pb={4} c={message.color}>
          {message.text}
        </Text>
      )}
      {/* The announcement lives outside the menu: role="menu" may hold only items and plain text (axe). */}
      <Portal>
        <VisuallyHidden aria-live="polite">{message?.text ?? ''}</VisuallyHidden>
      </Portal>
    </>
  );
}
