/**
 * The nonce the page's Content-Security-Policy allows `<style>` elements with: the server writes it into
 * `<meta property="csp-nonce">` of every answer of index.html (server/http/app-page.ts), and Mantine puts
 * it on the style elements it injects. Empty when served without one (the Vite dev server).
 */
export function styleNonce(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || '';
}

/**
 * The scroll lock of Mantine's modals (react-remove-scroll, through get-nonce) stamps its `<style>` with
 * the nonce it finds in the global `__webpack_nonce__`. (zod's eval probe is turned off earlier, by the
 * inline script in index.html, because zod reads its setting as its own module loads.)
 */
export function shareStyleNonce(): void {
  (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = styleNonce();
}
