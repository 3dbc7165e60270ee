import { Skeleton, useComputedColorScheme } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import type { ApexOptions } from 'apexcharts';
import { type ComponentType, lazy, Suspense, useMemo } from 'react';
import { styleNonce } from '../../app/content-security.js';
import { chartOptions } from './chart-options.js';

/** The chart kinds the dashboards draw. */
export type ChartKind =
  'bar' | 'line' | 'area' | 'donut' | 'pie' | 'heatmap' | 'treemap' | 'scatter' | 'radialBar';

/** What one chart draws: its kind, its series and the options of that chart alone. */
export interface LazyChartProps {
  type: ChartKind;
  series: ApexOptions['series'];
  /** The chart's own options; the kit adds the app's fonts, colours, scheme, nonce and motion. */
  options?: ApexOptions;
  height: number;
  /** What the chart shows, read by screen readers (the chart itself is an image to them). */
  ariaLabel: string;
}

interface ApexChartProps {
  type: ChartKind;
  series: ApexOptions['series'];
  options: ApexOptions;
  height: number;
  width: string;
}

// react-apexcharts is CommonJS (`exports.default`): the bundler's interop may hand over either shape.
const ApexChart = lazy(async () => {
  const module = (await import('react-apexcharts')) as unknown as {
    default: ComponentType<ApexChartProps> | { default: ComponentType<ApexChartProps> };
  };
  const component = 'default' in module.default ? module.default.default : module.default;
  return { default: component };
});

/**
 * One ApexCharts chart (4.7.0, the last MIT release: docs/LIBRARIES in the shared notes), loaded with its
 * library only when a dashboard first draws a chart, so no page's first load carries it. The style element
 * ApexCharts injects carries the page's CSP nonce; fonts are the app's system fonts (nothing from a CDN);
 * the toolbar's menu (SVG/PNG/CSV downloads) is off; animations follow the user's reduced-motion setting.
 * A heatmap colours each series (row) in its own colour unless `options.colors` gives one colour.
 */
export function LazyChart({ type, series, options, height, ariaLabel }: LazyChartProps) {
  const scheme = useComputedColorScheme('light');
  const reducedMotion = useReducedMotion() ?? false;
  const merged = useMemo(
    () => chartOptions(options ?? {}, { dark: scheme === 'dark', nonce: styleNonce(), reducedMotion }),
    [options, scheme, reducedMotion],
  );
  return (
    <div role="img" aria-label={ariaLabel} style={{ minHeight: height }}>
      <Suspense fallback={<Skeleton height={height} radius="md" />}>
        <ApexChart type={type} series={series} options={merged} height={height} width="100%" />
      </Suspense>
    </div>
  );
}
