import { Loader } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useParams } from 'react-router';
import { TemplateEditorView } from '../../views/template-editor/TemplateEditorView.js';
import { useAppActor } from '../actors.js';
import { useNavigationActor } from '../session-context.js';
import { templateEditorLogic } from '../wiring/template-editor.js';
import { useWarnBeforeUnload } from '../use-warn-before-unload.js';

const EDITOR_PATH = '/editor-template';

/** The template id of `/editor-template/{id}`, or null for a new template. */
function templateIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** One editor: a new path (another template) makes a new one. */
function EditorPanel({ id }: { id: number | null }) {
  const navigation = useNavigationActor();
  const actor = useAppActor(templateEditorLogic, { input: { id } });
  const unsaved = useSelector(actor, (state) => state.hasTag('unsaved'));
  // In-app navigation away with changes unsaved waits for the machine's leave confirmation; the move from
  // /editor-template to the address of the template just created is not leaving.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved &&
      currentLocation.pathname !== nextLocation.pathname &&
      !(currentLocation.pathname === EDITOR_PATH && nextLocation.pathname.startsWith(`${EDITOR_PATH}/`)),
  );
  useEffect(() => {
    if (blocker.state === 'blocked') actor.send({ type: 'leave.request' });
  }, [blocker.state, actor]);
  useEffect(() => {
    const allowed = actor.on('leave.allowed', () => {
      if (blocker.state === 'blocked') blocker.proceed();
    });
    const saved = actor.on('template.saved', ({ id: savedId, created }) => {
      if (created) navigation.send({ type: 'route.navigate', path: `${EDITOR_PATH}/${savedId}` });
    });
    return () => {
      allowed.unsubscribe();
      saved.unsubscribe();
    };
  }, [actor, blocker, navigation]);
  useWarnBeforeUnload(unsaved);
  return (
    <TemplateEditorView
      actor={actor}
      onLeaveAnswer={(leave) => {
        actor.send({ type: leave ? 'leave.confirm' : 'leave.cancel' });
        if (!leave && blocker.state === 'blocked') blocker.reset();
      }}
    />
  );
}

/** True when this document was served with the editor's policy (inline styles allowed; server/http/app-page.ts). */
function hasEditorPolicy(): boolean {
  return document.documentElement.dataset.inlineStyles === 'allowed';
}

/**
 * /editor-template (a new template) and /editor-template/{id}: the GrapesJS email template editor. Entered from
 * another page of the app, the document still has the app's strict style policy, which GrapesJS cannot work
 * under: the page is loaded again from the server, which serves the editor's addresses with their own policy.
 */
export default function TemplateEditorScreen() {
  const id = templateIdOf(useParams().id);
  const { t } = useTranslation();
  const ready = hasEditorPolicy();
  useEffect(() => {
    if (!ready) window.location.reload();
  }, [ready]);
  if (!ready) return <Loader size="sm" aria-label={t('templateEditor.loading')} />;
  return <EditorPanel key={id ?? 'new'} id={id} />;
}
