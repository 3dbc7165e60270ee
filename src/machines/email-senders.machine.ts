import { EmailSenderInputSchema, type EmailSender, type EmailSenderInput } from '../schemas/accounts.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/** The sender dialog as typed. */
export interface SenderForm {
  name: string;
  email: string;
  reply_to: string;
  is_default: boolean;
}

/** The add dialog's starting values. */
export const NEW_SENDER_FORM: SenderForm = { name: '', email: '', reply_to: '', is_default: false };

/**
 * The addresses campaign email is sent from (`/api/campaigns/email-sender/`), on the list kit: the
 * whole list, an add and an edit dialog (name, address, reply-to, default flag) checked with
 * EmailSenderInputSchema, and a confirmed delete.
 */
export const emailSendersMachine = createListMachine<
  EmailSender,
  SenderForm,
  NoFilters,
  EmailSenderInput,
  EmailSenderInput
>({
  id: 'emailSenders',
  pageSize: null,
  searchable: false,
  filters: {},
  form: {
    empty: NEW_SENDER_FORM,
    of: (sender) => ({
      name: sender.name,
      email: sender.email,
      reply_to: sender.reply_to,
      is_default: sender.is_default,
    }),
    create: EmailSenderInputSchema,
    update: EmailSenderInputSchema,
  },
});
