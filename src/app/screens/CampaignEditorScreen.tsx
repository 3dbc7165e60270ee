import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { audienceNamesSomeone } from '../../machines/support/campaign-draft.js';
import { roleAtLeast } from '../../schemas/roles.js';
import type { CampaignEditorActor } from '../../views/campaigns/campaign-editor-actor.js';
import { CampaignEditorView } from '../../views/campaigns/CampaignEditorView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { campaignUpdateModeLogic } from '../wiring/campaigns.js';

/** The campaign a path names: a saved one's id, or null for `/campaigns/new`. */
function campaignIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * /campaigns/new and /campaigns/{id}: the campaign editor. A new campaign's path becomes its id's once the
 * first save made it (the same editor stays open); another campaign's path opens a fresh editor.
 */
export default function CampaignEditorScreen() {
  const { id } = useParams();
  const opened = useRef<{ path: string | undefined; key: number }>({ path: id, key: 0 });
  const savedId = useRef<number | null>(null);
  // A new path is another campaign, unless it is the one this editor just saved.
  if (opened.current.path !== id) {
    const same = savedId.current !== null && String(savedId.current) === id;
    opened.current = { path: id, key: same ? opened.current.key : opened.current.key + 1 };
  }
  return (
    <CampaignEditor
      key={opened.current.key}
      campaignId={campaignIdOf(id)}
      onSaved={(saved) => {
        savedId.current = saved;
      }}
    />
  );
}

/** One campaign's editor actor and its view, with the warning before leaving unsaved changes. */
function CampaignEditor({
  campaignId,
  onSaved,
}: {
  campaignId: number | null;
  onSaved: (id: number) => void;
}) {
  const auth = useAuthActor();
  const navigate = useNavigate();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone) ?? 'UTC';
  const actor: CampaignEditorActor = useAppActor(campaignUpdateModeLogic, { input: { campaignId } });
  const savedId = useSelector(actor, (state) => state.context.campaignId);
  const unsaved = useSelector(actor, (state) => {
    if (!state.matches('editing') || state.hasTag('saving')) return false;
    const { dirty, contentDirty, campaignId: id, draft } = state.context;
    // A new campaign nobody has typed into yet has nothing to lose.
    return (
      contentDirty ||
      (dirty && (id !== null || draft.name.trim() !== '' || audienceNamesSomeone(draft.audience)))
    );
  });
  // The first save of a new campaign gives it its own address.
  useEffect(() => {
    if (campaignId === null && savedId !== null) {
      onSaved(savedId);
      void navigate(`/campaigns/${savedId}`, { replace: true });
    }
  }, [campaignId, savedId, navigate, onSaved]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  // Closing or reloading the tab with unsaved changes asks the browser's own question.
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
  return (
    <CampaignEditorView
      actor={actor}
      timeZone={timeZone}
      canWrite={roleAtLeast(role, 'marketer')}
      leaveGuard={{
        blocked: blocker.state === 'blocked',
        leave: () => blocker.proceed?.(),
        stay: () => blocker.reset?.(),
      }}
      onBackToList={() => void navigate('/campaigns')}
      onOpenSettings={() => void navigate('/account')}
    />
  );
}
