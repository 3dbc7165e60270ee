import type { ActorRefFrom } from 'xstate';
import type { authMachine } from '../../machines/auth.machine.js';
import type { navigationMachine } from '../../machines/navigation.machine.js';

/** The session actor views read the user from and send sign-in, language and impersonation events to. */
export type AuthActor = ActorRefFrom<typeof authMachine>;

/** The navigation actor views send `route.navigate` to. */
export type NavigationActor = ActorRefFrom<typeof navigationMachine>;
