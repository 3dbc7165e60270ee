import type { ActorRefFrom } from 'xstate';
import type { campaignUpdateModeMachine } from '../../machines/campaign-update-mode.machine.js';

/** The campaign editor's running actor (campaign update mode), as its views read it. */
export type CampaignEditorActor = ActorRefFrom<typeof campaignUpdateModeMachine>;
