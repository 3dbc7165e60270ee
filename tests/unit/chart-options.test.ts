import { describe, expect, it } from 'vitest';
import { CHART_COLOURS, chartOptions } from '../../src/views/kit/chart-options.js';
import { SYSTEM_FONTS } from '../../src/views/theme.js';

const light = { dark: false, nonce: 'n0nce', reducedMotion: false };

describe('chartOptions (the chart kit)', () => {
  it('gives every chart the system fonts, the spec’s palette, no toolbar and the style nonce', () => {
    const options = chartOptions({}, light);
    expect(options.chart?.fontFamily).toBe(SYSTEM_FONTS);
    expect(options.colors).toEqual(CHART_COLOURS);
    expect(options.chart?.toolbar?.show).toBe(false);
    expect(options.chart?.nonce).toBe('n0nce');
    expect(options.theme?.mode).toBe('light');
  });

  it('leaves the nonce out when the page has none (the dev server)', () => {
    expect(chartOptions({}, { ...light, nonce: '' }).chart?.nonce).toBeUndefined();
  });

  it('follows the dark scheme in the theme and the tooltip', () => {
    const options = chartOptions({}, { ...light, dark: true });
    expect(options.theme?.mode).toBe('dark');
    expect(options.tooltip?.theme).toBe('dark');
  });

  it("merges the chart's own options key by key and lets them win, arrays replaced whole", () => {
    const options = chartOptions(
      {
        chart: { stacked: true, toolbar: { show: true } },
        colors: ['#000000'],
        xaxis: { categories: ['a', 'b'] },
      },
      light,
    );
    expect(options.chart?.stacked).toBe(true);
    expect(options.chart?.toolbar?.show).toBe(true);
    expect(options.chart?.fontFamily).toBe(SYSTEM_FONTS);
    expect(options.colors).toEqual(['#000000']);
    expect(options.xaxis?.categories).toEqual(['a', 'b']);
  });

  it('turns animations off for a user who asks for less motion, whatever the chart says', () => {
    const own = { chart: { animations: { enabled: true } } };
    expect(chartOptions(own, { ...light, reducedMotion: true }).chart?.animations?.enabled).toBe(false);
    expect(chartOptions(own, light).chart?.animations?.enabled).toBe(true);
  });

  it('does not change the options it was given', () => {
    const own = { chart: { stacked: true } };
    chartOptions(own, light);
    expect(own).toEqual({ chart: { stacked: true } });
  });
});
