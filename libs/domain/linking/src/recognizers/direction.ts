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

/**
 * An explicit direction: `highest first`, `newest first`, `most expensive first`, `in
 * descending order`, `ascending`.
 */
export function findDirection(tokens: readonly Token[]): Direction | null {
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]?.norm ?? '';
    if (w === 'descending' || w === 'desc') return said(i, i + 1, 'desc');
    if (w === 'ascending' || w === 'asc') return said(i, i + 1, 'asc');
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

function said(start: number, end: number, direction: 'asc' | 'desc'): Direction {
  return { start, end, direction, time: false, text: false };
}
