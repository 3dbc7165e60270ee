import 'grapesjs/dist/css/grapes.min.css';
import { Paper, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import GjsEditor, { BlocksProvider, Canvas, TraitsProvider } from '@grapesjs/react';
import grapesjs, { type Editor } from 'grapesjs';
import grapesjsMjmlModule from 'grapesjs-mjml';
import { useEffect, useRef, type RefObject } from 'react';
import type { TemplateEditorCommand } from '../../machines/template-editor.machine.js';
import type { EmailImage } from '../../schemas/email-templates.js';
import type { EmailBlock } from './email-blocks.js';

/** What the editor's toolbar asks of the canvas. */
export interface CanvasController {
  undo(): void;
  redo(): void;
  /** Inserts `{{tag}}` at the caret of the text being edited, or after the selected text block; false if neither. */
  insertMergeTag(tag: string): boolean;
  /** Adds an uploaded image to the asset manager and shows it in the selected image, if one is. */
  addImage(image: EmailImage): void;
}

/** The canvas's own texts. */
export interface CanvasTexts {
  blocks: string;
  canvas: string;
  settings: string;
  nothingSelected: string;
}

/** The devices of the preview switch: the desktop width, and a 390-px phone. */
export type PreviewDevice = 'desktop' | 'phone';

// Laid out with style objects (set through the CSSOM, which the app's policy allows).
const LAYOUT = {
  editor: { height: '100%', minHeight: 0 },
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(150px, 200px) minmax(0, 1fr) minmax(160px, 220px)',
    gap: 'var(--mantine-spacing-sm)',
    height: '100%',
    minHeight: 0,
  },
  stacked: {
    display: 'grid',
    gridTemplateRows: 'minmax(0, 180px) minmax(0, 1fr) minmax(0, 140px)',
    gap: 'var(--mantine-spacing-sm)',
    height: '100%',
    minHeight: 0,
  },
  panel: { overflow: 'auto', minHeight: 0 },
  canvas: {
    position: 'relative',
    minHeight: 0,
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-sm)',
    overflow: 'hidden',
    background: '#f1eee8',
  },
  block: {
    display: 'block',
    width: '100%',
    padding: '6px 8px',
    border: '1px solid var(--mantine-color-default-border)',
    borderRadius: 'var(--mantine-radius-sm)',
    background: 'var(--mantine-color-body)',
    cursor: 'grab',
    fontSize: 'var(--mantine-font-size-sm)',
  },
} as const;

const DEVICES = [
  { id: 'desktop', name: 'Desktop', width: '' },
  { id: 'phone', name: 'Phone', width: '390px', widthMedia: '480px' },
];

// grapesjs-mjml is a UMD bundle: its plugin is the module's `default` once bundled.
const grapesjsMjml =
  (grapesjsMjmlModule as unknown as { default?: typeof grapesjsMjmlModule }).default ?? grapesjsMjmlModule;

/** The built-in rich text editor's insertion, which GrapesJS's types leave out. */
interface RichTextInsert {
  insertHTML(value: string): void;
}

/**
 * The GrapesJS editor (with grapesjs-mjml) as a widget of the template editor's view: it shows `loaded`'s design
 * whenever its revision moves, reports every change as `design.changed` (the MJML) and `history.changed`, and
 * answers the toolbar through `controllerRef`. No telemetry, no icon font, no storage: the machine saves.
 */
export default function GrapesCanvas({
  loaded,
  blocks,
  device,
  origin,
  compact,
  texts,
  onCommand,
  controllerRef,
}: {
  loaded: { design: string; revision: number };
  blocks: EmailBlock[];
  device: PreviewDevice;
  /** The installation's address, for the image placeholder. */
  origin: string;
  /** A narrow screen: the panels go above and below the canvas. */
  compact: boolean;
  texts: CanvasTexts;
  onCommand: (command: TemplateEditorCommand) => void;
  controllerRef: RefObject<CanvasController | null>;
}) {
  const editorRef = useRef<Editor | null>(null);
  const canvasRegion = useRef<HTMLDivElement | null>(null);
  const shown = useRef({ revision: 0, html: '' });
  const latest = useRef({ loaded, blocks, device, onCommand });
  latest.current = { loaded, blocks, device, onCommand };

  const show = (editor: Editor, design: { design: string; revision: number }) => {
    editor.setComponents(design.design);
    editor.UndoManager.clear();
    shown.current = { revision: design.revision, html: editor.getHtml() };
  };

  const onReady = (editor: Editor) => {
    editorRef.current = editor;
    editor.Blocks.getAll().reset(latest.current.blocks.map((block) => ({ ...block })));
    show(editor, latest.current.loaded);
    editor.setDevice(latest.current.device);
    editor.on('update', () => {
      const html = editor.getHtml();
      const { UndoManager } = editor;
      latest.current.onCommand({
        type: 'history.changed',
        canUndo: UndoManager.hasUndo(),
        canRedo: UndoManager.hasRedo(),
      });
      // Showing a design is not a change of it.
      if (html === shown.current.html) return;
      shown.current.html = html;
      latest.current.onCommand({ type: 'design.changed', design: html });
    });
    controllerRef.current = {
      undo: () => editor.UndoManager.undo(),
      redo: () => editor.UndoManager.redo(),
      insertMergeTag: (tag) => {
        const text = `{{${tag}}}`;
        const rte = (editor.RichTextEditor as unknown as { globalRte?: RichTextInsert }).globalRte;
        if (editor.getEditing() && rte) {
          rte.insertHTML(text);
          return true;
        }
        const selected = editor.getSelected();
        if (!selected?.is('mj-text')) return false;
        selected.append(` ${text}`);
        return true;
      },
      addImage: (image) => {
        editor.AssetManager.add({ src: image.url, type: 'image' });
        const selected = editor.getSelected();
        if (selected?.is('mj-image')) selected.addAttributes({ src: image.url });
      },
    };
  };

  useEffect(() => {
    const editor = editorRef.current;
    if (editor && loaded.revision !== shown.current.revision) show(editor, loaded);
  }, [loaded]);
  useEffect(() => {
    editorRef.current?.Blocks.getAll().reset(blocks.map((block) => ({ ...block })));
  }, [blocks]);
  useEffect(() => {
    editorRef.current?.setDevice(device);
  }, [device]);
  // GrapesJS makes its canvas iframe without a title, which screen readers announce as an unnamed frame: named
  // the moment it is made (an observer's callback runs before any other task can read the page).
  useEffect(() => {
    const region = canvasRegion.current;
    if (!region) return;
    const name = () => {
      for (const frame of region.querySelectorAll('iframe:not([title])'))
        frame.setAttribute('title', texts.canvas);
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(region, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [texts.canvas]);
  useEffect(
    () => () => {
      controllerRef.current = null;
      editorRef.current = null;
    },
    [controllerRef],
  );

  return (
    <GjsEditor
      grapesjs={grapesjs}
      style={LAYOUT.editor}
      options={{
        height: '100%',
        telemetry: false,
        // No icon font from a CDN: the app's panels are its own, with text labels.
        cssIcons: '',
        storageManager: false,
        undoManager: { trackSelection: false },
        deviceManager: { devices: DEVICES },
        assetManager: {
          uploadFile: (event: DragEvent | Event): undefined => {
            const files =
              (event as DragEvent).dataTransfer?.files ?? (event.target as HTMLInputElement | null)?.files;
            for (const file of Array.from(files ?? []))
              latest.current.onCommand({ type: 'image.upload', file });
          },
        },
        plugins: [
          (editor: Editor) =>
            grapesjsMjml(editor, {
              blocks: [],
              resetBlocks: true,
              resetDevices: false,
              useCustomTheme: false,
              fonts: {},
              imagePlaceholderSrc: `${origin}/email-images/placeholders/dish.png`,
            }),
        ],
      }}
      onReady={onReady}
    >
      <div style={compact ? LAYOUT.stacked : LAYOUT.layout} data-editor-layout>
        <Paper withBorder p="xs" style={LAYOUT.panel} component="aside" aria-label={texts.blocks}>
          <Title order={3} size="h6" mb="xs">
            {texts.blocks}
          </Title>
          <BlocksProvider>
            {({ mapCategoryBlocks, dragStart, dragStop }) => (
              <Stack gap="sm">
                {Array.from(mapCategoryBlocks).map(([category, categoryBlocks]) => (
                  <Stack key={category} gap={4} role="group" aria-label={category}>
                    <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                      {category}
                    </Text>
                    {categoryBlocks.map((block) => (
                      <UnstyledButton
                        key={block.getId()}
                        style={LAYOUT.block}
                        draggable
                        data-block={block.getId()}
                        onDragStart={(event) => dragStart(block, event.nativeEvent)}
                        onDragEnd={() => dragStop(false)}
                      >
                        {block.getLabel()}
                      </UnstyledButton>
                    ))}
                  </Stack>
                ))}
              </Stack>
            )}
          </BlocksProvider>
        </Paper>
        <div ref={canvasRegion} style={LAYOUT.canvas} role="region" aria-label={texts.canvas}>
          <Canvas style={{ height: '100%' }} />
        </div>
        <Paper withBorder p="xs" style={LAYOUT.panel} component="aside" aria-label={texts.settings}>
          <Title order={3} size="h6" mb="xs">
            {texts.settings}
          </Title>
          <TraitsProvider>
            {({ traits }) =>
              traits.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {texts.nothingSelected}
                </Text>
              ) : (
                <Stack gap="xs">
                  {traits.map((trait) => (
                    <TextInput
                      key={trait.getId()}
                      size="xs"
                      label={String(trait.getLabel())}
                      defaultValue={String(trait.getValue() ?? '')}
                      onChange={(event) => trait.setValue(event.currentTarget.value)}
                    />
                  ))}
                </Stack>
              )
            }
          </TraitsProvider>
        </Paper>
      </div>
    </GjsEditor>
  );
}
