import type { TFunction } from 'i18next';
import type { FieldFailure } from '../../schemas/field-problems.js';

/**
 * The message beside a field in the interface language, from the problem's code and limit (spec §5:
 * '{name} is required', '{name} is not valid', '{name} minimum length is {min}' …), named by the field's
 * translated label. Undefined when the field is fine.
 */
export function fieldMessage(
  t: TFunction,
  failure: FieldFailure | undefined,
  label: string,
): string | undefined {
  if (!failure) return undefined;
  return t(`kit.validation.${failure.code}`, { name: label, min: failure.min, max: failure.max });
}
