/**
 * A preview cell as people read it: fractions rounded (an average is `21.06`, not
 * `21.059979166666707`), small magnitudes to three significant digits so they do not read as 0.
 * The CSV download keeps the exact values.
 */
export function formatCell(cell: unknown): string {
  if (typeof cell !== 'number' || Number.isInteger(cell) || !Number.isFinite(cell)) return String(cell);
  const options: Intl.NumberFormatOptions =
    Math.abs(cell) >= 1 ? { maximumFractionDigits: 2 } : { maximumSignificantDigits: 3 };
  return cell.toLocaleString('en-US', { ...options, useGrouping: false });
}

/** "1 row", "20 rows", "the first 20 rows" when the engine had more. */
export function rowCount(rows: number, truncated: boolean): string {
  const n = `${rows} row${rows === 1 ? '' : 's'}`;
  return truncated ? `the first ${n}` : n;
}

/** When something last happened, as people say it: "just now", "5 min ago", "3 h ago", else the date. */
export function sinceWhen(iso: string, now = new Date()): string {
  const seconds = (now.getTime() - new Date(iso).getTime()) / 1000;
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString('en-CA');
}
