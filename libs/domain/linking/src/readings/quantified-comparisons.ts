import { parseQueryPlan, type Condition, type QueryPlanInput } from '@nl2p/query-plan';
import type { QuantifiedComparisonLink } from '../types';
import { column, doubt, isTableMention, ref, resolve, term, use } from './lookup';
import type { ReadingRule, ReadingState, Resolved } from './state';

/**
 * Comparisons with every member of a set (`employees older than every manager`, `books priced
 * above all books from Harbor Books`): the row's measure compared with each value of the same
 * measure in the set (`> ALL`, NULLs left aside by the compilers). The set is a table (every row
 * of it) or a value of a column (the rows holding it); the measure is the one said before the cue,
 * else the one the comparative evokes (`older` → age). `any` is a doubt: "older than any manager"
 * means every one to some people and at least one to others; so is a set that may be narrowed by
 * words after it (`every trip paid by cash`) or that is the compared table itself, unqualified.
 */
export const quantifiedComparisons: ReadingRule = {
  name: 'quantified-comparisons',
  apply(s) {
    for (const c of s.links.quantifiedComparisons) {
      const condition = conditionOf(s, c);
      if (condition) s.conditions.push(condition);
    }
  },
};

function conditionOf(s: ReadingState, c: QuantifiedComparisonLink): Condition | null {
  if (s.schema.streaming) return fail(s, c, 'a stream cannot be compared with a sub-query (veloFlux runs none)');
  if (c.quantifier === 'any') return fail(s, c, '"any" could mean every one or at least one');
  const compared = comparedMeasure(s, c);
  if (!compared) return fail(s, c, 'no measure is said to compare');
  const set = term(s, c.set);
  const plan = set && setPlan(s, c, compared);
  if (!set || !plan) return null;
  use(s, set);
  const where = set.values[0] ? ` with ${set.values[0].column} ${set.values[0].value}` : '';
  s.readings.push(
    `"${c.text}" is read as ${compared.info.column} ${c.op} every ${compared.info.column} of ${plan.source}${where}`,
  );
  return {
    kind: 'compare_subquery',
    left: { kind: 'column', ref: ref(s, compared) },
    op: c.op,
    quantifier: 'all',
    subquery: { plan: parseQueryPlan(plan), correlate: [] },
  };
}

/** The measure compared: said before the cue, else the comparative's column in scope. */
function comparedMeasure(s: ReadingState, c: QuantifiedComparisonLink): Resolved | null {
  const subject = c.subject !== null ? term(s, c.subject) : undefined;
  if (subject) {
    const r = resolve(s, subject, { measure: true }) ?? resolve(s, subject, { numeric: true });
    if (r) use(s, subject);
    return r;
  }
  const hinted = c.hinted.filter((h) => s.scope.includes(h.table) && column(s, h)?.numeric);
  const h = hinted[0];
  const info = h && column(s, h);
  if (hinted.length !== 1 || !h || !info) return null;
  return { table: h.table, info, score: h.score };
}

/** The set's rows and the same measure in them: a table's every row, or the rows holding a value. */
function setPlan(s: ReadingState, c: QuantifiedComparisonLink, compared: Resolved): QueryPlanInput | null {
  const set = term(s, c.set);
  if (!set) return null;
  const value = set.values[0];
  const table = value?.table ?? isTableMention(s, set);
  if (!table) return fail(s, c, `"${set.text}" names no table or value`);
  // Every row of the table compared is every row but itself too: which ones is not said.
  if (!value && table === s.source) return fail(s, c, `which ${set.text} is not said`);
  // A value or comparison said after the set may narrow it (`every trip paid by cash`): not read.
  const L = s.links;
  // The set's own noun after its value (`every cash trip`) says again which rows, nothing more.
  const ownNoun = L.terms.find((t) => t.start === c.end && value && !t.values.length && t.tables[0]?.table === table);
  const narrowed = [L.terms, L.comparisons, L.textMatches, L.unlinked].some((spans) =>
    spans.some((x: { start: number }) => x.start >= c.end && x !== ownNoun),
  );
  use(s, ownNoun);
  if (narrowed) return fail(s, c, `what is said after "${set.text}" may narrow the set, which is not read`);
  const same = s.index.table(table)?.columns.find((x) => x.column.toLowerCase() === compared.info.column.toLowerCase());
  if (!same) return fail(s, c, `${table} has no ${compared.info.column}`);
  return {
    source: table,
    select: [{ kind: 'value', expr: { kind: 'column', ref: { column: same.column } } }],
    where: value
      ? {
          kind: 'compare',
          left: { kind: 'column', ref: { column: value.column } },
          op: '=',
          value: { kind: 'string', value: value.value },
        }
      : null,
  };
}

function fail(s: ReadingState, c: QuantifiedComparisonLink, why: string): null {
  doubt(s, `"${c.text}" compares with every member of a set, but ${why}`);
  return null;
}
