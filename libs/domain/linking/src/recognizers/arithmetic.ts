import { FUNCTION_WORDS } from '../lexicon';
import { numberOf, type Token } from '../text';
import type { ArithmeticLink, ArithmeticNode, TermLink } from '../types';
import { OPERATORS } from './operators';
import { norm, range, slice, take, type LinkRule, type LinkState } from './rule';

/**
 * Arithmetic between terms or numbers (`quantity times unit price`, `fare minus tip`, chained
 * left to right), and the words it defines (`revenue` in `total revenue (quantity times unit
 * price)`).
 */
export const arithmetic: LinkRule = {
  name: 'arithmetic',
  apply(s) {
    for (let i = 0; i < s.tokens.length; i++) {
      const op = OPERATORS[norm(s, i)];
      if (op) operation(s, i, op);
    }
    for (const a of s.arithmetic) {
      for (const k of range(a.start, a.end)) s.arithmeticAt.set(k, a);
      a.defines = definedWords(s.tokens, a, s.termAt);
    }
    s.defined = new Set(s.arithmetic.flatMap((a) => a.defines));
  },
};

/** The operation of the operator `op` at `i`, when both its operands are said. */
function operation(s: LinkState, i: number, op: ArithmeticNode['op']): void {
  const opEnd = (norm(s, i) === 'multiplied' || norm(s, i) === 'divided') && norm(s, i + 1) === 'by' ? i + 2 : i + 1;
  const left = s.termAt.get(i - 1);
  const leftNumber = left ? null : numberOf(s.tokens[i - 1]);
  let r = opEnd;
  while (norm(s, r) === 'the' || norm(s, r) === 'its') r++;
  const right = s.termAt.get(r);
  const rightNumber = right ? null : numberOf(s.tokens[r]);
  if ((!left && leftNumber === null) || (!right && rightNumber === null)) return;
  const rightOperand = right ? { term: right.id } : { number: rightNumber ?? 0 };
  const prev = s.arithmetic.at(-1);
  const chained = prev && left && prev.end === left.end;
  const leftOperand = chained ? { node: prev.expr } : left ? { term: left.id } : { number: leftNumber ?? 0 };
  const expr: ArithmeticNode = { op, left: leftOperand, right: rightOperand };
  const start = chained ? prev.start : left ? left.start : i - 1;
  const end = right ? right.end : r + 1;
  if (chained) s.arithmetic.pop();
  s.arithmetic.push({ id: s.arithmetic.length, start, end, text: slice(s, start, end), expr, defines: [] });
  take(s, range(i, opEnd));
}

/**
 * Words an arithmetic defines: `revenue` in `total revenue (quantity times unit price)`, `where
 * revenue is quantity times unit price`, `revenue = …`.
 */
function definedWords(tokens: readonly Token[], a: ArithmeticLink, termAt: Map<number, TermLink>): string[] {
  const out: string[] = [];
  const s = a.start;
  const isFree = (k: number) =>
    tokens[k]?.kind === 'word' && !termAt.has(k) && !FUNCTION_WORDS.has(tokens[k]?.norm ?? '');
  if (tokens[s - 1]?.norm === '(' && isFree(s - 2)) out.push(tokens[s - 2]?.norm ?? '');
  const before = tokens[s - 1]?.norm ?? '';
  if ((before === 'is' || before === '=' || before === 'as' || before === 'means') && isFree(s - 2))
    out.push(tokens[s - 2]?.norm ?? '');
  if (before === 'as' && tokens[s - 2]?.norm === 'defined' && isFree(s - 4)) out.push(tokens[s - 4]?.norm ?? '');
  return out.filter(Boolean);
}
