import { Button, Divider, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fieldMessage } from '../shared/field-message.js';
import { formatDateTime, languageOf } from '../../format/index.js';
import { LIMITS } from '../../schemas/constants.js';
import type { Note } from '../../schemas/customers.js';
import { ERROR_STYLES } from '../guests/messages.js';
import type { ProfileActor } from './types.js';

/** Notes about the person, newest first, with who wrote them and when; a new one is written above. */
export function NotesPanel({ actor, timeZone }: { actor: ProfileActor; timeZone?: string }) {
  const { t, i18n } = useTranslation();
  // A note written during an impersonation names the staff member and the user they acted as.
  const authorOf = (note: Note) => {
    const author = note.author_name ?? t('profile.notes.unknownAuthor');
    return note.written_by_staff_name
      ? t('profile.notes.byStaffFor', { staff: note.written_by_staff_name, author })
      : author;
  };
  const language = languageOf(i18n.language);
  const notes = useSelector(actor, (state) => state.context.notes);
  const draft = useSelector(actor, (state) => state.context.noteDraft);
  const errors = useSelector(actor, (state) => state.context.noteErrors);
  const idle = useSelector(actor, (state) => state.matches({ viewing: 'idle' }));
  const saving = useSelector(actor, (state) => state.matches({ viewing: 'savingNote' }));
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('profile.notes.title')}
        </Title>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            actor.send({ type: 'note.submit' });
          }}
        >
          <Stack gap="xs">
            <Textarea
              label={t('profile.notes.label')}
              placeholder={t('profile.notes.placeholder')}
              autosize
              minRows={2}
              maxRows={6}
              maxLength={LIMITS.noteMaxLength}
              value={draft}
              disabled={!idle && !saving}
              readOnly={saving}
              styles={ERROR_STYLES}
              error={fieldMessage(t, errors.body, t('profile.notes.label'))}
              onChange={(event) => actor.send({ type: 'note.change', body: event.currentTarget.value })}
            />
            <Group justify="flex-end">
              <Button type="submit" size="xs" variant="light" loading={saving} disabled={!idle && !saving}>
                {t('profile.notes.add')}
              </Button>
            </Group>
          </Stack>
        </form>
        {notes.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('profile.notes.empty')}
          </Text>
        ) : (
          <Stack gap="sm">
            {notes.map((note, index) => (
              <Stack key={note.id} gap={4}>
                {index > 0 && <Divider />}
                <Text style={{ whiteSpace: 'pre-wrap' }}>{note.body}</Text>
                <Text size="xs" c="dimmed">
                  {t('profile.notes.by', {
                    author: authorOf(note),
                    date: formatDateTime(note.created_at, language, timeZone),
                  })}
                </Text>
              </Stack>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
