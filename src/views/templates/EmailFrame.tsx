import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { EMAIL_FRAME_PATH } from '../../schemas/email-templates.js';
import { makeEmailInert } from './inert-email.js';

/** A picture of an email: its own width and height in CSS pixels, drawn at `scale`. */
interface PictureSize {
  width: number;
  height: number;
  scale: number;
}

/** The email as it reads: the frame as wide as its container and as tall as the email. */
interface FullSize {
  fit: true;
}

/**
 * An email's HTML drawn in a frame of the app's email frame page, whose own policy allows the inline styles of
 * email and no script at all (`srcdoc` would inherit the app's stricter one; docs/templates.md), sandboxed without
 * scripts, and the HTML made inert once written in (makeEmailInert). Out of reach of the pointer and the
 * keyboard, so no link in it can be followed: either a scaled picture of the email (the
 * thumbnails), or with `fit` the email at full size, the frame growing to the email's height as it and its
 * images load (the "Sent mail" viewer), so the page scrolls rather than the frame.
 */
export function EmailFrame(props: { html: string; title: string } & (PictureSize | FullSize)) {
  const { html, title } = props;
  const fit = 'fit' in props;
  const frame = useRef<HTMLIFrameElement | null>(null);
  const [contentHeight, setContentHeight] = useState<number | null>(null);
  useEffect(() => {
    const target = frame.current;
    if (!target) return;
    let measured: Document | null = null;
    let imageWatch = 0;
    // The body's own height (with its margins), not the document's, which never falls below the frame's.
    const measure = () => {
      const body = measured?.body;
      if (!body) return;
      const style = measured?.defaultView?.getComputedStyle(body);
      const margins = parseFloat(style?.marginTop ?? '0') + parseFloat(style?.marginBottom ?? '0');
      const height = Math.ceil(Math.max(body.getBoundingClientRect().height + margins, body.scrollHeight));
      if (height > 0) setContentHeight(height);
    };
    const write = () => {
      const doc = target.contentDocument;
      if (!doc) return;
      // Parsed by the frame's own document, whose policy (inline styles, no script) governs what it holds;
      // not document.open(), which would give the frame the app's address.
      doc.documentElement.innerHTML = /<html[^>]*>([\s\S]*)<\/html>/i.exec(html)?.[1] ?? html;
      makeEmailInert(doc);
      if (!fit) return;
      measured = doc;
      measure();
      // The sandbox runs no listener in the frame, so this window watches: images that arrive later make the
      // email taller (checked until every one has settled), and a narrower window wraps it taller too.
      imageWatch = window.setInterval(() => {
        measure();
        if (Array.from(doc.images).every((image) => image.complete)) window.clearInterval(imageWatch);
      }, 250);
      window.addEventListener('resize', measure);
    };
    if (
      target.contentDocument?.readyState === 'complete' &&
      target.contentDocument.URL.endsWith(EMAIL_FRAME_PATH)
    )
      write();
    else target.addEventListener('load', write, { once: true });
    return () => {
      target.removeEventListener('load', write);
      window.clearInterval(imageWatch);
      window.removeEventListener('resize', measure);
    };
  }, [html, fit]);
  const style: CSSProperties = fit
    ? { width: '100%', height: contentHeight ?? 400, border: 0, display: 'block', pointerEvents: 'none' }
    : {
        width: props.width,
        height: props.height,
        border: 0,
        transform: `scale(${props.scale})`,
        transformOrigin: '0 0',
        pointerEvents: 'none',
      };
  return (
    <iframe
      ref={frame}
      src={EMAIL_FRAME_PATH}
      title={title}
      tabIndex={-1}
      // Scripts never run in it (no allow-scripts), and it cannot navigate the app, open windows or submit forms;
      // same origin only so the app can write the email in and measure it (never with allow-scripts: that pair
      // could lift its own sandbox).
      sandbox="allow-same-origin"
      // Inert either way (no focus, no click, so no link in it is followed); a picture is also hidden as
      // decoration beside its label, while the full email keeps its name.
      inert
      {...(fit ? {} : { 'aria-hidden': true })}
      style={style}
    />
  );
}
