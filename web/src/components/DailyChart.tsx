import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type Series = { label: string; values: (number | null)[]; color: string };

/**
 * A line chart over days (uPlot draws on a canvas, small and fast); the same figures are in a table
 * that only screen readers see, since a canvas says nothing to them.
 */
export function DailyChart({
  title,
  days,
  series,
  format = (value) => String(value),
  integers = false,
  range,
}: {
  title: string;
  days: string[];
  series: Series[];
  format?: (value: number) => string;
  /** Counts: the axis steps by whole numbers. */
  integers?: boolean;
  /** A fixed value axis, e.g. [0, 1] for a rate. */
  range?: [number, number];
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current!;
    const styles = getComputedStyle(document.documentElement);
    const axisColor = styles.getPropertyValue('--muted').trim() || '#666';
    const gridColor = styles.getPropertyValue('--border').trim() || '#ddd';
    const axis = { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor } };
    const chart = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: 180,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true },
          y: range ? { range } : { range: (_chart, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          axis,
          {
            ...axis,
            size: 72,
            values: (_chart, ticks) => ticks.map(format),
            ...(integers && {
              incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 100_000, 1_000_000],
            }),
          },
        ],
        series: [
          {},
          ...series.map((each) => ({
            label: each.label,
            stroke: each.color,
            width: 2,
            points: { show: days.length < 40 },
          })),
        ],
      },
      [days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...series.map((each) => each.values)],
      element,
    );
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(element.clientWidth, 200), height: 180 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, series, format, integers, range]);

  return (
    <figure className="chart">
      <figcaption>
        {title}
        {series.length > 1 &&
          series.map((each) => (
            <span key={each.label} className="legend">
              <span className="swatch" style={{ background: each.color }} aria-hidden="true" />
              {each.label}
            </span>
          ))}
      </figcaption>
      <div ref={host} aria-hidden="true" />
      {/* A table ignores a 1px height; the wrapper is what hides it. */}
      <div className="visually-hidden">
        <table>
          <caption>{title} per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((each) => (
                <th scope="col" key={each.label}>
                  {each.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, index) => (
              <tr key={day}>
                <th scope="row">{day}</th>
                {series.map((each) => (
                  <td key={each.label}>{each.values[index] === null ? '—' : format(each.values[index]!)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
