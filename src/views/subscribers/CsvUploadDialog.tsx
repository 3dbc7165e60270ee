import {
  Alert,
  Button,
  Code,
  FileInput,
  Group,
  Modal,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { uploadPercent, type csvUploadMachine } from '../../machines/csv-upload.machine.js';
import { LIMITS } from '../../schemas/constants.js';
import type { ImportJob } from '../../schemas/imports.js';
import { MUTED_TEXT } from '../shell/contrast.js';
import { problemMessage } from '../shared/problem-message.js';
import { formatCount, languageOf } from '../../format/index.js';

/** The upload actor of subscribers or guests. */
export type CsvUploadActor = ActorRefFrom<typeof csvUploadMachine>;

/** Row errors shown in the report; the rejected-rows download has every one. */
const ERRORS_SHOWN = 10;

/** A size in bytes as KB or MB, one decimal. */
function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The browser File of a chosen file, the only kind the file input holds. */
function fileOf(chosen: { blob?: Blob } | null): File | null {
  return typeof File !== 'undefined' && chosen?.blob instanceof File ? chosen.blob : null;
}

/**
 * The CSV upload dialog (subscribers, guests or POS checks): choose a file, watch the bytes go up and the rows being
 * imported, then read the report and download the rejected rows. Open while the machine is not closed.
 */
export function CsvUploadDialog({ actor }: { actor: CsvUploadActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => !state.matches('closed'));
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const kind = useSelector(actor, (state) => state.context.kind);

  return (
    <Modal
      opened={opened}
      onClose={() => actor.send({ type: 'dialog.close' })}
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t('csvUpload.actions.close') }}
      size="lg"
      title={t(`csvUpload.title.${kind}`)}
    >
      <UploadBody actor={actor} />
    </Modal>
  );
}

function UploadBody({ actor }: { actor: CsvUploadActor }) {
  const choosing = useSelector(actor, (state) => state.matches('choosing'));
  const uploading = useSelector(actor, (state) => state.matches('uploading'));
  const processing = useSelector(actor, (state) => state.matches('processing'));
  const reporting = useSelector(actor, (state) => state.matches('reporting'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  if (choosing) return <Choosing actor={actor} />;
  if (uploading || processing) return <Progressing actor={actor} processing={processing} />;
  if (reporting) return <Report actor={actor} />;
  if (failed) return <Failed actor={actor} />;
  return null;
}

function Choosing({ actor }: { actor: CsvUploadActor }) {
  const { t } = useTranslation();
  const kind = useSelector(actor, (state) => state.context.kind);
  const file = useSelector(actor, (state) => state.context.file);
  const fileProblem = useSelector(actor, (state) => state.context.fileProblem);
  const label = t('csvUpload.file');
  return (
    <Stack gap="md">
      <Text size="sm">{t(`csvUpload.intro.${kind}`)}</Text>
      <Text size="sm" c="dimmed">
        {t(`csvUpload.columns.${kind}`)}
      </Text>
      <FileInput
        label={label}
        placeholder={t('csvUpload.placeholder')}
        accept=".csv,text/csv"
        value={fileOf(file)}
        onChange={(chosen) =>
          chosen &&
          actor.send({
            type: 'upload.fileChosen',
            file: { file_name: chosen.name, size: chosen.size, blob: chosen },
          })
        }
        description={t('csvUpload.limit', { size: formatBytes(LIMITS.uploadMaxBytes) })}
        error={fileProblem ? t(`csvUpload.fileProblems.${fileProblem}`) : undefined}
        clearable={false}
        styles={{ placeholder: { color: MUTED_TEXT } }}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => actor.send({ type: 'dialog.close' })}>
          {t('csvUpload.actions.cancel')}
        </Button>
        <Button disabled={!file || fileProblem !== null} onClick={() => actor.send({ type: 'upload.start' })}>
          {t('csvUpload.actions.upload')}
        </Button>
      </Group>
    </Stack>
  );
}

function Progressing({ actor, processing }: { actor: CsvUploadActor; processing: boolean }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const file = useSelector(actor, (state) => state.context.file);
  const sent = useSelector(actor, (state) => state.context.sent);
  const total = useSelector(actor, (state) => state.context.total);
  const processed = useSelector(actor, (state) => state.context.job?.processed ?? 0);
  const percent = uploadPercent({ sent, total });
  const label = processing ? t('csvUpload.progress.processing') : t('csvUpload.progress.uploading');
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <Text size="sm">{file?.file_name}</Text>
      </Group>
      <Stack gap={6}>
        <Progress
          value={processing ? 100 : percent}
          striped={processing}
          animated={processing}
          size="lg"
          aria-label={label}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {processing
            ? t('csvUpload.progress.rows', { rows: formatCount(processed, language) })
            : t('csvUpload.progress.bytes', { sent: formatBytes(sent), total: formatBytes(total), percent })}
        </Text>
      </Stack>
      {processing && (
        <Text size="sm" c="dimmed">
          {t('csvUpload.progress.background')}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => actor.send({ type: 'upload.cancel' })}>
          {processing ? t('csvUpload.actions.stopWatching') : t('csvUpload.actions.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

function Figure({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xl" fw={700} c={color}>
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

function Report({ actor }: { actor: CsvUploadActor }) {
  const { t, i18n } = useTranslation();
  const language = languageOf(i18n.language);
  const job = useSelector(actor, (state): ImportJob | null => state.context.job);
  const downloading = useSelector(actor, (state) => state.matches({ reporting: 'downloading' }));
  const downloadProblem = useSelector(actor, (state) => state.context.downloadProblem);
  if (!job) return null;
  const rejected = job.invalid + job.duplicates;
  const count = (value: number) => formatCount(value, language);
  return (
    <Stack gap="md">
      <Alert
        color={rejected > 0 ? 'yellow' : 'green'}
        title={t('csvUpload.report.title')}
        // Mantine's yellow title has 2:1 contrast on its tint; the text colour reads in both schemes.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {t('csvUpload.report.summary', { read: count(job.read), file: job.file_name })}
        {job.checks && (
          <>
            {' '}
            {t('csvUpload.report.checks', {
              created: count(job.checks.created),
              unchanged: count(job.checks.unchanged),
              rejected: count(job.checks.rejected),
            })}
          </>
        )}
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
        <Figure label={t('csvUpload.report.read')} value={count(job.read)} />
        <Figure label={t('csvUpload.report.imported')} value={count(job.imported)} color="green.8" />
        <Figure label={t('csvUpload.report.updated')} value={count(job.updated)} />
        <Figure label={t('csvUpload.report.duplicates')} value={count(job.duplicates)} />
        <Figure
          label={t('csvUpload.report.invalid')}
          value={count(job.invalid)}
          color={job.invalid > 0 ? 'red.8' : undefined}
        />
      </SimpleGrid>
      {job.errors.length > 0 && (
        <Stack gap="xs">
          <Text fw={600} size="sm">
            {t('csvUpload.report.errorsTitle')}
          </Text>
          <Table.ScrollContainer minWidth={420}>
            <Table striped withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('csvUpload.report.line')}</Table.Th>
                  <Table.Th>{t('csvUpload.report.column')}</Table.Th>
                  <Table.Th>{t('csvUpload.report.problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {job.errors.slice(0, ERRORS_SHOWN).map((error) => (
                  <Table.Tr key={`${error.line}-${error.field ?? ''}`}>
                    <Table.Td>{error.line}</Table.Td>
                    <Table.Td>{error.field ? <Code>{error.field}</Code> : '—'}</Table.Td>
                    <Table.Td>{t(`csvUpload.rowErrors.${error.code}`, error.params)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {rejected > ERRORS_SHOWN && (
            <Text size="sm" c="dimmed">
              {t('csvUpload.report.more', {
                rows: count(rejected - Math.min(ERRORS_SHOWN, job.errors.length)),
              })}
            </Text>
          )}
        </Stack>
      )}
      {downloadProblem && (
        <Alert color="red" role="alert">
          {t('csvUpload.report.downloadFailed')} {problemMessage(t, 'csvUpload', downloadProblem)}
        </Alert>
      )}
      <Group justify="space-between">
        {rejected > 0 ? (
          <Button
            variant="light"
            loading={downloading}
            onClick={() => actor.send({ type: 'rejected.download' })}
          >
            {t('csvUpload.actions.downloadRejected', { rows: count(rejected) })}
          </Button>
        ) : (
          <span />
        )}
        <Group gap="sm">
          <Button variant="default" onClick={() => actor.send({ type: 'upload.again' })}>
            {t('csvUpload.actions.another')}
          </Button>
          <Button onClick={() => actor.send({ type: 'dialog.close' })}>{t('csvUpload.actions.done')}</Button>
        </Group>
      </Group>
    </Stack>
  );
}

function Failed({ actor }: { actor: CsvUploadActor }) {
  const { t } = useTranslation();
  const failure = useSelector(actor, (state) => state.context.job?.failure_code ?? null);
  const problem = useSelector(actor, (state) => state.context.problem);
  return (
    <Stack gap="md">
      <Alert color="red" title={t('csvUpload.failed.title')} role="alert">
        {failure
          ? t(`csvUpload.failures.${failure}`)
          : (problemMessage(t, 'csvUpload', problem) ?? t('csvUpload.errors.unexpected'))}
      </Alert>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => actor.send({ type: 'dialog.close' })}>
          {t('csvUpload.actions.close')}
        </Button>
        <Button onClick={() => actor.send({ type: 'upload.again' })}>
          {t('csvUpload.actions.tryAgain')}
        </Button>
      </Group>
    </Stack>
  );
}
