import { isWord } from '../../lexer';
import type { VelofluxRule } from '../rule';

/** `IS [NOT] NULL` and other IS tests: veloFlux has isnull(x) and comparisons. */
export const nullTests: VelofluxRule = {
  id: 'null-tests',
  check(q, out) {
    const { toks } = q;
    for (const { index: i, word } of q.keywords) {
      if (word !== 'is') continue;
      const negated = isWord(toks[i + 1], 'not');
      const rest = negated ? toks[i + 2] : toks[i + 1];
      if (isWord(rest, 'null')) {
        out.error(
          `IS ${negated ? 'NOT ' : ''}NULL is not supported by veloFlux; write ${negated ? 'NOT isnull(x)' : 'isnull(x)'} instead`,
          i,
        );
      } else {
        out.error(
          `IS ${negated ? 'NOT ' : ''}${rest ? rest.text.toUpperCase() : ''} is not supported by veloFlux; compare with = / != (and use isnull(x) for NULL checks)`,
          i,
        );
      }
    }
  },
};
