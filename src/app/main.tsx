import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '../i18n/index.js';
import { HTML_LANG } from '../schemas/constants.js';
import { applyServerBrand } from '../services/brand.js';
import { storedLanguage } from '../services/language.js';
import { handOverSilentCallback, isSilentCallbackFrame } from '../services/oidc.js';
import { App } from './App.js';
import { shareStyleNonce } from './content-security.js';
import { startSession } from './wiring/session.js';

/** The browser entry: hands a silent-renewal callback to the opener, or starts i18n, the session and the app. */
async function start(): Promise<void> {
  shareStyleNonce();
  // Inside the hidden renewal iframe, /authenticate only passes code and state to the app that opened it.
  if (isSilentCallbackFrame()) {
    handOverSilentCallback();
    return;
  }
  const language = storedLanguage();
  await initI18n(language);
  document.documentElement.lang = HTML_LANG[language];
  // The brand arrives while the app renders; titles and texts follow once it does.
  void applyServerBrand();
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  const session = startSession(language);
  createRoot(root).render(
    <StrictMode>
      <App session={session} />
    </StrictMode>,
  );
}

void start();
