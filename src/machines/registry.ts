import type { AnyStateMachine } from 'xstate';
import { accountSettingsMachine } from './account-settings.machine.js';
import { authMachine } from './auth.machine.js';
import { campaignDuplicateMachine } from './campaign-duplicate.machine.js';
import { campaignUpdateModeMachine } from './campaign-update-mode.machine.js';
import { campaignsMachine } from './campaigns.machine.js';
import { flowActionsMachine } from './flow-actions.machine.js';
import { flowBuilderMachine } from './flow-builder.machine.js';
import { flowsMachine } from './flows.machine.js';
import { companyTokensMachine } from './company-tokens.machine.js';
import { companyUsersMachine } from './company-users.machine.js';
import { csvUploadMachine } from './csv-upload.machine.js';
import { customerJourneyDashboardMachine } from './customer-journey-dashboard.machine.js';
import { customerProfileMachine } from './customer-profile.machine.js';
import { demoStatusMachine } from './demo-status.machine.js';
import { demographicsDashboardMachine } from './demographics-dashboard.machine.js';
import { emailSendersMachine } from './email-senders.machine.js';
import { emailTemplatesMachine } from './email-templates.machine.js';
import { filePagingMachine } from './file-paging.machine.js';
import { guestAnalyticsDashboardMachine } from './guest-analytics-dashboard.machine.js';
import { guestListMachine } from './guest-list.machine.js';
import { guestsToInviteMachine } from './guests-to-invite.machine.js';
import { emailProviderMachine } from './email-provider.machine.js';
import { hijackMachine } from './hijack.machine.js';
import { listMembersMachine } from './list-members.machine.js';
import { locationGroupCreateMachine } from './location-group-create.machine.js';
import { locationGroupsMachine } from './location-groups.machine.js';
import { locationSelectionMachine } from './location-selection.machine.js';
import { locationsAdminMachine } from './locations-admin.machine.js';
import { memberCandidatesMachine } from './member-candidates.machine.js';
import { navigationMachine } from './navigation.machine.js';
import { passwordChangeMachine } from './password-change.machine.js';
import { postalAddressMachine } from './postal-address.machine.js';
import { segmentDashboardMachine } from './segment-dashboard.machine.js';
import { rfmDashboardMachine } from './rfm-dashboard.machine.js';
import { summaryDashboardMachine } from './summary-dashboard.machine.js';
import { overviewDashboardMachine } from './overview-dashboard.machine.js';
import { homeDashboardMachine } from './home-dashboard.machine.js';
import { recommendationFollowMachine } from './recommendation-follow.machine.js';
import { basketAnalyticsMachine } from './basket-analytics.machine.js';
import { basketSegmentMachine } from './basket-segment.machine.js';
import { consumerInsightsMachine } from './consumer-insights.machine.js';
import { segmentBuilderMachine } from './segment-builder.machine.js';
import { segmentCloneMachine } from './segment-clone.machine.js';
import { segmentExportMachine } from './segment-export.machine.js';
import { segmentExportsMachine } from './segment-exports.machine.js';
import { segmentsMachine } from './segments.machine.js';
import { senderVerificationMachine } from './sender-verification.machine.js';
import { sentMailMachine } from './sent-mail.machine.js';
import { sentMailMessageMachine } from './sent-mail-message.machine.js';
import { subscriberListsMachine } from './subscriber-lists.machine.js';
import { subscribersListMachine } from './subscribers-list.machine.js';
import { templateActionsMachine } from './template-actions.machine.js';
import { templateEditorMachine } from './template-editor.machine.js';
import { templateThumbnailsMachine } from './template-thumbnails.machine.js';
import { templateGalleryMachine } from './template-gallery.machine.js';
import { templateRestoreMachine } from './template-restore.machine.js';
import { supportLogMachine } from './support-log.machine.js';
import { supportMachinesMachine } from './support-machines.machine.js';
import { supportReplayMachine } from './support-replay.machine.js';
import { tokenExpiryMachine } from './token-expiry.machine.js';
import { verifySenderMachine } from './verify-sender.machine.js';

// Replay and the visualisers find a logged actor's machine here by the id the event log recorded.

/** Every machine of the app, unprovided (its placeholders in place), in the order they are listed. */
export const MACHINE_LIST: readonly AnyStateMachine[] = [
  accountSettingsMachine,
  authMachine,
  campaignDuplicateMachine,
  campaignUpdateModeMachine,
  campaignsMachine,
  flowActionsMachine,
  flowBuilderMachine,
  flowsMachine,
  companyTokensMachine,
  companyUsersMachine,
  csvUploadMachine,
  customerJourneyDashboardMachine,
  customerProfileMachine,
  demoStatusMachine,
  demographicsDashboardMachine,
  emailSendersMachine,
  emailTemplatesMachine,
  filePagingMachine,
  guestAnalyticsDashboardMachine,
  guestListMachine,
  guestsToInviteMachine,
  hijackMachine,
  emailProviderMachine,
  listMembersMachine,
  locationGroupCreateMachine,
  locationGroupsMachine,
  locationSelectionMachine,
  locationsAdminMachine,
  memberCandidatesMachine,
  navigationMachine,
  passwordChangeMachine,
  postalAddressMachine,
  segmentDashboardMachine,
  rfmDashboardMachine,
  summaryDashboardMachine,
  overviewDashboardMachine,
  homeDashboardMachine,
  recommendationFollowMachine,
  basketAnalyticsMachine,
  basketSegmentMachine,
  consumerInsightsMachine,
  segmentBuilderMachine,
  segmentCloneMachine,
  segmentExportMachine,
  segmentExportsMachine,
  segmentsMachine,
  senderVerificationMachine,
  sentMailMachine,
  sentMailMessageMachine,
  subscriberListsMachine,
  subscribersListMachine,
  supportLogMachine,
  supportMachinesMachine,
  supportReplayMachine,
  templateActionsMachine,
  templateEditorMachine,
  templateGalleryMachine,
  templateRestoreMachine,
  templateThumbnailsMachine,
  tokenExpiryMachine,
  verifySenderMachine,
];

/** Every machine of the app by its id (`auth`, `navigation`, …), as the event log names it. */
export const MACHINES: Readonly<Record<string, AnyStateMachine>> = Object.fromEntries(
  MACHINE_LIST.map((machine) => [machine.id, machine]),
);
