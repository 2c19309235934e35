import type { Token } from '../text';
import { wordTable } from '../word-table';
import { range, take, type LinkRule } from './rule';
import { superlativeAt } from './superlatives';

/** Ordinals said before a superlative: the rank of the one row asked for. */
const ORDINALS: Record<string, number> = wordTable({
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
});

/**
 * `the second highest price`, `the 3rd most expensive product`: one row, after skipping the ones
 * ranked before it (LIMIT 1 OFFSET n-1). Only right before a superlative: `the second day`, `every
 * 5 seconds` are no ranks. `first` is the superlative's own row (one-answer reads it).
 */
export const ordinalLimits: LinkRule = {
  name: 'ordinal-limits',
  apply(s) {
    for (const t of s.tokens) {
      const rank = ordinalAt(s.tokens, t.i);
      if (!rank || s.taken.has(t.i) || !superlativeAt(s.tokens, rank.end)) continue;
      s.limits.push({ start: t.i, end: rank.end, limit: 1, offset: rank.rank - 1 });
      take(s, range(t.i, rank.end));
    }
  },
};

const SUFFIXES = new Set(['st', 'nd', 'rd', 'th']);

/** The rank an ordinal at `i` says (`second`, `2nd`, which tokenizes as `2` `nd`) and where it ends. */
function ordinalAt(tokens: readonly Token[], i: number): { rank: number; end: number } | null {
  const t = tokens[i];
  const next = tokens[i + 1];
  if (t?.kind === 'number' && next && next.start === t.end && SUFFIXES.has(next.norm)) {
    const rank = Number(t.norm);
    return Number.isInteger(rank) && rank >= 2 ? { rank, end: i + 2 } : null;
  }
  const rank = ORDINALS[t?.norm ?? ''];
  return rank ? { rank, end: i + 1 } : null;
}
