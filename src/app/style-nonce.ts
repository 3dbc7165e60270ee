/**
 * The nonce the page's Content-Security-Policy allows `<style>` elements with: the server writes it into
 * `<meta property="csp-nonce">` of every answer of index.html (server/http/app-page.ts), and Mantine puts
 * it on the style elements it injects. Empty when served without one (the Vite dev server).
 */
export function styleNonce(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  return meta?.nonce || '';
}
