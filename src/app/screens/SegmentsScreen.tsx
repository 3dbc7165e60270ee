import { Button } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { apiGroupsOf } from '../../machines/support/segment-draft.js';
import { roleAtLeast } from '../../schemas/roles.js';
import type { Segment } from '../../schemas/segment-records.js';
import { readText, removeKey, STORAGE_KEYS, writeText } from '../../services/storage.js';
import { RuleBuilder } from '../../views/segments/RuleBuilder.js';
import { SegmentCloneDialog } from '../../views/segments/SegmentCloneDialog.js';
import { SegmentDialog } from '../../views/segments/SegmentDialog.js';
import { SegmentsView, type SegmentsActor } from '../../views/segments/SegmentsView.js';
import { problemMessage } from '../../views/shared/problem-message.js';
import { BackgroundExportButton } from '../../views/segment-exports/BackgroundExportButton.js';
import { SegmentExportsDrawer } from '../../views/segment-exports/SegmentExportsDrawer.js';
import { BREAKPOINTS_PX } from '../../views/shell/layout-constants.js';
import { useAppActor } from '../actors.js';
import { useAuthActor } from '../session-context.js';
import {
  segmentBuilderLogic,
  segmentCloneLogic,
  segmentExportLogic,
  segmentsLogic,
} from '../wiring/segments.js';
import { segmentExportsLogic } from '../wiring/segment-exports.js';
import { useLocationFilter } from '../location-filter.js';

// The dashboard (charts) downloads only when a segment is selected.
const SegmentDashboardPanel = lazy(() => import('./SegmentDashboardPanel.js'));

/** The selected segment: `?segment=<id>`, kept in session storage too (logout clears it). */
function useSelectedSegment(): [number | null, (id: number | null) => void] {
  const [params, setParams] = useSearchParams();
  const fromUrl = Number(params.get('segment'));
  const selected = Number.isSafeInteger(fromUrl) && fromUrl > 0 ? fromUrl : null;
  const select = (id: number | null) => {
    if (id === null) removeKey('session', STORAGE_KEYS.segmentId);
    else writeText('session', STORAGE_KEYS.segmentId, String(id));
    setParams(id === null ? {} : { segment: String(id) });
  };
  // Back on /segments without one in the URL: the segment selected earlier in this session.
  useEffect(() => {
    const stored = Number(readText('session', STORAGE_KEYS.segmentId));
    if (selected === null && Number.isSafeInteger(stored) && stored > 0)
      setParams({ segment: String(stored) }, { replace: true });
    // Once, on arrival.
  }, []);
  return [selected, select];
}

/**
 * /segments (Guest - Segments): the segments list with its add, update, clone, export and delete; the rule
 * builder inside the add and update dialog, with its own actor for as long as the dialog is open; and the
 * selected segment's dashboard above the list.
 */
export default function SegmentsScreen() {
  const { t } = useTranslation();
  const auth = useAuthActor();
  const role = useSelector(auth, (state) => state.context.user?.role);
  const list = useAppActor(segmentsLogic);
  const clone = useAppActor(segmentCloneLogic);
  const exporter = useAppActor(segmentExportLogic);
  const [selected, select] = useSelectedSegment();
  const [cloned, setCloned] = useState(false);
  const exports = useAppActor(segmentExportsLogic);
  // The ready mail links to /segments?exports=1: the drawer opens on arrival.
  const [params] = useSearchParams();
  const [exportsOpen, setExportsOpen] = useState(() => params.get('exports') === '1');
  const phone = useMediaQuery(`(max-width: ${BREAKPOINTS_PX.sm - 0.02}px)`) ?? false;
  const backgroundProblem = useSelector(exports, (state) => state.context.noticeProblem);
  const backgroundNotice = useSelector(exports, (state) =>
    state.context.notice === 'started' || state.context.notice === 'startFailed'
      ? state.context.notice
      : null,
  );
  const exportNotice = useSelector(exporter, (state) => state.context.notice);
  const exporting = useSelector(exporter, (state) =>
    state.matches('exporting') ? (state.context.segment?.id ?? null) : null,
  );
  const dialog = useSelector(list, (state) =>
    state.matches('creating') || state.matches('editing')
      ? `${state.matches('creating') ? 'new' : 'edit'}:${state.context.selected?.id ?? ''}`
      : null,
  );

  useEffect(() => {
    const opened = list.on('item.opened', ({ item }) => select(item.id));
    const copied = clone.on('segment.cloned', () => {
      setCloned(true);
      list.send({ type: 'list.refresh' });
    });
    return () => {
      opened.unsubscribe();
      copied.unsubscribe();
    };
    // select changes with the URL; the subscription only needs the latest.
  }, [list, clone]);

  const notice = backgroundNotice
    ? {
        text: [
          t(`segmentExports.${backgroundNotice}`),
          problemMessage(t, 'segmentExports', backgroundProblem),
        ]
          .filter(Boolean)
          .join(' '),
        failed: backgroundNotice === 'startFailed',
        onClose: () => exports.send({ type: 'notice.dismiss' }),
      }
    : cloned
      ? { text: t('segments.notices.cloned'), failed: false, onClose: () => setCloned(false) }
      : exportNotice
        ? {
            text: t(`segments.notices.${exportNotice}`),
            failed: exportNotice === 'exportFailed',
            onClose: () => exporter.send({ type: 'notice.dismiss' }),
          }
        : null;
  // Deletes need an admin, writes a marketer (the server refuses the others, so the buttons are hidden).
  return (
    <>
      {selected !== null && (
        <Suspense fallback={null}>
          <SegmentDashboardPanel
            key={selected}
            segmentId={selected}
            onClose={() => select(null)}
            background={
              <BackgroundExportButton actor={exports} segmentId={selected} name={null} variant="light" />
            }
          />
        </Suspense>
      )}
      <SegmentsView
        actor={list}
        canWrite={roleAtLeast(role, 'marketer')}
        canDelete={roleAtLeast(role, 'admin')}
        rows={{
          clone: (segment: Segment) => {
            setCloned(false);
            clone.send({
              type: 'clone.open',
              segment,
              name: t('segments.dialog.copyName', { name: segment.name }),
            });
          },
          export: (segment: Segment) => {
            // The export's notice replaces the clone's.
            setCloned(false);
            exporter.send({ type: 'export.start', segment });
          },
          exporting,
          background: (segment: Segment) => (
            <BackgroundExportButton
              actor={exports}
              segmentId={segment.id}
              name={segment.name}
              size="xs"
              variant="subtle"
            />
          ),
        }}
        notice={notice}
        headerActions={
          <Button
            variant="default"
            onClick={() => {
              exports.send({ type: 'exports.refresh' });
              setExportsOpen(true);
            }}
            title={t('segmentExports.openHint')}
          >
            {t('segmentExports.open')}
          </Button>
        }
        dialogs={
          <>
            {dialog && <OpenSegmentDialog key={dialog} list={list} />}
            <SegmentCloneDialog actor={clone} />
            <SegmentExportsDrawer
              actor={exports}
              opened={exportsOpen}
              onClose={() => setExportsOpen(false)}
              fullScreen={phone}
            />
          </>
        }
      />
    </>
  );
}

/**
 * The add or update dialog while it is open, with a rule builder of its own started from the form's rules:
 * each edit of the builder goes to the form, a save's rule problems back to the builder, and the header's
 * picker to its count.
 */
function OpenSegmentDialog({ list }: { list: SegmentsActor }) {
  const [start] = useState(() => list.getSnapshot().context.form.segment_groups);
  const { filter, key } = useLocationFilter();
  const builder = useAppActor(segmentBuilderLogic, { input: { groups: start, picker: filter } });
  const choices = useSelector(builder, (state) => state.context.choices);
  const phone = useMediaQuery(`(max-width: ${BREAKPOINTS_PX.sm - 0.02}px)`) ?? false;
  const groups = useSelector(builder, (state) => state.context.groups);
  const saveErrors = useSelector(list, (state) => state.context.fieldErrors);

  useEffect(() => {
    list.send({ type: 'field.change', field: 'segment_groups', value: apiGroupsOf(groups) });
  }, [list, groups]);
  useEffect(() => {
    const fields = Object.fromEntries(
      Object.entries(saveErrors).filter(([path]) => path.startsWith('segment_groups')),
    );
    if (Object.keys(fields).length > 0) builder.send({ type: 'errors.show', fields });
  }, [builder, saveErrors]);
  // Another pick in the header: count again (the first pick is the builder's input).
  const lastKey = useRef(key);
  useEffect(() => {
    if (key !== lastKey.current) builder.send({ type: 'picker.change', picker: filter });
    lastKey.current = key;
    // The key changes exactly when the filter does.
  }, [builder, key]);
  return (
    <SegmentDialog
      actor={list}
      builder={<RuleBuilder actor={builder} />}
      choices={choices}
      fullScreen={phone}
    />
  );
}
