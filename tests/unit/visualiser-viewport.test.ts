import { describe, expect, it } from 'vitest';
import {
  chartBounds,
  LEGIBLE_ZOOM,
  openingView,
  openingZoom,
  PANEL_PADDING,
  panelHeight,
} from '../../src/visualiser/viewport.js';

const LIMITS = { minHeight: 200, maxHeight: 560 };

describe('how a statechart opens in its panel', () => {
  it('measures the extent of the top-level boxes', () => {
    expect(
      chartBounds([
        { x: 10, y: 20, width: 100, height: 50 },
        { x: -5, y: 40, width: 30, height: 100 },
      ]),
    ).toEqual({ x: -5, y: 20, width: 115, height: 120 });
    expect(chartBounds([])).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });

  it('fits a small chart at its drawn size in a panel as tall as the chart (no empty band)', () => {
    const small = { x: 0, y: 0, width: 300, height: 150 };
    expect(openingZoom(small, 700)).toBe(1);
    expect(panelHeight(small, 700, LIMITS)).toBe(200); // 150 + 32 lifted to the minimum
    expect(openingView(small, { width: 700, height: 200 })).toEqual({ kind: 'fit' });
    const medium = { x: 0, y: 0, width: 600, height: 300 };
    expect(panelHeight(medium, 700, LIMITS)).toBe(300 + 2 * PANEL_PADDING);
  });

  it('never opens a wide chart below the legible zoom, and caps the panel height', () => {
    const wide = { x: 0, y: 0, width: 2000, height: 1200 };
    expect(openingZoom(wide, 700)).toBe(LEGIBLE_ZOOM);
    expect(panelHeight(wide, 700, LIMITS)).toBe(560);
  });

  it('opens a chart larger than its panel at the legible zoom from its top-left corner, not centred and cut', () => {
    const large = { x: 40, y: 10, width: 2000, height: 1200 };
    expect(openingView(large, { width: 700, height: 560 })).toEqual({
      kind: 'corner',
      viewport: {
        x: PANEL_PADDING - 40 * LEGIBLE_ZOOM,
        y: PANEL_PADDING - 10 * LEGIBLE_ZOOM,
        zoom: LEGIBLE_ZOOM,
      },
    });
  });

  it('centres a tall, narrow chart across and starts it at the top', () => {
    const tall = { x: 0, y: 0, width: 400, height: 2000 };
    const view = openingView(tall, { width: 700, height: 560 });
    expect(view).toEqual({
      kind: 'corner',
      viewport: { x: (700 - 400 * LEGIBLE_ZOOM) / 2, y: PANEL_PADDING, zoom: LEGIBLE_ZOOM },
    });
  });
});
