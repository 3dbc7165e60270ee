import type { ApiProblem } from '../../machines/support/api-problem.js';

/** The i18n namespaces of the subscriber screens that carry `validation` and `errors` messages. */
export type SubscriberArea = 'subscribers' | 'subscriberLists' | 'csvUpload';

/** True when the problem is told next to fields rather than above the form. */
export function hasFieldMessages(problem: ApiProblem | null): boolean {
  return problem !== null && Object.keys(problem.fields).length > 0;
}

/** A person's name as shown: first and last name, or null when neither is known. */
export function personName(person: { first_name: string; last_name: string }): string | null {
  return `${person.first_name} ${person.last_name}`.trim() || null;
}
