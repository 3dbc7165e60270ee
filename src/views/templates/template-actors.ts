import type { ActorRefFrom } from 'xstate';
import type { templateActionsMachine } from '../../machines/template-actions.machine.js';
import type { templateGalleryMachine } from '../../machines/template-gallery.machine.js';

/** The starter gallery's running actor, as the templates view reads it. */
export type TemplateGalleryActor = ActorRefFrom<typeof templateGalleryMachine>;

/** The preview-and-copy actor, as the templates view reads it. */
export type TemplateActionsActor = ActorRefFrom<typeof templateActionsMachine>;
