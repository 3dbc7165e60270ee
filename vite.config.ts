import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { globalThisForFunctionGlobal } from './scripts/vite-global-this-plugin.js';
import { messagesByPart } from './scripts/vite-messages-plugin.js';

export default defineConfig({
  plugins: [react(), messagesByPart(), globalThisForFunctionGlobal()],
  // The server puts each response's style nonce here (server/http/app-page.ts); Mantine's <style> elements use it.
  html: { cspNonce: 'CSP_NONCE_PLACEHOLDER' },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    // scripts/client-size.ts reads it to measure what each page downloads before it shows.
    manifest: true,
    // Big screens (the statechart visualiser, the email editor: GrapesJS with mjml-browser, 2.3 MB) are lazy; the
    // first load has its own budget.
    chunkSizeWarningLimit: 2560,
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/oidc': 'http://localhost:3000' } },
});
