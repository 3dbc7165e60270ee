import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useBlocker, useNavigate, useParams } from 'react-router';
import { audienceNamesSomeone } from '../../machines/support/campaign-draft.js';
import { roleAtLeast } from '../../schemas/roles.js';
import type { CampaignEditorActor } from '../../views/campaigns/campaign-editor-actor.js';
import { CampaignEditorView } from '../../views/campaigns/CampaignEditorView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { campaignUpdateModeLogic } from '../wiring/campaigns.js';
import { useWarnBeforeUnload } from '../use-warn-before-unload.js';

/** The campaign a path names: a saved one's id, or null for `/campaigns/new`. */
function campaignIdOf(param: string | undefined): number | null {
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * /campaigns/new and /campaigns/{id}: the campaign editor. A new campaign's address becomes its id's once the
 * first save made it, so a reload or a bookmark opens it again.
 */
export default function CampaignEditorScreen() {
  const { id } = useParams();
  return <CampaignEditor campaignId={campaignIdOf(id)} />;
}

/** One campaign's editor actor and its view, with the warning before leaving unsaved changes. */
function CampaignEditor({ campaignId }: { campaignId: number | null }) {
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
  // The first save of a new campaign gives it its own address. Replaced in the browser's history only: the
  // layout remounts a screen on every routed path change, which would drop the editor mid-way.
  useEffect(() => {
    if (campaignId === null && savedId !== null)
      window.history.replaceState(window.history.state, '', `/campaigns/${savedId}`);
  }, [campaignId, savedId]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname,
  );
  useWarnBeforeUnload(unsaved);
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
