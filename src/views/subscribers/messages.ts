import type { TFunction } from 'i18next';
import type { ApiProblem } from '../../machines/support/api-problem.js';

/** The i18n namespaces of the subscriber screens that carry `validation` and `errors` messages. */
export type SubscriberArea = 'subscribers' | 'subscriberLists' | 'csvUpload';

// The schemas and the server word field messages in English (spec section 5); each pattern maps to the
// same message in the interface language, named by the translated label of the field it is next to.
const PATTERNS: readonly { pattern: RegExp; key: string }[] = [
  { pattern: /\bis required$/, key: 'required' },
  { pattern: /\bis not valid$/, key: 'notValid' },
  { pattern: /\balready exists$/, key: 'exists' },
  { pattern: /\bmust be at most \d+ characters$/, key: 'tooLong' },
];

/** The message next to a field in the interface language, or undefined when the field is fine. */
export function fieldMessage(
  t: TFunction,
  area: Exclude<SubscriberArea, 'csvUpload'>,
  message: string | undefined,
  label: string,
): string | undefined {
  if (!message) return undefined;
  const known = PATTERNS.find(({ pattern }) => pattern.test(message));
  return known ? t(`${area}.validation.${known.key}`, { name: label }) : message;
}

/** True when the problem is told next to fields rather than above the form. */
export function hasFieldMessages(problem: ApiProblem | null): boolean {
  return problem !== null && Object.keys(problem.fields).length > 0;
}

/** A person's name as shown: first and last name, or null when neither is known. */
export function personName(person: { first_name: string; last_name: string }): string | null {
  return `${person.first_name} ${person.last_name}`.trim() || null;
}
