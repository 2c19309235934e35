import type { Condition, Literal } from '@nl2p/query-plan';
import type { EditRule } from '../edit';
import { columnNamed, withJoin } from '../clause-words';
import { allOf, columnOfCondition, conjuncts, refIn, sameColumn, tablesIn } from '../plan-walk';

/**
 * "only dev-01 and dev-03", "exclude dev-02", "only where quantity is at least 3": a condition on
 * the rows, kept beside the plan's others. Values of one column become a membership (negated when
 * said to be left out); an earlier membership or equality on that column is replaced, since
 * "only X" says which values are wanted now.
 *
 * Examples: `only dev-01 and dev-03` → device_id IN ('dev-01', 'dev-03'); `exclude dev-02` →
 * device_id NOT IN ('dev-02'); `only where quantity is at least 3` → quantity >= 3.
 */
export const addCondition: EditRule = {
  name: 'add-condition',
  apply(plan, clause, ctx) {
    const valued = clause.links.terms.filter((t) => t.values.length);
    if (valued.length) {
      const inPlan = tablesIn(plan);
      const first = valued[0]?.values.find((v) => inPlan.includes(v.table)) ?? valued[0]?.values[0];
      if (!first) return null;
      const values = valued
        .map((t) => t.values.find((v) => v.table === first.table && v.column === first.column))
        .filter((v) => v !== undefined);
      if (values.length !== valued.length) return null;
      const joined = inPlan.includes(first.table) ? plan : withJoin(plan, first.table, ctx);
      if (!joined) return null;
      const column = refIn(joined, first.table, first.column);
      const negated =
        valued.some((t) => t.negated) || /\b(except|exclude|excluding|without|not|no)\b/i.test(clause.text);
      const literals: Literal[] = values.map((v) => ({ kind: 'string', value: v.value }));
      const condition: Condition = { kind: 'in', column, values: literals, ...(negated ? { negated: true } : {}) };
      // "only X" says which values are wanted now: it replaces earlier ones on that column; a value
      // left out is one more condition beside them.
      const kept = conjuncts(joined.where).filter(
        (c) => !(isMembership(c) && sameOf(joined, c, column) && (!negated || isNegated(c))),
      );
      const said = `${first.column} ${negated ? 'not in' : 'in'} (${values.map((v) => `'${v.value}'`).join(', ')})`;
      return { plan: { ...joined, where: allOf([...kept, condition]) }, change: `only rows with ${said}` };
    }
    const comparison = clause.links.comparisons[0];
    if (!comparison || clause.links.comparisons.length > 1 || comparison.op === 'between' || comparison.aggregate)
      return null;
    const term = comparison.subject === null ? undefined : clause.links.terms.find((t) => t.id === comparison.subject);
    const named = term && columnNamed(plan, term, ctx);
    if (!named || named.joinable) return null;
    const condition: Condition = {
      kind: 'compare',
      left: { kind: 'column', ref: named.ref },
      op: comparison.op,
      value: { kind: 'number', value: comparison.value },
    };
    return {
      plan: { ...plan, where: allOf([...conjuncts(plan.where), condition]) },
      change: `only rows with ${named.column} ${comparison.op} ${comparison.value}`,
    };
  },
};

function isMembership(c: Condition): boolean {
  return c.kind === 'in' || (c.kind === 'compare' && (c.op === '=' || c.op === '!=') && c.value.kind === 'string');
}

function isNegated(c: Condition): boolean {
  return (c.kind === 'in' && c.negated === true) || (c.kind === 'compare' && c.op === '!=');
}

function sameOf(
  plan: Parameters<typeof sameColumn>[0],
  c: Condition,
  column: Parameters<typeof sameColumn>[1],
): boolean {
  const own = columnOfCondition(c);
  return !!own && sameColumn(plan, own, column);
}
