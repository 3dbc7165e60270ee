import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { roleAtLeast } from '../../schemas/roles.js';
import { CampaignsView } from '../../views/campaigns/CampaignsView.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import { campaignDuplicateLogic, campaignsLogic } from '../wiring/campaigns.js';

/**
 * /campaigns: the company's campaigns with their figures; "New campaign" and a row's Open go to the editor
 * (/campaigns/new, /campaigns/{id}), and a copy made reloads the list and is named in the notice.
 */
export default function CampaignsScreen() {
  const auth = useAuthActor();
  const navigate = useNavigate();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const timeZone = useSelector(auth, (state) => state.context.user?.settings.time_zone);
  const list = useAppActor(campaignsLogic);
  const duplicator = useAppActor(campaignDuplicateLogic);
  const status = useSelector(list, (state) => state.context.filters.status);
  const [copiedName, setCopiedName] = useState<string | null>(null);
  useEffect(() => {
    const opened = list.on('item.opened', ({ item }) => void navigate(`/campaigns/${item.id}`));
    const copied = duplicator.on('campaign.duplicated', ({ campaign }) => {
      setCopiedName(campaign.name);
      list.send({ type: 'list.refresh' });
    });
    return () => {
      opened.unsubscribe();
      copied.unsubscribe();
    };
  }, [list, duplicator, navigate]);
  // Any other change's notice replaces the copy's.
  const notice = useSelector(list, (state) => state.context.notice);
  useEffect(() => {
    if (notice !== null) setCopiedName(null);
  }, [notice]);
  return (
    <CampaignsView
      actor={list}
      duplicator={duplicator}
      status={status}
      canWrite={roleAtLeast(role, 'marketer')}
      copiedName={copiedName}
      timeZone={timeZone}
      onCreate={() => void navigate('/campaigns/new')}
      onOpen={(campaign) => list.send({ type: 'item.open', item: campaign })}
    />
  );
}
