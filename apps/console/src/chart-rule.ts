/** What a result's rows can be drawn as: a line over time, bars per category, or nothing. */
export interface ChartChoice {
  kind: 'line' | 'bar';
  /** The column along the x axis (the time, or the category). */
  x: number;
  /** The measures drawn, one series each. */
  ys: number[];
  /** Why this chart, in words (shown under it). */
  reason: string;
}

/** A date or timestamp as DuckDB and PostgreSQL rows carry them (`2024-03-01`, `2024-03-01 12:00:00`). */
const TIME_TEXT = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
/** More bars than this are not readable; a line over them would invent an order. */
const MAX_CATEGORIES = 40;
/** More series than this make a legend nobody reads. */
const MAX_SERIES = 4;

type Kind = 'number' | 'time' | 'text' | 'other';

function kindOf(values: unknown[]): Kind {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (!present.length) return 'other';
  if (present.every((v) => typeof v === 'number')) return 'number';
  if (present.every((v) => typeof v === 'string' && TIME_TEXT.test(v))) return 'time';
  if (present.every((v) => typeof v === 'string')) return 'text';
  return 'other';
}

/**
 * Chooses a chart by rule from the columns' kinds: a time column and a measure make a line (the
 * rows in time order), a text column with few distinct values and a measure make bars; one row,
 * or no measure, makes none (a single number is read, not drawn).
 */
export function chooseChart(columns: string[], rows: unknown[][]): ChartChoice | null {
  if (rows.length < 2) return null;
  const kinds = columns.map((_, i) => kindOf(rows.map((r) => r[i])));
  const time = kinds.indexOf('time');
  const category = kinds.findIndex((k, i) => k === 'text' && new Set(rows.map((r) => r[i])).size <= MAX_CATEGORIES);
  const x = time >= 0 ? time : category;
  if (x < 0) return null;
  const ys = kinds.flatMap((k, i) => (k === 'number' && i !== x ? [i] : [])).slice(0, MAX_SERIES);
  if (!ys.length) return null;
  const measures = ys.map((i) => columns[i]).join(', ');
  return time >= 0
    ? { kind: 'line', x, ys, reason: `${measures} over ${columns[x]} (a time column and a measure)` }
    : { kind: 'bar', x, ys, reason: `${measures} per ${columns[x]} (a category and a measure)` };
}
