import * as l10n from '@vscode/l10n';
import { formatCredits, SPEND_DIGITS } from '../../core/credits';
import type { StackedDays } from '../../core/usage/report';

const SVG = 'http://www.w3.org/2000/svg';
/** Series beyond this many share the last colour class; the legend and tooltips still name them. */
export const SERIES_CLASSES = 8;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, children: Node[] = []): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

function title(text: string): SVGTitleElement {
  const node = svg('title', {});
  node.textContent = text;
  return node;
}

/** 1, 2, 5 × 10^n: a step that gives about `ticks` gridlines up to `max`. */
export function niceStep(max: number, ticks = 4): number {
  if (!(max > 0)) return 1;
  const raw = max / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((candidate) => candidate >= raw) ?? 10 * magnitude;
  return step;
}

/** Spends are often fractions of a credit: shown with the digits the chat's meta uses. */
export function formatSpend(value: number): string {
  return formatCredits(value, SPEND_DIGITS);
}

/**
 * A stacked bar per day, drawn as SVG elements with presentation attributes only (no inline style,
 * so the webview's CSP needs no 'unsafe-inline'); colours come from theme variables through classes.
 * Each segment names its day, series and credits in a <title> (the hover tooltip and screen readers).
 */
export function stackedBarChart(data: StackedDays, seriesIndex: ReadonlyMap<string, number>, label: (series: string) => string = (series) => series, width = 760, height = 240): SVGSVGElement {
  const margin = { top: 12, right: 12, bottom: 28, left: 56 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const max = Math.max(0, ...data.days.map((d) => d.total));
  const step = niceStep(max);
  const top = max > 0 ? Math.ceil(max / step) * step : step;
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(1, data.days.length);
  const barWidth = Math.max(2, slot * 0.7);

  const grid: Node[] = [];
  for (let value = 0; value <= top + step / 2; value += step) {
    grid.push(svg('line', { class: 'grid', x1: margin.left, x2: width - margin.right, y1: y(value), y2: y(value) }));
    const label = svg('text', { class: 'axis-label', x: margin.left - 6, y: y(value) + 4, 'text-anchor': 'end' });
    label.textContent = formatSpend(value);
    grid.push(label);
  }
  const bars: Node[] = [];
  data.days.forEach((day, index) => {
    const x = margin.left + index * slot + (slot - barWidth) / 2;
    let base = 0;
    for (const series of data.series) {
      const value = day.parts[series];
      if (!value) continue;
      const colour = Math.min(seriesIndex.get(series) ?? 0, SERIES_CLASSES - 1);
      bars.push(svg('rect', {
        class: `bar series-${colour}`,
        x, width: barWidth, y: y(base + value), height: Math.max(1, y(base) - y(base + value)),
        'data-date': day.date, 'data-series': series,
      }, [title(`${day.date} · ${label(series)}: ${formatSpend(value)} credits`)]));
      base += value;
    }
    // Label every 5th day and the last one (today), as MM-DD.
    if (index % 5 === 0 || index === data.days.length - 1) {
      const label = svg('text', { class: 'axis-label', x: margin.left + index * slot + slot / 2, y: height - 8, 'text-anchor': 'middle' });
      label.textContent = day.date.slice(5);
      bars.push(label);
    }
  });
  const busiest = data.days.reduce((best, d) => (d.total > best.total ? d : best), data.days[0] ?? { date: '', total: 0 });
  const summary = max > 0
    ? l10n.t('Spend per day over {0} days; the highest was {1} credits on {2}.', data.days.length, formatSpend(busiest.total), busiest.date)
    : l10n.t('No spend recorded in the last {0} days.', data.days.length);
  return svg('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': summary, preserveAspectRatio: 'xMidYMid meet' }, [
    title(summary),
    svg('line', { class: 'axis', x1: margin.left, x2: width - margin.right, y1: y(0), y2: y(0) }),
    ...grid,
    ...bars,
  ]);
}
