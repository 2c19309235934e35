import type { Outcome } from './read-once';

/** One scored item, as the figures need it. */
export interface Scored {
  expect: 'sql' | 'clarify';
  outcome: Outcome;
  /** Execution match against a gold (answerable items answered with SQL), else null. */
  match: boolean | null;
  /** The compiled SQL failed when run (counted within `model`: the product would repair it with the model). */
  runError: boolean;
  linkMs: number;
}

export interface Figures {
  items: number;
  answerable: number;
  match: number;
  acceptedWrong: number;
  askedAnswerable: number;
  model: number;
  runErrors: number;
  clarifyExpected: number;
  askedExpected: number;
  answeredExpected: number;
  linkP50: number;
  linkP95: number;
}

/** Nearest-rank percentile of `values` (0 when empty). */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function figuresOf(scored: readonly Scored[]): Figures {
  const answerable = scored.filter((s) => s.expect === 'sql');
  const clarify = scored.filter((s) => s.expect === 'clarify');
  const ms = scored.map((s) => s.linkMs);
  return {
    items: scored.length,
    answerable: answerable.length,
    match: answerable.filter((s) => s.outcome === 'sql' && s.match === true).length,
    acceptedWrong: answerable.filter((s) => s.outcome === 'sql' && s.match !== true).length,
    askedAnswerable: answerable.filter((s) => s.outcome === 'clarification').length,
    model: answerable.filter((s) => s.outcome === 'model').length,
    runErrors: answerable.filter((s) => s.runError).length,
    clarifyExpected: clarify.length,
    askedExpected: clarify.filter((s) => s.outcome === 'clarification').length,
    answeredExpected: clarify.filter((s) => s.outcome === 'sql').length,
    linkP50: percentile(ms, 50),
    linkP95: percentile(ms, 95),
  };
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '-');

export const FIGURE_COLUMNS = [
  'answerable',
  'exec match',
  'accepted wrong',
  'asked (answerable)',
  'to model (run err)',
  'clarify exp.',
  'asked when exp.',
  'answered when exp.',
  'link p50/p95 ms',
] as const;

/** The figures as table cells, in {@link FIGURE_COLUMNS} order. */
export function figureCells(f: Figures): string[] {
  return [
    String(f.answerable),
    `${f.match} (${pct(f.match, f.answerable)})`,
    `${f.acceptedWrong} (${pct(f.acceptedWrong, f.answerable)})`,
    String(f.askedAnswerable),
    `${f.model} (${f.runErrors})`,
    String(f.clarifyExpected),
    f.clarifyExpected ? `${f.askedExpected} (${pct(f.askedExpected, f.clarifyExpected)})` : '-',
    f.clarifyExpected ? String(f.answeredExpected) : '-',
    `${f.linkP50.toFixed(1)} / ${f.linkP95.toFixed(1)}`,
  ];
}

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, j) => Math.max(h.length, ...rows.map((r) => (r[j] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, j) => (j === 0 ? c.padEnd(widths[j] ?? 0) : c.padStart(widths[j] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
