import type { ActorRefFrom } from 'xstate';
import type { templateActionsMachine } from '../../machines/template-actions.machine.js';
import type { templateGalleryMachine } from '../../machines/template-gallery.machine.js';
import type { templateRestoreMachine } from '../../machines/template-restore.machine.js';
import type { templateThumbnailsMachine } from '../../machines/template-thumbnails.machine.js';

/** The starter gallery's running actor, as the templates view reads it. */
export type TemplateGalleryActor = ActorRefFrom<typeof templateGalleryMachine>;

/** The preview-and-copy actor, as the templates view reads it. */
export type TemplateActionsActor = ActorRefFrom<typeof templateActionsMachine>;

/** The list's thumbnails actor, as the templates view reads it. */
export type TemplateThumbnailsActor = ActorRefFrom<typeof templateThumbnailsMachine>;

/** The Undo offer after a delete, as the templates view reads it. */
export type TemplateRestoreActor = ActorRefFrom<typeof templateRestoreMachine>;
