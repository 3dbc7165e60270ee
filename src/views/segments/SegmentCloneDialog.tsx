import { TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { segmentCloneMachine } from '../../machines/segment-clone.machine.js';
import { FormDialogFrame } from '../kit/FormDialog.js';
import { fieldMessage } from '../shared/field-message.js';
import { problemMessage } from '../shared/problem-message.js';

/** The clone dialog's actor, as its view sees it. */
export type SegmentCloneActor = ActorRefFrom<typeof segmentCloneMachine>;

/** The segment clone dialog (spec §2): the copy's name, "… (copy)" to start. */
export function SegmentCloneDialog({ actor }: { actor: SegmentCloneActor }) {
  const { t } = useTranslation();
  const opened = useSelector(actor, (state) => !state.matches('closed'));
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const segment = useSelector(actor, (state) => state.context.segment);
  const name = useSelector(actor, (state) => state.context.name);
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const label = t('segments.dialog.cloneName');
  return (
    <FormDialogFrame
      opened={opened}
      busy={busy}
      problem={problem}
      title={t('segments.dialog.cloneTitle', { name: segment?.name ?? '' })}
      submit={t('segments.actions.clone')}
      onClose={() => actor.send({ type: 'dialog.close' })}
      onSubmit={() => actor.send({ type: 'dialog.submit' })}
      problemText={(failure) => problemMessage(t, 'segments', failure)}
    >
      <TextInput
        label={label}
        value={name}
        required
        maxLength={200}
        onChange={(event) => actor.send({ type: 'name.change', value: event.currentTarget.value })}
        error={fieldMessage(t, fieldErrors.name, label)}
        disabled={busy}
        data-autofocus
      />
    </FormDialogFrame>
  );
}
