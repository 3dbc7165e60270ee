/**
 * Stored email HTML made inert once an email frame holds it: no `<script>`, `<base>`, `<meta http-equiv>` or
 * `on…` event-handler attribute is left in the frame's document. The frame's sandbox (no scripts: no handler
 * runs, no refresh is followed) and policy (`script-src 'none'`, `base-uri 'none'`) are the wall; this keeps
 * what the email's author meant to act out of the document as well. In place, in the frame's own document: a
 * document parsed in the app (DOMParser) would take the app's policy, which refuses the email's inline styles.
 */
export function makeEmailInert(document: Document): void {
  for (const element of document.querySelectorAll('script, base, meta[http-equiv]')) element.remove();
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      if (attribute.name.toLowerCase().startsWith('on')) element.removeAttribute(attribute.name);
    }
  }
}
