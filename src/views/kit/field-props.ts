import type { ChangeEvent } from 'react';
import type { FieldChange } from '../../machines/kit/list-machine.js';
import type { ListActor } from './list-actor.js';

/**
 * The props that bind a text input to one field of a list dialog's form; given the dialog's required
 * fields (`useRequiredFields`), also its required mark, so every kit dialog marks them the same way.
 */
export function textFieldProps<Item, Form extends object>(
  actor: ListActor<Item, Form>,
  form: Form,
  field: { [Key in keyof Form]: Form[Key] extends string ? Key : never }[keyof Form],
  required?: ReadonlySet<keyof Form>,
) {
  return {
    value: form[field] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      changeField(actor, field, event.currentTarget.value as Form[typeof field]),
    ...(required ? { required: required.has(field) } : {}),
  };
}

/** Sends a new value of one field of a list dialog's form. */
export function changeField<Item, Form extends object, Field extends keyof Form>(
  actor: ListActor<Item, Form>,
  field: Field,
  value: Form[Field],
) {
  // TypeScript cannot narrow the mapped union by a generic field; the parameters tie field and value.
  actor.send({ type: 'field.change', field, value } as FieldChange<Form>);
}
