import { Box, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { ApiProblem } from '../../machines/support/api-problem.js';
import { LIMITS } from '../../schemas/constants.js';
import { textFieldProps } from '../kit/field-props.js';
import { FormDialog } from '../kit/FormDialog.js';
import type { ListActor } from '../kit/list-actor.js';
import { useRequiredFields } from '../kit/required-fields.js';
import { useListDialog } from '../kit/useListView.js';
import { fieldMessage } from './field-message.js';

/** A list kit form that is only a name. */
interface NameForm {
  name: string;
}

/** The create (and rename) dialog of a list whose records are made from a name alone (flows, subscriber lists). */
export function NameDialog<Item>({
  actor,
  label,
  title,
  submit,
  schemas,
  problemText,
}: {
  actor: ListActor<Item, NameForm>;
  /** The name field's label. */
  label: string;
  title: { creating: string; editing: string };
  submit: { creating: string; editing: string };
  /** The zod schemas whose required fields are marked. */
  schemas: { creating: z.ZodType; editing?: z.ZodType };
  problemText: (problem: ApiProblem) => string | null;
}) {
  const { t } = useTranslation();
  const { busy, form, fieldErrors } = useListDialog(actor);
  const required = useRequiredFields(actor, schemas);
  return (
    <FormDialog actor={actor} title={title} submit={submit} problemText={problemText}>
      <Box>
        <TextInput
          label={label}
          {...textFieldProps(actor, form, 'name', required)}
          maxLength={LIMITS.nameMaxLength}
          error={fieldMessage(t, fieldErrors.name, label)}
          disabled={busy}
          data-autofocus
        />
      </Box>
    </FormDialog>
  );
}
