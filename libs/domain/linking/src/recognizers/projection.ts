import type { Token } from '../text';
import { range, type LinkRule } from './rule';

const PROJECTION_VERBS = new Set([
  'forward',
  'emit',
  'show',
  'list',
  'give',
  'return',
  'display',
  'select',
  'get',
  'find',
  'print',
  'provide',
  'tell',
  'output',
  'include',
  'fetch',
]);
const SCOPE_CLOSERS = new Set([
  'where',
  'whose',
  'that',
  'which',
  'who',
  'if',
  'when',
  'only',
  'but',
  'whereas',
  'while',
  'having',
  'from',
  'for',
  'in',
  'on',
  'during',
  'since',
  'between',
  'per',
  'by',
  'over',
]);

/** Projection: marks the terms said where the request lists what to show (`show X and Y`, `: X, Y`, `with the X`). */
export const projection: LinkRule = {
  name: 'projection',
  apply(s) {
    const scope = projectionScope(s.tokens);
    for (const t of s.terms) t.projected = range(t.start, t.end).some((k) => scope[k]);
  },
};

/**
 * Which tokens sit where the request lists what to show: after `show`/`list`/`give`/`return`,
 * after a colon, after `with the`, until a clause boundary. A request with none of these (`The
 * vin and the latitude of each vehicle`) lists throughout.
 */
function projectionScope(tokens: readonly Token[]): boolean[] {
  const scope = tokens.map(() => false);
  let open = false;
  let any = false;
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]?.norm ?? '';
    if (opensList(tokens, i)) {
      open = true;
      any = true;
      continue;
    }
    if (w === '.' || w === '?' || w === '!' || w === ';' || w === ')' || SCOPE_CLOSERS.has(w) || w === 'with')
      open = false;
    scope[i] = open;
  }
  if (any) return scope;
  // No listing verb: the request opens with what it wants ("The vin and the latitude of …").
  let open2 = true;
  return tokens.map((t) => {
    if (
      t.norm === '.' ||
      t.norm === '?' ||
      t.norm === ';' ||
      (SCOPE_CLOSERS.has(t.norm) && !['of', 'in', 'on', 'for', 'per', 'by'].includes(t.norm))
    )
      open2 = false;
    return open2;
  });
}

/** A word that opens a list of what to show. */
function opensList(tokens: readonly Token[], i: number): boolean {
  const w = tokens[i]?.norm ?? '';
  return (
    PROJECTION_VERBS.has(w) ||
    w === ':' ||
    (w === 'with' && !['a', 'an', 'no', 'any', 'more', 'less', 'at'].includes(tokens[i + 1]?.norm ?? '')) ||
    ((w === 'what' || w === 'whats') && ['is', 'are', 'was', 'were'].includes(tokens[i + 1]?.norm ?? '')) ||
    (w === '(' && i > 0)
  );
}
