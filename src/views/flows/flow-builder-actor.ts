import type { ActorRefFrom } from 'xstate';
import type { flowBuilderMachine } from '../../machines/flow-builder.machine.js';

/** The flow builder's running actor, as its views see it. */
export type FlowBuilderActor = ActorRefFrom<typeof flowBuilderMachine>;
