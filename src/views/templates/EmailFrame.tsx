import { useEffect, useRef } from 'react';
import { EMAIL_FRAME_PATH } from '../../schemas/email-templates.js';

/**
 * An email's HTML drawn, scaled, in a frame of the app's email frame page, whose own policy allows the inline
 * styles of email and no script at all (`srcdoc` would inherit the app's stricter one; docs/templates.md). Out of
 * reach of the pointer and the keyboard: a picture of the email, not a page to use.
 */
export function EmailFrame({
  html,
  title,
  width,
  height,
  scale,
}: {
  html: string;
  title: string;
  /** The email's own width and height in CSS pixels, before scaling. */
  width: number;
  height: number;
  scale: number;
}) {
  const frame = useRef<HTMLIFrameElement | null>(null);
  useEffect(() => {
    const target = frame.current;
    if (!target) return;
    const write = () => {
      const doc = target.contentDocument;
      if (!doc) return;
      // Parsed by the frame's own document, whose policy (inline styles, no script) governs what it holds;
      // not document.open(), which would give the frame the app's address.
      doc.documentElement.innerHTML = /<html[^>]*>([\s\S]*)<\/html>/i.exec(html)?.[1] ?? html;
    };
    if (
      target.contentDocument?.readyState === 'complete' &&
      target.contentDocument.URL.endsWith(EMAIL_FRAME_PATH)
    )
      write();
    else target.addEventListener('load', write, { once: true });
    return () => target.removeEventListener('load', write);
  }, [html]);
  return (
    <iframe
      ref={frame}
      src={EMAIL_FRAME_PATH}
      title={title}
      tabIndex={-1}
      aria-hidden="true"
      style={{
        width,
        height,
        border: 0,
        transform: `scale(${scale})`,
        transformOrigin: '0 0',
        pointerEvents: 'none',
      }}
    />
  );
}
