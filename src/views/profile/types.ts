import type { ActorRefFrom } from 'xstate';
import type { customerProfileMachine } from '../../machines/customer-profile.machine.js';

/** The profile screen's actor, as every profile view receives it. */
export type ProfileActor = ActorRefFrom<typeof customerProfileMachine>;
