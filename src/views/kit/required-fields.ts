import { useMemo } from 'react';
import type { z } from 'zod';
import type { ListActor } from './list-actor.js';
import { useListDialog } from './useListView.js';

/** The value a field has when the user leaves it empty, by the kind of value it holds; null: never empty. */
function blankOf(value: unknown): unknown {
  if (typeof value === 'string') return '';
  if (Array.isArray(value)) return [];
  return null;
}

/**
 * The fields of a dialog's form that its zod schema will not take empty: the ones whose labels carry the
 * required mark. Asked of the schema itself (the form with one field emptied, checked), so what the
 * dialog marks is always what its check refuses; switches and other fields that cannot be empty are never
 * marked.
 */
export function requiredFieldsOf<Form extends object>(
  schema: z.ZodType | undefined,
  form: Form,
): ReadonlySet<keyof Form> {
  const required = new Set<keyof Form>();
  if (!schema) return required;
  for (const field of Object.keys(form) as (keyof Form & string)[]) {
    const blank = blankOf(form[field]);
    if (blank === null) continue;
    const result = schema.safeParse({ ...form, [field]: blank });
    // Only a fault of this field counts: the others may still be half typed.
    if (!result.success && result.error.issues.some((issue) => issue.path[0] === field)) {
      required.add(field);
    }
  }
  return required;
}

/**
 * The required fields of a list screen's open dialog, from the schema that checks it while adding or
 * while editing (the list machine's `create` and `update`).
 */
export function useRequiredFields<Item, Form extends object, Created = unknown>(
  actor: ListActor<Item, Form, Created>,
  schemas: { creating?: z.ZodType; editing?: z.ZodType },
): ReadonlySet<keyof Form> {
  const { dialog, form } = useListDialog(actor);
  const schema = dialog === 'editing' ? schemas.editing : schemas.creating;
  // A few checks of a small form per keystroke: cheap, and always what the schema says of the form.
  return useMemo(() => requiredFieldsOf(schema, form), [schema, form]);
}
