import { Box, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { EMAIL_FRAME_PATH } from '../../schemas/email-templates.js';

/** The email's width, and the thumbnail's scale of it. */
const EMAIL_WIDTH = 600;
const SCALE = 0.2;
const HEIGHT = 140;

/**
 * A template's thumbnail: its preview HTML drawn at a fifth of its size in a frame of the app's email frame page
 * (whose own policy allows the inline styles of email and no script at all; `srcdoc` would inherit the app's
 * stricter one). Asks for its HTML (`onVisible`) once it scrolls into view.
 */
export function TemplateThumbnail({
  html,
  label,
  failedText,
  onVisible,
}: {
  /** The preview HTML, `failed`, or undefined while not loaded. */
  html: string | undefined;
  label: string;
  failedText: string;
  onVisible: () => void;
}) {
  const box = useRef<HTMLDivElement | null>(null);
  const frame = useRef<HTMLIFrameElement | null>(null);
  const visible = useRef(onVisible);
  visible.current = onVisible;
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        visible.current();
        observer.disconnect();
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const target = frame.current;
    if (!target || html === undefined || html === 'failed') return;
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
    <Box
      ref={box}
      w={EMAIL_WIDTH * SCALE}
      h={HEIGHT}
      style={{
        overflow: 'hidden',
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-sm)',
        background: '#fff',
        position: 'relative',
      }}
    >
      {html === 'failed' ? (
        <Text size="xs" c="dimmed" p={6}>
          {failedText}
        </Text>
      ) : html !== undefined ? (
        <iframe
          ref={frame}
          src={EMAIL_FRAME_PATH}
          title={label}
          // Kept in check by the frame page's own policy (no script, form or base; docs/templates.md) and
          // out of reach of the pointer and the keyboard.
          tabIndex={-1}
          aria-hidden="true"
          style={{
            width: EMAIL_WIDTH,
            height: HEIGHT / SCALE,
            border: 0,
            transform: `scale(${SCALE})`,
            transformOrigin: '0 0',
            pointerEvents: 'none',
          }}
        />
      ) : null}
    </Box>
  );
}
