import type { ApexOptions } from 'apexcharts';
import { SYSTEM_FONTS } from '../theme.js';

/** What the kit needs to know about the page to draw a chart that fits it. */
export interface ChartSurroundings {
  dark: boolean;
  /** The nonce the page's Content-Security-Policy allows `<style>` elements with ('' without one). */
  nonce: string;
  reducedMotion: boolean;
}

/**
 * Series colours: the spec's chart palette (§9) in its order, red, orange, yellow, green, blue, purple, grey, in
 * shades dark enough to read on white and apart in lightness as well as hue.
 */
export const CHART_COLOURS = ['#e03131', '#f76707', '#f2b705', '#2f9e44', '#1c7ed6', '#7048e8', '#868e96'];

type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** `over` laid on `base`, objects merged key by key, everything else (arrays too) replaced. */
function mergedOptions(base: Plain, over: Plain): Plain {
  const merged: Plain = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const under = merged[key];
    merged[key] = isPlain(under) && isPlain(value) ? mergedOptions(under, value) : value;
  }
  return merged;
}

/**
 * A chart's own options on top of the app's: system fonts (no web font is fetched), the colour scheme, the
 * spec's palette, no toolbar, animations off for users who ask for less motion, and the CSP nonce on the
 * style element ApexCharts injects. What the chart sets itself wins, except the nonce and the motion setting.
 */
export function chartOptions(
  own: ApexOptions,
  { dark, nonce, reducedMotion }: ChartSurroundings,
): ApexOptions {
  const app: ApexOptions = {
    chart: {
      fontFamily: SYSTEM_FONTS,
      background: 'transparent',
      foreColor: dark ? '#c9c9c9' : '#495057',
      toolbar: { show: false },
      zoom: { enabled: false },
      parentHeightOffset: 0,
      redrawOnParentResize: true,
    },
    colors: CHART_COLOURS,
    theme: { mode: dark ? 'dark' : 'light' },
    grid: { borderColor: dark ? '#373a40' : '#e9ecef' },
    tooltip: { theme: dark ? 'dark' : 'light' },
    dataLabels: { enabled: false },
    legend: { fontFamily: SYSTEM_FONTS },
  };
  const merged = mergedOptions(app as Plain, own as Plain) as ApexOptions;
  const motion = reducedMotion ? { animations: { enabled: false } } : {};
  return { ...merged, chart: { ...merged.chart, ...motion, nonce: nonce || undefined } };
}
