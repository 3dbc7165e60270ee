import { Box, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { EmailFrame } from './EmailFrame.js';

/** The email's width, and the thumbnail's scale of it. */
const EMAIL_WIDTH = 600;
const SCALE = 0.2;
const HEIGHT = 140;

/**
 * A template's thumbnail: its preview HTML drawn at a fifth of its size in an `EmailFrame`. Asks for its HTML
 * (`onVisible`) once it scrolls into view.
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
        <EmailFrame html={html} title={label} width={EMAIL_WIDTH} height={HEIGHT / SCALE} scale={SCALE} />
      ) : null}
    </Box>
  );
}
