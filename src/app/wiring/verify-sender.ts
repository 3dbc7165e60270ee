import { verifySenderMachine } from '../../machines/verify-sender.machine.js';
import { EmailSenderSchema } from '../../schemas/accounts.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

/** The /verify-sender page's machine with `POST /api/campaigns/email-sender/verify/`. */
export const verifySenderLogic = verifySenderMachine.provide({
  actors: {
    verifySender: apiCall((token: string) =>
      apiRequest({
        method: 'POST',
        path: '/campaigns/email-sender/verify/',
        body: { token },
        schema: EmailSenderSchema,
      }),
    ),
  },
});
