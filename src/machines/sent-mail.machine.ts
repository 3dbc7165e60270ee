import { LIMITS } from '../schemas/constants.js';
import type { SentMailSummary } from '../schemas/sending.js';
import { createListMachine, type NoFilters } from './kit/list-machine.js';

/** The sent-mail list has no dialog: nothing to type. */
export type NoSentMailForm = Record<never, never>;

/**
 * The "Sent mail" list (`/api/campaigns/sent-mail/`), on the list kit: the messages the installation kept
 * because no mail server is set, newest first, paged, searched by subject once typing pauses; `item.open`
 * announces the message the screen shows (its HTML, text and headers). Nothing is added, edited or deleted.
 */
export const sentMailMachine = createListMachine<SentMailSummary, NoSentMailForm, NoFilters, never, never>({
  id: 'sentMail',
  pageSize: LIMITS.defaultPageSize,
  searchable: true,
  filters: {},
  deletable: false,
  openable: true,
});
