/** The i18n namespaces of the subscriber screens that carry `validation` and `errors` messages. */
export type SubscriberArea = 'subscribers' | 'subscriberLists' | 'csvUpload';

/** A person's name as shown: first and last name, or null when neither is known. */
export function personName(person: { first_name: string; last_name: string }): string | null {
  return `${person.first_name} ${person.last_name}`.trim() || null;
}
