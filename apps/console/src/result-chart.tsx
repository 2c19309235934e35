import { useEffect, useRef } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import type { ChartChoice } from './chart-rule';

// Only the parts these two charts use, so the rest of Chart.js stays out of the bundle.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

const COLOURS = ['#1f5fbf', '#c2571a', '#237a3b', '#7a3bb3'];

/** Times on the x axis as people read them; the rows stay in the query's order (sorted by time for a line). */
function label(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  return value
    .replace('T', ' ')
    .replace(/(:00)?(\.000)?Z$/, '')
    .replace(/ 00:00$/, '');
}

/** The chart `choice` names, drawn with Chart.js on a canvas (its data table is the rows below). */
export default function ResultChart({
  choice,
  columns,
  rows,
}: {
  choice: ChartChoice;
  columns: string[];
  rows: unknown[][];
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const ordered =
      choice.kind === 'line' ? [...rows].sort((a, b) => String(a[choice.x]).localeCompare(String(b[choice.x]))) : rows;
    const chart = new Chart(canvas.current, {
      type: choice.kind,
      data: {
        labels: ordered.map((r) => label(r[choice.x])),
        datasets: choice.ys.map((y, i) => ({
          label: columns[y],
          data: ordered.map((r) => (typeof r[y] === 'number' ? r[y] : null)),
          borderColor: COLOURS[i % COLOURS.length],
          backgroundColor: COLOURS[i % COLOURS.length],
          pointRadius: ordered.length > 60 ? 0 : 2,
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        plugins: { legend: { display: choice.ys.length > 1 } },
        scales: { x: { ticks: { maxTicksLimit: 12 } } },
      },
    });
    return () => chart.destroy();
  }, [choice, columns, rows]);
  return (
    <figure class="chart" data-testid="chart" data-kind={choice.kind}>
      <div class="chart-box">
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${choice.kind === 'line' ? 'Line' : 'Bar'} chart of ${choice.reason}`}
        />
      </div>
      <figcaption class="hint">
        {choice.kind === 'line' ? 'Line' : 'Bars'}: {choice.reason}
      </figcaption>
    </figure>
  );
}
