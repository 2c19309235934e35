import { isSymbol, isWord } from '../../lexer';
import type { VelofluxRule } from '../rule';

/**
 * No cast can be written: `x::t` does not parse, `CAST(x AS t)` parses and the planner rejects it,
 * and the catalog's cast(x, 'type') cannot be called because the parser reads CAST(x AS type) and
 * stops at the comma (recorded: `Expected AS, found: ,`).
 */
export const casts: VelofluxRule = {
  id: 'casts',
  check(q, out) {
    const { toks, s } = q;
    for (const i of q.operators) {
      if (toks[i]?.text !== '::') continue;
      out.error(
        `'::' casts are not supported by veloFlux (CAST and cast() are not callable in any spelling either); use the column as it is typed, or format(x) to turn a number into a string`,
        i,
      );
    }
    for (const { index: i, word } of q.keywords) {
      if (word !== 'cast' || !isSymbol(toks[i + 1], '(')) continue;
      const close = s.partner[i + 1] ?? -1;
      const inner = (s.depth[i] ?? 0) + 1;
      let as = -1;
      for (let j = i + 2; j < close; j++) {
        if (s.depth[j] === inner && isWord(toks[j], 'as')) {
          as = j;
          break;
        }
      }
      if (as < 0) {
        out.error(
          "cast(x, 'type') cannot be called in veloFlux (the parser expects CAST(x AS type), which the planner rejects); use the column as it is typed, or format(x) to turn a number into a string",
          i,
        );
        continue;
      }
      const type = toks[as + 1]?.text.toLowerCase() ?? 'type';
      out.error(
        `CAST(x AS ${type}) is not supported by veloFlux (cast() is not callable in any spelling either); use the column as it is typed, or format(x) to turn a number into a string`,
        i,
      );
    }
  },
};
