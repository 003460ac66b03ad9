/**
 * Small charts drawn as inline SVG, no chart library: bars per day (each series its own fill pattern
 * and a legend, so colour is never the only cue) and a line with a marked point per day. Every chart
 * has a text summary for screen readers and a table of the same numbers beside it.
 */
import { scaled, shortDay } from './chart-scale.ts';
import { TableScroll } from './components.tsx';
import { getLocale, t } from './i18n.ts';
import { formatMoney } from './money.ts';

export interface Series {
  label: string;
  /** One value per day, minor units. */
  values: readonly string[];
  pattern: 'solid' | 'hatch' | 'dots';
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 92;
const BOTTOM = 28;
const TOP = 10;
const PLOT_H = HEIGHT - BOTTOM - TOP;

const money = (minor: bigint | string, currency: string) => formatMoney(minor, currency, getLocale());

function Patterns() {
  return (
    <defs>
      <pattern
        id="chart-hatch"
        width="6"
        height="6"
        patternUnits="userSpaceOnUse"
        patternTransform="rotate(45)"
      >
        <rect width="6" height="6" fill="#fff" />
        <line x1="0" y1="0" x2="0" y2="6" stroke="#9a3412" strokeWidth="3" />
      </pattern>
      <pattern id="chart-dots" width="6" height="6" patternUnits="userSpaceOnUse">
        <rect width="6" height="6" fill="#fff" />
        <circle cx="3" cy="3" r="1.6" fill="#6d28d9" />
      </pattern>
    </defs>
  );
}
const FILL = { solid: '#0a6b4f', hatch: 'url(#chart-hatch)', dots: 'url(#chart-dots)' } as const;
const STROKE = { solid: '#0a6b4f', hatch: '#9a3412', dots: '#6d28d9' } as const;

function Axis({
  low,
  high,
  currency,
  days,
}: {
  low: bigint;
  high: bigint;
  currency: string;
  days: readonly string[];
}) {
  const step = (WIDTH - LEFT) / Math.max(days.length, 1);
  const every = Math.ceil(days.length / 7);
  return (
    <g className="axis" fontSize="11" fill="#444">
      {[low, (low + high) / 2n, high].map((tick) => {
        const y = TOP + PLOT_H - scaled(tick, low, high, PLOT_H);
        return (
          <g key={tick.toString()}>
            <line x1={LEFT} x2={WIDTH} y1={y} y2={y} stroke="#ddd" />
            <text x={LEFT - 6} y={y + 4} textAnchor="end">
              {money(tick, currency)}
            </text>
          </g>
        );
      })}
      {days.map((day, i) =>
        i % every === 0 ? (
          <text key={day} x={LEFT + step * i + step / 2} y={HEIGHT - 8} textAnchor="middle">
            {shortDay(day, getLocale())}
          </text>
        ) : null,
      )}
    </g>
  );
}

export function Legend({ series }: { series: readonly Series[] }) {
  return (
    <ul className="legend">
      {series.map((s) => (
        <li key={s.label}>
          <svg width="14" height="14" aria-hidden="true">
            <Patterns />
            <rect width="14" height="14" fill={FILL[s.pattern]} stroke={STROKE[s.pattern]} />
          </svg>{' '}
          {s.label}
        </li>
      ))}
    </ul>
  );
}

const bounds = (series: readonly Series[]) => {
  const all = series.flatMap((s) => s.values.map(BigInt));
  const high = all.reduce((a, b) => (b > a ? b : a), 0n);
  const low = all.reduce((a, b) => (b < a ? b : a), 0n);
  return { low, high: high === low ? low + 100n : high };
};

/** Bars per day, one per series side by side. */
export function BarChart({
  title,
  days,
  series,
  currency,
}: {
  title: string;
  days: readonly string[];
  series: readonly Series[];
  currency: string;
}) {
  const { low, high } = bounds(series);
  const step = (WIDTH - LEFT) / Math.max(days.length, 1);
  const bar = (step * 0.8) / series.length;
  const zero = TOP + PLOT_H - scaled(0n, low, high, PLOT_H);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <Legend series={series} />
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary(title, days, series, currency)}>
        <Patterns />
        <Axis low={low} high={high} currency={currency} days={days} />
        {series.map((s, k) =>
          s.values.map((value, i) => {
            const top = TOP + PLOT_H - scaled(BigInt(value), low, high, PLOT_H);
            return (
              <rect
                key={`${s.label}-${days[i]}`}
                x={LEFT + step * i + step * 0.1 + bar * k}
                y={Math.min(top, zero)}
                width={bar}
                height={Math.max(Math.abs(zero - top), value === '0' ? 0 : 1)}
                fill={FILL[s.pattern]}
                stroke={STROKE[s.pattern]}
              />
            );
          }),
        )}
      </svg>
      <ChartTable title={title} days={days} series={series} currency={currency} />
    </figure>
  );
}

/** A line through each day's value, each point marked. */
export function LineChart({
  title,
  days,
  series,
  currency,
}: {
  title: string;
  days: readonly string[];
  series: Series;
  currency: string;
}) {
  const { low, high } = bounds([series]);
  const step = (WIDTH - LEFT) / Math.max(days.length, 1);
  const points = series.values.map((value, i) => ({
    x: LEFT + step * i + step / 2,
    y: TOP + PLOT_H - scaled(BigInt(value), low, high, PLOT_H),
  }));
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary(title, days, [series], currency)}
      >
        <Axis low={low} high={high} currency={currency} days={days} />
        <polyline
          points={points.map((p) => `${p.x},${p.y}`).join(' ')}
          fill="none"
          stroke="#0a6b4f"
          strokeWidth="2"
        />
        {points.map((p, i) => (
          <circle key={days[i]} cx={p.x} cy={p.y} r="3.5" fill="#fff" stroke="#0a6b4f" strokeWidth="2" />
        ))}
      </svg>
      <ChartTable title={title} days={days} series={[series]} currency={currency} />
    </figure>
  );
}

/** What a screen reader hears for the picture: each series' total and last value. */
function summary(
  title: string,
  days: readonly string[],
  series: readonly Series[],
  currency: string,
): string {
  const parts = series.map((s) => {
    const total = s.values.reduce((sum, v) => sum + BigInt(v), 0n);
    return `${s.label}: ${t('total {amount}', { amount: money(total, currency) })}`;
  });
  const range = days.length
    ? `${shortDay(days[0]!, getLocale())}–${shortDay(days.at(-1)!, getLocale())}`
    : '';
  return `${title}, ${range}. ${parts.join('; ')}. ${t('The same numbers are in the table below.')}`;
}

/** The chart's numbers as a table, folded under a summary. */
function ChartTable({
  title,
  days,
  series,
  currency,
}: {
  title: string;
  days: readonly string[];
  series: readonly Series[];
  currency: string;
}) {
  return (
    <details className="chart-table">
      <summary>{t('Show as a table')}</summary>
      <TableScroll label={title}>
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t('Day')}</th>
              {series.map((s) => (
                <th scope="col" className="num" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{shortDay(day, getLocale())}</th>
                {series.map((s) => (
                  <td className="num" key={s.label}>
                    {money(s.values[i] ?? '0', currency)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </details>
  );
}
