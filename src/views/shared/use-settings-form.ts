import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ApiProblem, FieldErrors } from '../../machines/support/api-problem.js';
import {
  commandNamesOf,
  type SettingsFormCommandNames,
  type SettingsFormMachine,
  type SettingsNotice,
} from '../../machines/support/settings-form.js';

/** What a settings form's view reads and sends, typed by the form's draft, saved settings and fields. */
export interface SettingsFormView<Draft, Saved, Fields> {
  busy: boolean;
  /** The saved settings are being loaded (the form is not shown yet). */
  loading: boolean;
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
  /** The draft back to the saved settings. */
  reset: () => void;
  retry: () => void;
  dismissNotice: () => void;
}

/**
 * The one selector block of every settings form view (postal address, email provider, profile, password), sending
 * the form's own command names where its machine has them.
 */
export function useSettingsForm<Draft, Saved, Fields>(
  actor: ActorRefFrom<SettingsFormMachine>,
  commands?: Partial<SettingsFormCommandNames>,
): SettingsFormView<Draft, Saved, Fields> {
  const names = commandNamesOf(commands);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  // The machine keeps its shapes erased; the form's own machine module made them these.
  const draft = useSelector(actor, (state) => state.context.draft) as Draft;
  const saved = useSelector(actor, (state) => state.context.saved) as Saved;
  const fieldErrors = useSelector(actor, (state) => state.context.fieldErrors);
  const problem = useSelector(actor, (state) => state.context.problem);
  const notice = useSelector(actor, (state) => state.context.notice);
  return {
    busy,
    loading,
    failed,
    draft,
    saved,
    fieldErrors,
    problem,
    notice,
    change: (field, value) => actor.send({ type: 'field.change', field, value }),
    submit: () => actor.send({ type: names.submit }),
    remove: () => actor.send({ type: 'form.remove' }),
    reset: () => actor.send({ type: names.reset }),
    retry: () => actor.send({ type: names.retry }),
    dismissNotice: () => actor.send({ type: 'notice.dismiss' }),
  };
}
