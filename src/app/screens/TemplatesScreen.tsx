import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { roleAtLeast } from '../../schemas/roles.js';
import { TemplatesView } from '../../views/templates/TemplatesView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import {
  deletedTemplateOf,
  emailTemplatesLogic,
  templateActionsLogic,
  templateGalleryLogic,
  templateRestoreLogic,
  templateThumbnailsLogic,
} from '../wiring/email-templates.js';

/**
 * /templates: the company's email templates with the starter gallery for new ones; a copy made reloads the
 * list and is named in the notice; a delete offers Undo, and a template brought back reloads the list too.
 */
export default function TemplatesScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const templates = useAppActor(emailTemplatesLogic);
  const gallery = useAppActor(templateGalleryLogic);
  const actions = useAppActor(templateActionsLogic);
  const thumbnails = useAppActor(templateThumbnailsLogic);
  const restore = useAppActor(templateRestoreLogic);
  const navigation = useNavigationActor();
  const [duplicatedName, setDuplicatedName] = useState<string | null>(null);
  const [restoredName, setRestoredName] = useState<string | null>(null);
  useEffect(() => {
    const deleted = templates.on('item.deleted', ({ answer }) => {
      const template = deletedTemplateOf(answer);
      if (template) restore.send({ type: 'template.deleted', template });
    });
    const restored = restore.on('template.restored', ({ template }) => {
      setDuplicatedName(null);
      setRestoredName(template.name);
      templates.send({ type: 'list.refresh' });
    });
    return () => {
      deleted.unsubscribe();
      restored.unsubscribe();
    };
  }, [restore, templates]);
  useEffect(() => {
    const subscription = actions.on('template.duplicated', ({ template }) => {
      setRestoredName(null);
      setDuplicatedName(template.name);
      templates.send({ type: 'list.refresh' });
    });
    return () => subscription.unsubscribe();
  }, [actions, templates]);
  // Any other change's notice replaces the copy's.
  const notice = useSelector(templates, (state) => state.context.notice);
  useEffect(() => {
    if (notice === null) return;
    setDuplicatedName(null);
    setRestoredName(null);
  }, [notice]);
  return (
    <TemplatesView
      actor={templates}
      gallery={gallery}
      actions={actions}
      restore={restore}
      canWrite={roleAtLeast(role, 'marketer')}
      duplicatedName={duplicatedName}
      restoredName={restoredName}
      timeZone={timeZone}
      thumbnails={thumbnails}
      onOpen={(id) =>
        navigation.send({
          type: 'route.navigate',
          path: id === null ? '/editor-template' : `/editor-template/${id}`,
        })
      }
    />
  );
}
