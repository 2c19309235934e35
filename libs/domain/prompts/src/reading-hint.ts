import type { Reading } from '@nl2p/envelope';

/** What of the request's reading a server model is shown (the plan goes in each prompt's own form). */
export type ReadingHint = Pick<Reading, 'tables' | 'ambiguous' | 'assumptions' | 'unexplained'>;

/**
 * The request's reading as a hint for a server model (issue 23, item 6: with a capable model the
 * reading is the model's hint, not its answer): the tables it pointed at, the close calls it could
 * not settle with their candidates in the data's names, how it read words that read more than one
 * way, and the words nothing explained. Empty when the reading says nothing beyond its plan.
 */
export function readingHintText(reading: ReadingHint | null | undefined): string {
  if (!reading) return '';
  const lines: string[] = [];
  const tables = reading.tables.slice(0, 3).map((t) => t.table);
  if (tables.length) lines.push(`Tables the words point at, best first: ${tables.join(', ')}`);
  for (const a of reading.ambiguous) {
    lines.push(
      `'${a.phrase}' fits ${a.candidates.join(' and ')} equally: choose by the request's other words, or ask if they do not tell`,
    );
  }
  if (reading.assumptions.length) lines.push(`How words were read: ${reading.assumptions.join('; ')}`);
  const named = new Set(reading.ambiguous.map((a) => a.phrase));
  const unexplained = reading.unexplained.filter((w) => !named.has(w));
  if (unexplained.length) lines.push(`Words nothing explained: ${unexplained.join(', ')}`);
  return lines.length ? `What the request's words were read as (a hint):\n${lines.join('\n')}` : '';
}
