import type { ListQuery, NoFilters } from '../../machines/kit/list-machine.js';
import { sentMailMessageMachine } from '../../machines/sent-mail-message.machine.js';
import { sentMailMachine } from '../../machines/sent-mail.machine.js';
import { SentMailPageSchema, SentMailSchema } from '../../schemas/sending.js';
import { apiRequest } from '../../services/api-client.js';
import { apiCall } from './answer.js';

const SENT_MAIL = '/campaigns/sent-mail/';

/** /sent-mail's list machine with `GET /api/campaigns/sent-mail/`. */
export const sentMailLogic = sentMailMachine.provide({
  actors: {
    loadList: apiCall((query: ListQuery<NoFilters>) =>
      apiRequest({ method: 'GET', path: SENT_MAIL, query: { ...query }, schema: SentMailPageSchema }),
    ),
  },
});

/** /sent-mail's message viewer with `GET /api/campaigns/sent-mail/{id}/`. */
export const sentMailMessageLogic = sentMailMessageMachine.provide({
  actors: {
    loadMessage: apiCall((id: number) =>
      apiRequest({ method: 'GET', path: `${SENT_MAIL}${id}/`, schema: SentMailSchema }),
    ),
  },
});
