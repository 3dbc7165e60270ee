import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { roleAtLeast } from '../../schemas/roles.js';
import { TemplatesView } from '../../views/templates/TemplatesView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor, useNavigationActor } from '../session-context.js';
import {
  emailTemplatesLogic,
  templateActionsLogic,
  templateGalleryLogic,
  templateThumbnailsLogic,
} from '../wiring/email-templates.js';

/**
 * /templates: the company's email templates with the starter gallery for new ones; a copy made reloads the
 * list and is named in the notice.
 */
export default function TemplatesScreen() {
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const templates = useAppActor(emailTemplatesLogic);
  const gallery = useAppActor(templateGalleryLogic);
  const actions = useAppActor(templateActionsLogic);
  const thumbnails = useAppActor(templateThumbnailsLogic);
  const navigation = useNavigationActor();
  const [duplicatedName, setDuplicatedName] = useState<string | null>(null);
  useEffect(() => {
    const subscription = actions.on('template.duplicated', ({ template }) => {
      setDuplicatedName(template.name);
      templates.send({ type: 'list.refresh' });
    });
    return () => subscription.unsubscribe();
  }, [actions, templates]);
  // Any other change's notice replaces the copy's.
  const notice = useSelector(templates, (state) => state.context.notice);
  useEffect(() => {
    if (notice !== null) setDuplicatedName(null);
  }, [notice]);
  return (
    <TemplatesView
      actor={templates}
      gallery={gallery}
      actions={actions}
      canWrite={roleAtLeast(role, 'marketer')}
      duplicatedName={duplicatedName}
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
