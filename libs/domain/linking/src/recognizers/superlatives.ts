import { CONCEPTS } from '../lexicon';
import type { Token } from '../text';
import { wordTable } from '../word-table';

/** Superlatives and the direction they sort in; `time` ones sort on a time column. */
export const SUPERLATIVES: Record<string, { direction: 'asc' | 'desc'; time?: boolean; fn?: 'max' | 'min' }> =
  wordTable({
    highest: { direction: 'desc', fn: 'max' },
    largest: { direction: 'desc', fn: 'max' },
    biggest: { direction: 'desc', fn: 'max' },
    greatest: { direction: 'desc', fn: 'max' },
    maximum: { direction: 'desc', fn: 'max' },
    max: { direction: 'desc', fn: 'max' },
    peak: { direction: 'desc', fn: 'max' },
    top: { direction: 'desc' },
    best: { direction: 'desc' },
    most: { direction: 'desc' },
    lowest: { direction: 'asc', fn: 'min' },
    smallest: { direction: 'asc', fn: 'min' },
    minimum: { direction: 'asc', fn: 'min' },
    min: { direction: 'asc', fn: 'min' },
    least: { direction: 'asc' },
    fewest: { direction: 'asc' },
    bottom: { direction: 'asc' },
    worst: { direction: 'asc' },
    newest: { direction: 'desc', time: true },
    latest: { direction: 'desc', time: true },
    recent: { direction: 'desc', time: true },
    oldest: { direction: 'asc', time: true },
    earliest: { direction: 'asc', time: true },
    first: { direction: 'asc', time: true },
    last: { direction: 'desc', time: true },
  });

/** The superlative at `i`: `highest`, `most recent`, `hottest` (a concept with a direction). */
export function superlativeAt(
  tokens: readonly Token[],
  i: number,
): { direction: 'asc' | 'desc'; time: boolean; fn: 'max' | 'min' | null; concept: string | null; end: number } | null {
  const w = tokens[i]?.norm ?? '';
  const next = tokens[i + 1]?.norm ?? '';
  if (w === 'most' || w === 'least') {
    // most recent / most expensive / most humid: the adjective says what and which way
    const sup = SUPERLATIVES[next];
    if (sup?.time)
      return {
        direction: w === 'most' ? sup.direction : flip(sup.direction),
        time: true,
        fn: null,
        concept: null,
        end: i + 2,
      };
    const concept = CONCEPTS.get(next);
    if (concept?.direction) {
      const d = w === 'most' ? concept.direction : flip(concept.direction);
      return { direction: d, time: false, fn: null, concept: next, end: i + 2 };
    }
  }
  // "first"/"last" only rank when "first N" or "X first"; elsewhere they are plain words.
  if (w === 'first' || w === 'last') return null;
  const sup = SUPERLATIVES[w];
  if (sup) return { direction: sup.direction, time: !!sup.time, fn: sup.fn ?? null, concept: null, end: i + 1 };
  const concept = CONCEPTS.get(w);
  if (concept?.direction && /est$/.test(w))
    return { direction: concept.direction, time: false, fn: null, concept: w, end: i + 1 };
  return null;
}

export function flip(d: 'asc' | 'desc'): 'asc' | 'desc' {
  return d === 'asc' ? 'desc' : 'asc';
}
