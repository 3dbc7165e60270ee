import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '../i18n/index.js';
import { HomeView } from '../views/home/HomeView.js';

/** The browser entry: starts i18n, then renders the app. */
async function start(): Promise<void> {
  await initI18n();
  const root = document.getElementById('root');
  if (!root) throw new Error('The page has no #root element');
  createRoot(root).render(
    <StrictMode>
      <HomeView />
    </StrictMode>,
  );
}

void start();
