import {
  Alert,
  Box,
  Button,
  Code,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatCount, formatDateTime, languageOf } from '../../format/index.js';
import type { sentMailMessageMachine } from '../../machines/sent-mail-message.machine.js';
import type { NoSentMailForm } from '../../machines/sent-mail.machine.js';
import type { SentMail, SentMailSummary } from '../../schemas/sending.js';
import type { ListActor } from '../kit/list-actor.js';
import { ListFrame } from '../kit/ListFrame.js';
import { ListTable } from '../kit/ListTable.js';
import { useListView } from '../kit/useListView.js';
import { problemMessage } from '../shared/problem-message.js';
import { EmailFrame } from '../templates/EmailFrame.js';
import { viewerDocument } from './viewer-document.js';

type SentMailActor = ListActor<SentMailSummary, NoSentMailForm>;
type MessageActor = ActorRefFrom<typeof sentMailMessageMachine>;

/**
 * /sent-mail: the messages kept in the app because no mail server is set, newest first, searched by subject;
 * a message opens with its rendered HTML (in the email frame page, inert, without scripts), its text part and its headers.
 */
export function SentMailView({
  actor,
  message,
  timeZone,
}: {
  actor: SentMailActor;
  message: MessageActor;
  timeZone: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const { listProblem, total } = useListView(actor);
  return (
    <Stack gap="lg">
      <Title order={2}>{t('sentMail.title')}</Title>
      <ListFrame
        actor={actor}
        texts={{
          intro: t('sentMail.intro'),
          search: t('sentMail.search'),
          empty: t('sentMail.empty'),
          noMatch: t('sentMail.noMatch'),
          loadFailed: t('sentMail.loadFailed'),
          problem: problemMessage(t, 'sentMail', listProblem),
          notice: null,
          summary: t('sentMail.total', { total: formatCount(total, language) }),
        }}
      >
        {(mails, browsing) => (
          <ListTable
            items={mails}
            rowKey={(mail) => mail.id}
            label={t('sentMail.title')}
            minWidth={640}
            columns={[
              {
                key: 'subject',
                header: t('sentMail.subject'),
                primary: true,
                cell: (mail) => (
                  <Text size="sm" fw={500}>
                    {mail.subject}
                  </Text>
                ),
              },
              { key: 'to', header: t('sentMail.to'), cell: (mail) => mail.to },
              {
                key: 'created',
                header: t('sentMail.kept'),
                cell: (mail) => formatDateTime(mail.created_at, language, timeZone),
              },
            ]}
            actions={(mail) => (
              <Button
                size="xs"
                variant="light"
                disabled={!browsing}
                aria-label={t('sentMail.openOf', { subject: mail.subject })}
                onClick={() => actor.send({ type: 'item.open', item: mail })}
              >
                {t('sentMail.open')}
              </Button>
            )}
          />
        )}
      </ListFrame>
      <MessageDialog actor={message} />
    </Stack>
  );
}

function MessageDialog({ actor }: { actor: MessageActor }) {
  const { t } = useTranslation();
  const open = useSelector(actor, (state) => !state.matches('closed'));
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const mail = useSelector(actor, (state) => state.context.message);
  const problem = useSelector(actor, (state) => state.context.problem);
  return (
    <Modal
      opened={open}
      onClose={() => actor.send({ type: 'message.close' })}
      title={mail?.subject ?? t('sentMail.message')}
      closeButtonProps={{ 'aria-label': t('sentMail.close') }}
      size="xl"
    >
      {loading && <Loader aria-label={t('sentMail.loading')} />}
      {problem && (
        <Alert color="red">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{problemMessage(t, 'sentMail', problem)}</Text>
            <Button size="xs" variant="light" onClick={() => actor.send({ type: 'message.retry' })}>
              {t('sentMail.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {mail && <MessageParts mail={mail} />}
    </Modal>
  );
}

function MessageParts({ mail }: { mail: SentMail }) {
  const { t } = useTranslation();
  return (
    <Tabs defaultValue={mail.html ? 'html' : 'text'} keepMounted={false}>
      <Tabs.List mb="sm">
        {mail.html && <Tabs.Tab value="html">{t('sentMail.html')}</Tabs.Tab>}
        <Tabs.Tab value="text">{t('sentMail.text')}</Tabs.Tab>
        <Tabs.Tab value="headers">{t('sentMail.headers')}</Tabs.Tab>
      </Tabs.List>
      {mail.html && (
        <Tabs.Panel value="html">
          {/* The email frame page's policy applies the message's inline styles, as a mail client would. */}
          <Box style={{ border: '1px solid var(--mantine-color-gray-4)', background: '#fff' }}>
            <EmailFrame
              html={viewerDocument(mail.html)}
              title={t('sentMail.htmlFrame', { subject: mail.subject })}
              fit
            />
          </Box>
        </Tabs.Panel>
      )}
      <Tabs.Panel value="text">
        <ScrollArea.Autosize mah="60vh">
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {mail.text}
          </Code>
        </ScrollArea.Autosize>
      </Tabs.Panel>
      <Tabs.Panel value="headers">
        <ScrollArea>
          <Table striped withTableBorder aria-label={t('sentMail.headers')}>
            <Table.Tbody>
              {mail.headers.map((header) => (
                <Table.Tr key={header.name}>
                  <Table.Th scope="row" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                    {header.name}
                  </Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{header.value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Tabs.Panel>
    </Tabs>
  );
}
