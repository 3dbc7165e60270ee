import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnyProfile } from '../../machines/customer-profile.machine.js';
import type { EmailConsent } from '../../schemas/guests.js';

/** A badge colour per answer: green for yes, orange for an explicit no, grey for never asked. */
const CONSENT_COLOR: Record<EmailConsent, string> = {
  subscribed: 'teal',
  unsubscribed: 'orange.9',
  never_asked: 'gray',
};

/** A subscriber record's own answer under the one consent rule (docs/email-consent.md). */
export function consentOfSubscribed(subscribed: boolean): EmailConsent {
  return subscribed ? 'subscribed' : 'unsubscribed';
}

/** The profile's answer: the server's for a guest, the record's own flag for a subscriber. */
export function consentOfProfile(profile: AnyProfile): EmailConsent {
  return profile.kind === 'guest'
    ? profile.guest.email_consent
    : consentOfSubscribed(profile.subscriber.subscribed);
}

/** "Email: subscribed / unsubscribed / never asked": the one way every screen shows consent. */
export function ConsentBadge({ consent, inTable = false }: { consent: EmailConsent; inTable?: boolean }) {
  const { t } = useTranslation();
  return (
    // In a table column the label would ellipsise ("EMAIL: SUBSCRI…"), so there the badge keeps its text's width;
    // elsewhere it may shrink, so a phone's header never scrolls sideways.
    <Badge
      variant="dot"
      color={CONSENT_COLOR[consent]}
      data-consent={consent}
      miw={inTable ? 'max-content' : undefined}
    >
      {t(`emailConsent.${consent}`)}
    </Badge>
  );
}
