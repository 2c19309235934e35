import type { ArithmeticNode } from '../types';
import { FUNCTION_WORDS } from '../lexicon';
import { norm, type LinkRule } from './rule';
import { wordTable } from '../word-table';

/** Words for an arithmetic operator between two operands. */
export const OPERATORS: Record<string, ArithmeticNode['op']> = wordTable({
  times: '*',
  '*': '*',
  '×': '*',
  x: '*',
  multiplied: '*',
  plus: '+',
  '+': '+',
  minus: '-',
  divided: '/',
});

/**
 * Operators between two operands (`quantity times unit price`, `fare divided by distance`) are
 * not the word `times` or a grouping `by`: the operator's tokens are taken, and a cue read there
 * is dropped. The operands are joined once the terms are known (arithmetic).
 */
export const operators: LinkRule = {
  name: 'operators',
  apply(s) {
    const { tokens } = s;
    for (let i = 1; i < tokens.length - 1; i++) {
      const prev = tokens[i - 1];
      if (
        OPERATORS[norm(s, i)] &&
        prev &&
        prev.kind !== 'punct' &&
        !FUNCTION_WORDS.has(prev.norm) &&
        tokens[i + 1]?.kind !== 'punct'
      ) {
        s.aggregateCues.delete(i);
        s.taken.add(i);
        if (norm(s, i + 1) === 'by') s.taken.add(i + 1);
      }
    }
  },
};
