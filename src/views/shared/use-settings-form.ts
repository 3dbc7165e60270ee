import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ApiProblem, FieldErrors } from '../../machines/support/api-problem.js';
import type { SettingsFormMachine, SettingsNotice } from '../../machines/support/settings-form.js';

/** What a settings form's view reads and sends, typed by the form's draft, saved settings and fields. */
export interface SettingsFormView<Draft, Saved, Fields> {
  busy: boolean;
  /** The saved settings could not be loaded (the form offers a retry). */
  failed: boolean;
  draft: Draft;
  saved: Saved;
  fieldErrors: FieldErrors;
  problem: ApiProblem | null;
  notice: SettingsNotice | null;
  change: <Field extends keyof Fields & string>(field: Field, value: Fields[Field]) => void;
  submit: () => void;
  remove: () => void;
  retry: () => void;
  dismissNotice: () => void;
}

/** The one selector block of every settings form view (postal address, email provider …). */
export function useSettingsForm<Draft, Saved, Fields>(
  actor: ActorRefFrom<SettingsFormMachine>,
): SettingsFormView<Draft, Saved, Fields> {
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  // The machine keeps its shapes erased; the form's own machine module made them these.
  const draft = useSelector(actor, (state) => state.context.draft) as Draft;
  const saved = useSelector(actor, (state) => state.context.saved) as Saved;
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const notice = useSelector(actor, (state) => state.context.notice);
  return {
    busy,
    failed,
    draft,
    saved,
    fieldErrors,
    problem,
    notice,
    change: (field, value) => actor.send({ type: 'field.change', field, value }),
    submit: () => actor.send({ type: 'form.submit' }),
    remove: () => actor.send({ type: 'form.remove' }),
    retry: () => actor.send({ type: 'load.retry' }),
    dismissNotice: () => actor.send({ type: 'notice.dismiss' }),
  };
}
