import { ActionIcon, Affix, Transition } from '@mantine/core';
import { useWindowScroll } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { MENU_SLIDE_MS, SCROLL_TOP_OFFSET_PX } from './layout-constants.js';

/** Appears once the page is scrolled past the spec's offset; takes the page back to the top. */
export function ScrollToTopButton() {
  const { t } = useTranslation();
  const [scroll, scrollTo] = useWindowScroll();
  return (
    <Affix position={{ bottom: 20, right: 20 }}>
      <Transition transition="slide-up" duration={MENU_SLIDE_MS} mounted={scroll.y > SCROLL_TOP_OFFSET_PX}>
        {(styles) => (
          <ActionIcon
            style={styles}
            size="xl"
            radius="xl"
            aria-label={t('shell.layout.toTop')}
            onClick={() => scrollTo({ y: 0 })}
          >
            <svg
              width="20"
              height="20"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden="true"
            >
              <path d="m6 15 6-6 6 6" />
            </svg>
          </ActionIcon>
        )}
      </Transition>
    </Affix>
  );
}
