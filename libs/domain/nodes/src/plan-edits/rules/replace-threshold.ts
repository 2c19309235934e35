import type { CompareOp, Condition, QueryPlan } from '@nl2p/query-plan';
import type { EditRule } from '../edit';
import { firstColumn, numbersIn } from '../clause-words';
import { allOf, conjuncts, sameColumn } from '../plan-walk';

const REPLACING =
  /\b(instead|rather|threshold|limit|cut-?off|use|make( it)?|change|set|raise|lower|increase|decrease|to)\b/i;
const NOT_A_THRESHOLD = /\b(top|first|last|limit to|rows|sort|order)\b/i;
const OPS: [RegExp, CompareOp][] = [
  [/\b(at least|or more|no less than)\b|>=/i, '>='],
  [/\b(at most|or less|no more than)\b|<=/i, '<='],
  [/\b(above|over|more than|greater than|higher than|exceeds?)\b|>/i, '>'],
  [/\b(below|under|less than|lower than)\b|</i, '<'],
];

/**
 * "use 35 instead", "make the threshold 25", "above 40 degrees": the number of the plan's one
 * comparison (or of the one on the column named) becomes the new one; the old one does not stay.
 * An operator said with it replaces the old operator.
 *
 * Examples: `use 35 degrees instead` on temperature > 30 → temperature > 35; `at least 5` on
 * quantity > 3 → quantity >= 5.
 */
export const replaceThreshold: EditRule = {
  name: 'replace-threshold',
  apply(plan, clause, ctx) {
    const numbers = numbersIn(clause.text);
    const value = numbers[0];
    if (numbers.length !== 1 || value === undefined || NOT_A_THRESHOLD.test(clause.text)) return null;
    const op = OPS.find(([re]) => re.test(clause.text))?.[1] ?? null;
    if (!op && !REPLACING.test(clause.text)) return null;
    const named = firstColumn(plan, clause, ctx);
    const conditions = conjuncts(plan.where);
    const numeric = conditions
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => c.kind === 'compare' && c.value.kind === 'number' && c.left.kind === 'column')
      .filter(
        ({ c }) =>
          !named || (c.kind === 'compare' && c.left.kind === 'column' && sameColumn(plan, c.left.ref, named.ref)),
      );
    const having = plan.having.filter(() => !named);
    if (numeric.length + having.length !== 1) return null;
    const target = numeric[0];
    if (target && target.c.kind === 'compare') {
      const old = target.c;
      const replaced: Condition = { ...old, op: op ?? old.op, value: { kind: 'number', value } };
      const where = allOf(conditions.map((c, i) => (i === target.i ? replaced : c)));
      const column = old.left.kind === 'column' ? old.left.ref.column : 'the value';
      return {
        plan: { ...plan, where },
        change: `the threshold on ${column} is now ${replaced.op} ${value} (was ${old.op} ${old.value.value as number})`,
      };
    }
    const h = having[0];
    if (!h) return null;
    const next: QueryPlan = { ...plan, having: [{ ...h, op: op ?? h.op, value }] };
    return {
      plan: next,
      change: `the threshold on ${h.aggregate.fn} is now ${op ?? h.op} ${value} (was ${h.op} ${h.value})`,
    };
  },
};
