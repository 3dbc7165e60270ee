import { Stack } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, type ReactNode } from 'react';
import { onSettingsSaved } from '../../machines/support/settings-form.js';
import type { TokenResponse } from '../../schemas/accounts.js';
import { now } from '../../services/clock.js';
import { AccountView, accountTabsFor, type AccountTab } from '../../views/account/AccountView.js';
import { PasswordView } from '../../views/account/PasswordView.js';
import { ProfileView } from '../../views/account/ProfileView.js';
import { EmailProviderView } from '../../views/account/EmailProviderView.js';
import { PostalAddressView } from '../../views/account/PostalAddressView.js';
import { SendersView } from '../../views/account/SendersView.js';
import { TokensView } from '../../views/account/TokensView.js';
import { UsersView } from '../../views/account/UsersView.js';
import { roleAtLeast } from '../../schemas/roles.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import {
  accountSettingsLogic,
  companyTokensLogic,
  companyUsersLogic,
  emailProviderLogic,
  emailSendersLogic,
  senderVerificationLogic,
  passwordChangeLogic,
  postalAddressLogic,
} from '../wiring/account.js';

/** Every time zone the runtime knows, for the profile's time zone select. */
const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

/** What this screen needs of the signed-in user, read from the auth actor. */
interface AccountUser {
  id: number;
  timeZone: string;
  canManage: boolean;
}

/**
 * The signed-in user, and what the session hears from this screen: the token a password change
 * answered, and that the user's settings changed (the session fetches the user again).
 */
function useAccountSession() {
  const auth = useAuthActor();
  const user = useSelector(auth, (state) => state.context.user);
  // The server revoked every earlier token: the session stores this one and renews it from now.
  const sendTokenReplaced = useCallback(
    (tokenData: TokenResponse) => auth.send({ type: 'session.tokenReplaced', tokenData, now: now() }),
    [auth],
  );
  const sendSettingsSaved = useCallback(() => auth.send({ type: 'session.verify' }), [auth]);
  return { user, sendTokenReplaced, sendSettingsSaved };
}

function ProfilePanel({ onSaved }: { onSaved: () => void }) {
  const actor = useAppActor(accountSettingsLogic);
  useEffect(() => {
    const subscription = onSettingsSaved(actor, onSaved);
    return () => subscription.unsubscribe();
  }, [actor, onSaved]);
  return <ProfileView actor={actor} timeZones={TIME_ZONES} />;
}

function PasswordPanel({ onTokenReplaced }: { onTokenReplaced: (tokenData: TokenResponse) => void }) {
  const actor = useAppActor(passwordChangeLogic);
  // The server revoked the old token: the session must carry on with the one it answered.
  useEffect(() => {
    const subscription = onSettingsSaved<TokenResponse>(actor, onTokenReplaced);
    return () => subscription.unsubscribe();
  }, [actor, onTokenReplaced]);
  return <PasswordView actor={actor} />;
}

function UsersPanel({ user }: { user: AccountUser }) {
  const actor = useAppActor(companyUsersLogic);
  return <UsersView actor={actor} currentUserId={user.id} timeZone={user.timeZone} />;
}

function TokensPanel({ user }: { user: AccountUser }) {
  const actor = useAppActor(companyTokensLogic);
  return <TokensView actor={actor} timeZone={user.timeZone} />;
}

function EmailProviderPanel() {
  const actor = useAppActor(emailProviderLogic);
  return <EmailProviderView actor={actor} canManage />;
}

function SendersPanel({ user }: { user: AccountUser }) {
  const actor = useAppActor(emailSendersLogic);
  const verification = useAppActor(senderVerificationLogic);
  const postal = useAppActor(postalAddressLogic);
  return (
    <Stack gap="xl">
      <PostalAddressView actor={postal} canManage={user.canManage} />
      <SendersView actor={actor} verification={verification} canManage={user.canManage} />
      {/* The provider's set-up is account administration: admins and owners only, as its API is. */}
      {user.canManage && <EmailProviderPanel />}
    </Stack>
  );
}

/** /account: the tabs the signed-in user's role and company features allow, each with its own actor. */
export default function AccountScreen() {
  const { user, sendTokenReplaced, sendSettingsSaved } = useAccountSession();
  if (!user) return null;
  const tabs = accountTabsFor({
    role: user.role,
    features: user.features,
    impersonated: user.impersonator !== null,
  });
  const account: AccountUser = {
    id: user.id,
    timeZone: user.settings.time_zone,
    canManage: roleAtLeast(user.role, 'admin'),
  };
  const panels: Record<AccountTab, ReactNode> = {
    profile: <ProfilePanel onSaved={sendSettingsSaved} />,
    password: <PasswordPanel onTokenReplaced={sendTokenReplaced} />,
    users: <UsersPanel user={account} />,
    tokens: <TokensPanel user={account} />,
    senders: <SendersPanel user={account} />,
  };
  return <AccountView tabs={tabs} panels={panels} />;
}
