import { Skeleton, useComputedColorScheme } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import type ApexCharts from 'apexcharts';
import type { ApexOptions } from 'apexcharts';
import { useEffect, useMemo, useRef, useState } from 'react';
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

/**
 * One ApexCharts chart (4.7.0, the last MIT release: see the shared LIBRARIES notes), its library downloaded
 * when a dashboard first draws a chart, so no page's first load carries it. Made when the chart mounts or
 * changes kind or height, redrawn in place when its series or options change, destroyed on unmount.
 * ApexCharts is driven directly rather than through react-apexcharts: that wrapper's CommonJS build made the
 * bundler split React out of the entry chunk and grew every page's first load by 1.3 KB.
 * The style element ApexCharts injects carries the page's CSP nonce; fonts are the app's system fonts
 * (nothing from a CDN); the toolbar's menu is off; animations follow the user's reduced-motion setting.
 * A heatmap colours each series (row) in its own colour unless `options.colors` gives one colour.
 */
export function LazyChart({ type, series, options, height, ariaLabel }: LazyChartProps) {
  const scheme = useComputedColorScheme('light');
  const reducedMotion = useReducedMotion() ?? false;
  const config = useMemo((): ApexOptions => {
    const merged = chartOptions(options ?? {}, {
      dark: scheme === 'dark',
      nonce: styleNonce(),
      reducedMotion,
    });
    return { ...merged, chart: { ...merged.chart, type, height, width: '100%' }, series };
  }, [options, scheme, reducedMotion, type, height, series]);
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ApexCharts | null>(null);
  const latest = useRef(config);
  latest.current = config;
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    let made: ApexCharts | null = null;
    let unmounted = false;
    void import('apexcharts').then(({ default: Apex }) => {
      if (unmounted || !host.current) return;
      made = new Apex(host.current, latest.current);
      chart.current = made;
      void made.render().then(() => setDrawn(true));
    });
    return () => {
      unmounted = true;
      chart.current = null;
      made?.destroy();
    };
  }, [type, height]);

  useEffect(() => {
    // Before the library arrives there is nothing to redraw: the chart is made from the latest config.
    void chart.current?.updateOptions(config);
  }, [config]);

  return (
    <div role="img" aria-label={ariaLabel} style={{ minHeight: height, position: 'relative' }}>
      {!drawn && <Skeleton height={height} radius="md" style={{ position: 'absolute', inset: 0 }} />}
      <div ref={host} />
    </div>
  );
}
