import { CONCEPTS } from './lexicon';
import { numberOf, singular, type Token } from './text';

/** Superlatives and the direction they sort in; `time` ones sort on a time column. */
export const SUPERLATIVES: Record<string, { direction: 'asc' | 'desc'; time?: boolean; fn?: 'max' | 'min' }> = {
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
};

export interface FoundLimit {
  start: number;
  end: number;
  limit: number;
}

/**
 * Limits: `top 3`, `first 10`, `limit 5`, `the 3 highest`, `the 10 most recent orders`,
 * `the 5 customers … who spent the most` (a number after `the` in a request that ranks).
 */
export function findLimits(tokens: readonly Token[], taken: ReadonlySet<number>): FoundLimit[] {
  const out: FoundLimit[] = [];
  const ranks = tokens.some((t) => superlativeAt(tokens, t.i) !== null);
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]?.norm ?? '';
    const n = numberOf(tokens[i + 1]);
    if (n !== null && !taken.has(i + 1) && Number.isInteger(n) && n > 0) {
      if (
        w === 'top' ||
        w === 'bottom' ||
        w === 'limit' ||
        ((w === 'first' || w === 'last') && !isTimeUnit(tokens[i + 2]))
      ) {
        out.push({ start: i, end: i + 2, limit: n });
        continue;
      }
      if (w === 'the' && ranks && !isTimeUnit(tokens[i + 2]) && tokens[i + 2]?.kind === 'word') {
        out.push({ start: i + 1, end: i + 2, limit: n });
        continue;
      }
    }
    // "3 highest", "5 most humid" without "the"
    const m = numberOf(tokens[i]);
    if (
      m !== null &&
      !taken.has(i) &&
      tokens[i]?.kind === 'number' &&
      w !== 'the' &&
      superlativeAt(tokens, i + 1) &&
      !out.some((o) => o.end > i)
    ) {
      out.push({ start: i, end: i + 1, limit: m });
    }
  }
  return out;
}

function isTimeUnit(t: Token | undefined): boolean {
  return !!t && /^(second|minute|hour|day|week|month|quarter|year)$/.test(singular(t.norm));
}

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

function flip(d: 'asc' | 'desc'): 'asc' | 'desc' {
  return d === 'asc' ? 'desc' : 'asc';
}

/**
 * An explicit direction: `highest first`, `newest first`, `most expensive first`, `in
 * descending order`, `ascending`.
 */
export function findDirection(
  tokens: readonly Token[],
): { start: number; end: number; direction: 'asc' | 'desc'; time: boolean } | null {
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]?.norm ?? '';
    if (w === 'descending' || w === 'desc') return { start: i, end: i + 1, direction: 'desc', time: false };
    if (w === 'ascending' || w === 'asc') return { start: i, end: i + 1, direction: 'asc', time: false };
    if (w === 'first' && i > 0) {
      for (let back = 1; back <= 2; back++) {
        const s = superlativeAt(tokens, i - back);
        if (s && s.end === i) return { start: i - back, end: i + 1, direction: s.direction, time: s.time };
      }
      const prev = tokens[i - 1]?.norm ?? '';
      if (prev === 'most') return { start: i - 1, end: i + 1, direction: 'desc', time: false };
      if (prev === 'least' || prev === 'fewest') return { start: i - 1, end: i + 1, direction: 'asc', time: false };
    }
  }
  return null;
}
