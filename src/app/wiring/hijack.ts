import { z } from 'zod';
import { fromPromise } from 'xstate';
import { hijackMachine } from '../../machines/hijack.machine.js';
import {
  HijackCandidateSchema,
  HijackStartedSchema,
  type HijackCandidate,
  type HijackStarted,
} from '../../schemas/accounts.js';
import { apiRequest } from '../../services/api-client.js';
import { answerOf } from './answer.js';

/** The /hijack machine with `GET /api/accounts/hijack/users/` and `POST /api/accounts/hijack/`. */
export const hijackLogic = hijackMachine.provide({
  actors: {
    searchUsers: fromPromise<HijackCandidate[], string>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'GET',
          path: '/accounts/hijack/users/',
          query: { q: input || undefined },
          schema: z.array(HijackCandidateSchema),
        }),
        signal,
      ),
    ),
    startImpersonation: fromPromise<HijackStarted, number>(({ input, signal }) =>
      answerOf(
        apiRequest({
          method: 'POST',
          path: '/accounts/hijack/',
          body: { user_id: input },
          schema: HijackStartedSchema,
        }),
        signal,
      ),
    ),
  },
});
