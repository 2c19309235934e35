import { numberOf, singular, type Token } from '../text';
import { range, take, type LinkRule } from './rule';
import { superlativeAt } from './superlatives';

/** How many rows: `top 3`, `first 10`, `limit 5`, `the 3 highest`, `5 most humid`. */
export const limits: LinkRule = {
  name: 'limits',
  apply(s) {
    // After the ranks said as ordinals (`the 3rd highest`), whose tokens it leaves alone.
    const found = findLimits(s.tokens, s.taken);
    s.limits.push(...found);
    for (const l of found) take(s, range(l.start, l.end));
  },
};

export interface FoundLimit {
  start: number;
  end: number;
  limit: number;
  /** Rows ranked before the ones asked for (`the second highest`: 1). */
  offset?: number;
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
