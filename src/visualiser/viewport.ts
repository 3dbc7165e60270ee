// Pure: how a statechart opens in its panel: the zoom that fits it (never below a legible one), the
// panel's height so no empty band sits above or below it, and where it starts when it is larger.

/** The chart's extent in its own coordinates. */
export interface ChartBounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Below this zoom the chart's smallest labels (11–12 px) would read under 9 px: the chart is panned instead. */
export const LEGIBLE_ZOOM = 0.8;
/** A chart is never opened larger than drawn. */
export const OPENING_MAX_ZOOM = 1;
/** Room between the chart and the panel's edges, in screen pixels. */
export const PANEL_PADDING = 16;

/** The extent of the top-level boxes (children sit inside their parents). */
export function chartBounds(
  boxes: Iterable<{ x: number; y: number; width: number; height: number }>,
): ChartBounds {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const box of boxes) {
    left = Math.min(left, box.x);
    top = Math.min(top, box.y);
    right = Math.max(right, box.x + box.width);
    bottom = Math.max(bottom, box.y + box.height);
  }
  if (!Number.isFinite(left)) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** The zoom that fits the chart's width in the panel, between legible and drawn size. */
export function openingZoom(bounds: ChartBounds, panelWidth: number): number {
  if (bounds.width <= 0) return OPENING_MAX_ZOOM;
  const fits = (panelWidth - 2 * PANEL_PADDING) / bounds.width;
  return Math.min(OPENING_MAX_ZOOM, Math.max(LEGIBLE_ZOOM, fits));
}

/**
 * The panel's height: the chart at its opening zoom plus padding, within [minHeight, maxHeight], so a
 * short chart gets a short panel (no empty band) and a tall one a panel it can be panned in.
 */
export function panelHeight(
  bounds: ChartBounds,
  panelWidth: number,
  limits: { minHeight: number; maxHeight: number },
): number {
  const wanted = Math.ceil(bounds.height * openingZoom(bounds, panelWidth) + 2 * PANEL_PADDING);
  return Math.min(limits.maxHeight, Math.max(limits.minHeight, wanted));
}

/** Where the chart opens: fitted (React Flow's fitView) or, when larger than the panel at a legible zoom, its top-left corner. */
export type OpeningView =
  { kind: 'fit' } | { kind: 'corner'; viewport: { x: number; y: number; zoom: number } };

/**
 * Fits the chart when it fits at a legible zoom; otherwise opens it at the legible zoom from its
 * top-left (where its initial state is), centred along an axis it does fit, for the user to pan.
 */
export function openingView(bounds: ChartBounds, panel: { width: number; height: number }): OpeningView {
  const room = { width: panel.width - 2 * PANEL_PADDING, height: panel.height - 2 * PANEL_PADDING };
  const fitting = Math.min(room.width / bounds.width, room.height / bounds.height);
  if (!(bounds.width > 0 && bounds.height > 0) || fitting >= LEGIBLE_ZOOM) return { kind: 'fit' };
  const zoom = LEGIBLE_ZOOM;
  const drawn = { width: bounds.width * zoom, height: bounds.height * zoom };
  const x =
    drawn.width <= room.width
      ? (panel.width - drawn.width) / 2 - bounds.x * zoom
      : PANEL_PADDING - bounds.x * zoom;
  const y =
    drawn.height <= room.height
      ? (panel.height - drawn.height) / 2 - bounds.y * zoom
      : PANEL_PADDING - bounds.y * zoom;
  return { kind: 'corner', viewport: { x, y, zoom } };
}
