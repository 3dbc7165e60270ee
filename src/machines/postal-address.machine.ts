import { PostalAddressSchema, type PostalAddress } from '../schemas/sending.js';
import { fieldErrorsOf } from './support/api-problem.js';
import { createSettingsFormMachine, settledErrors } from './support/settings-form.js';

/** The postal address form's one field. */
export interface PostalAddressFields {
  postal_address: string;
}

/** The call's body for the address as typed (trimmed by the schema). */
const addressOf = (draft: string) => ({ postal_address: draft });

/**
 * The company's postal address (`/api/accounts/postal-address/`), which every marketing email's footer shows
 * and without which nothing is sent: loaded, edited, checked with PostalAddressSchema (not blank, at most 500
 * characters) and saved by an admin. The draft and the saved address are strings ('' until set). The calls
 * `load` and `save` are the wiring's.
 */
export const postalAddressMachine = createSettingsFormMachine<
  string,
  string,
  PostalAddressFields,
  PostalAddress,
  PostalAddress,
  PostalAddress
>({
  id: 'postalAddress',
  nothingSaved: '',
  draftOf: (saved) => saved,
  loadedOf: (answer) => answer.postal_address,
  savedOf: (answer) => answer.postal_address,
  change: ({ fieldErrors }, change) => ({
    draft: change.value,
    fieldErrors: settledErrors(fieldErrors, ['postal_address', 'form']),
  }),
  errorsOf: (draft) => {
    const result = PostalAddressSchema.safeParse(addressOf(draft));
    return result.success ? {} : fieldErrorsOf(result.error);
  },
  inputOf: (draft) => PostalAddressSchema.parse(addressOf(draft)),
});
