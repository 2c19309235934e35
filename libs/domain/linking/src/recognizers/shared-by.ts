import { norm, type LinkState } from './rule';

/** Words that say an answer belongs to each of two sets: `shared by A and B`, `common to A and B`. */
const SHARED: readonly (readonly [string, string])[] = [
  ['shared', 'by'],
  ['common', 'to'],
];

/** The tokens of `shared by` / `common to` ending right before token `k`, or none. */
export function sharedByBefore(s: LinkState, k: number): number[] {
  return SHARED.some(([a, b]) => norm(s, k - 2) === a && norm(s, k - 1) === b) ? [k - 2, k - 1] : [];
}

/** The token after `shared by` / `common to` starting at `i`, or null. */
export function sharedByAt(s: LinkState, i: number): number | null {
  return SHARED.some(([a, b]) => norm(s, i) === a && norm(s, i + 1) === b) ? i + 2 : null;
}
