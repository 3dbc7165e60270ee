import { editablePhone } from '../format/phone.js';
import {
  SubscriberProfileUpdateSchema,
  type Subscriber,
  type SubscriberProfileUpdate,
} from '../schemas/subscribers.js';

/** A location a subscriber may have signed up at, as the details dialog offers it. */
export interface SourceLocation {
  id: number;
  name: string;
}

/** The text fields of the profile's details dialog. */
export type DetailsTextField = 'email' | 'first_name' | 'last_name' | 'phone' | 'zip' | 'birthday';

/** The profile's details dialog as typed: every field the add dialog takes but the POS id. */
export interface DetailsForm extends Record<DetailsTextField, string> {
  subscribed: boolean;
  /** Null for nowhere in particular (signed up on the website). */
  source_location_id: number | null;
}

/** One changed field of the details dialog. */
export type DetailsChange =
  | { field: DetailsTextField; value: string }
  | { field: 'subscribed'; value: boolean }
  | { field: 'source_location_id'; value: number | null };

/** The details dialog's starting values: the subscriber as stored, the phone in a form its rule accepts. */
export function detailsFormOf(subscriber: Subscriber): DetailsForm {
  return {
    email: subscriber.email,
    first_name: subscriber.first_name,
    last_name: subscriber.last_name,
    phone: editablePhone(subscriber.phone),
    zip: subscriber.zip,
    birthday: subscriber.birthday ?? '',
    subscribed: subscriber.subscribed,
    source_location_id: subscriber.source_location_id,
  };
}

/** The dialog checked by the update call's own schema: the body of `PUT …/{id}/profile/`, or its problems. */
export function detailsUpdateOf(form: DetailsForm) {
  return SubscriberProfileUpdateSchema.safeParse(form);
}

/** `PUT /subscriptions/subscribers/{id}/profile/`. */
export interface DetailsUpdateRequest {
  id: number;
  changes: SubscriberProfileUpdate;
}
