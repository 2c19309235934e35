import type { Token } from '../text';
import { range, take, type Direction, type LinkRule } from './rule';
import { superlativeAt } from './superlatives';

/**
 * An explicit sort direction: `in descending order`, `ascending`, `newest first`, `most expensive
 * first`, `alphabetically`, `in alphabetical order`.
 */
export const direction: LinkRule = {
  name: 'direction',
  apply(s) {
    s.direction = findDirection(s.tokens);
    if (s.direction) take(s, range(s.direction.start, s.direction.end));
  },
};

/** Words that say a direction only in an order (`in increasing order`, `by decreasing number of …`). */
const CHANGE_DIRECTIONS: ReadonlyMap<string, 'asc' | 'desc'> = new Map([
  ['increasing', 'asc'],
  ['decreasing', 'desc'],
]);

/**
 * An explicit direction: `highest first`, `newest first`, `most expensive first`, `in
 * descending order`, `ascending`, `in increasing order`, `from highest to lowest`.
 */
export function findDirection(tokens: readonly Token[]): Direction | null {
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]?.norm ?? '';
    if (w === 'descending' || w === 'desc' || w === 'ascending' || w === 'asc') {
      const d = w.startsWith('desc') ? 'desc' : 'asc';
      // `in descending alphabetical order`: the direction of a text order.
      const alpha = ['alphabetical', 'alphabetically'].includes(tokens[i + 1]?.norm ?? '');
      if (!alpha) return said(i, i + 1, d);
      const order = tokens[i + 2]?.norm === 'order' ? 1 : 0;
      return { ...said(i, i + 2 + order, d), text: true };
    }
    const change = CHANGE_DIRECTIONS.get(w);
    const inOrder = tokens[i + 1]?.norm === 'order' || ['in', 'by'].includes(tokens[i - 1]?.norm ?? '');
    if (change && inOrder) return said(i, i + 1, change);
    const span = fromTo(tokens, i);
    if (span) return span;
    if (w === 'alphabetically' || w === 'alphabetical' || w === 'lexicographically' || w === 'lexicographic') {
      const order = tokens[i + 1]?.norm === 'order' ? 1 : 0;
      const reverse = tokens[i - 1]?.norm === 'reverse' ? 1 : 0;
      return { ...said(i - reverse, i + 1 + order, reverse ? 'desc' : 'asc'), text: true };
    }
    if (w === 'first' && i > 0) {
      for (let back = 1; back <= 2; back++) {
        const s = superlativeAt(tokens, i - back);
        if (s && s.end === i) return { ...said(i - back, i + 1, s.direction), time: s.time };
      }
      const prev = tokens[i - 1]?.norm ?? '';
      if (prev === 'most') return said(i - 1, i + 1, 'desc');
      if (prev === 'least' || prev === 'fewest') return said(i - 1, i + 1, 'asc');
    }
  }
  return null;
}

/**
 * `from highest to lowest`, `largest to smallest`: two superlatives of opposite directions joined
 * by `to` run in the first one's direction. The same time superlatives (`oldest to newest`).
 */
function fromTo(tokens: readonly Token[], i: number): Direction | null {
  const first = superlativeAt(tokens, i);
  if (!first || tokens[first.end]?.norm !== 'to') return null;
  const k = tokens[first.end + 1]?.norm === 'the' ? first.end + 2 : first.end + 1;
  const second = superlativeAt(tokens, k);
  if (!second || second.direction === first.direction) return null;
  const the = tokens[i - 1]?.norm === 'the' ? 1 : 0;
  const start = tokens[i - 1 - the]?.norm === 'from' ? i - 1 - the : i;
  return { ...said(start, second.end, first.direction), time: first.time && second.time };
}

function said(start: number, end: number, direction: 'asc' | 'desc'): Direction {
  return { start, end, direction, time: false, text: false };
}
