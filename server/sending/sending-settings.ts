import { DEFAULT_SEND_RUNNER_SETTINGS, type SendRunnerSettings } from '../jobs/send-runner.js';
import type { RunTransportSettings } from './run-transport.js';

/** How run messages are sent: the transport and the runner's settings. */
export interface SendingSettings {
  /** The installation's host: Message-IDs end with it. */
  domain: string;
  transport: RunTransportSettings;
  runner: SendRunnerSettings;
}

/** The configuration values sending reads (server/config.ts). */
export interface SendingConfig {
  /** The installation's public URL (PUBLIC_URL or the default). */
  publicUrl: string;
  smtpUrl?: string | undefined;
  /** MAIL_UNSUBSCRIBE_URL: where unsubscribe links point when not the public URL. */
  unsubscribeUrl?: string | undefined;
  /** MAIL_UNSUBSCRIBE_MAILBOX: the mailto List-Unsubscribe address. */
  unsubscribeMailbox?: string | undefined;
  /** MAIL_RATE_PER_SECOND. */
  ratePerSecond?: number | undefined;
  dkimDomain?: string | undefined;
  dkimSelector?: string | undefined;
  dkimPrivateKey?: string | undefined;
}

/** The installation's host name: Message-IDs and the default unsubscribe mailbox use it. */
export function installationDomain(publicUrl: string): string {
  return new URL(publicUrl).hostname;
}

/** Sending settings from the configuration; DKIM only when domain, selector and key are all set. */
export function sendingSettingsFrom(
  config: SendingConfig,
  overrides: Partial<SendRunnerSettings> = {},
): SendingSettings {
  const base = (config.unsubscribeUrl ?? config.publicUrl).replace(/\/+$/, '');
  const dkim =
    config.dkimDomain && config.dkimSelector && config.dkimPrivateKey
      ? {
          domainName: config.dkimDomain,
          keySelector: config.dkimSelector,
          // Environment variables often carry a PEM on one line with \n written out.
          privateKey: config.dkimPrivateKey.replace(/\\n/g, '\n'),
        }
      : undefined;
  return {
    domain: installationDomain(config.publicUrl),
    transport: { smtpUrl: config.smtpUrl, dkim },
    runner: {
      ...DEFAULT_SEND_RUNNER_SETTINGS,
      ...(config.ratePerSecond ? { ratePerSecond: config.ratePerSecond } : {}),
      unsubscribeBaseUrl: base,
      unsubscribeMailbox: config.unsubscribeMailbox ?? `unsubscribe@${installationDomain(config.publicUrl)}`,
      ...overrides,
    },
  };
}
