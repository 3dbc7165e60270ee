import { Button, type ButtonProps } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { SegmentExportsActor } from './SegmentExportsDrawer.js';

/**
 * "Export in the background" for one segment, beside the direct export: sends `export.start`; busy while that
 * segment's export is being asked for, disabled while another one is.
 */
export function BackgroundExportButton({
  actor,
  segmentId,
  name,
  ...button
}: {
  actor: SegmentExportsActor;
  segmentId: number;
  /** The segment's name, for the button's accessible name; none while unknown. */
  name: string | null;
} & Pick<ButtonProps, 'size' | 'variant' | 'disabled'>) {
  const { t } = useTranslation();
  const starting = useSelector(actor, (state) => state.context.startingSegment);
  return (
    <Button
      {...button}
      disabled={button.disabled === true || (starting !== null && starting !== segmentId)}
      loading={starting === segmentId}
      onClick={() => actor.send({ type: 'export.start', segmentId })}
      aria-label={name === null ? undefined : t('segmentExports.startOf', { name })}
    >
      {t('segmentExports.start')}
    </Button>
  );
}
