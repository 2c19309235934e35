import type { Aggregate, ColumnRef, Condition, ValueExpr } from '@nl2p/query-plan';
import { isKeyColumn, ownKey } from '../schema-index';
import { singular } from '../text';
import type { AggregateLink, ArithmeticNode, ComparisonLink, TermLink } from '../types';
import { doubt, isTableMention, join, keyFor, matchKind, ref, resolve, term, ties, use } from './lookup';
import { OPPOSITE, type ReadingState, type Resolved } from './state';

/** The plan's expressions for what the links say: arithmetic, aggregates, comparisons. */

/** The expression an arithmetic says, its terms resolved to numeric columns; null when one is not found. */
export function exprOf(s: ReadingState, n: ArithmeticNode): ValueExpr | null {
  if (n.elapsed) return elapsedOf(s, n);
  const side = (x: ArithmeticNode['left']): ValueExpr | null => {
    if ('number' in x) return { kind: 'number', value: x.number };
    if ('node' in x) return exprOf(s, x.node);
    const t = term(s, x.term);
    const r = t && (resolve(s, t, { numeric: true }) ?? resolve(s, t));
    if (!r) return null;
    use(s, t);
    return { kind: 'column', ref: ref(s, r) };
  };
  const left = side(n.left);
  const right = side(n.right);
  return left && right ? { kind: 'arith', op: n.op, left, right } : null;
}

/**
 * `the number of days between the sale date and the payment date`: the time from the right
 * operand's date or time column to the left one's (each joined if need be), or from the start
 * to the end column one word names both of. Null when a side names no date or time column.
 */
function elapsedOf(s: ReadingState, n: ArithmeticNode): ValueExpr | null {
  const e = n.elapsed;
  if (!e) return null;
  if (e.columns) {
    const { table, from, to } = e.columns;
    if (!join(s, table)) return null;
    const ref = (column: string) => (table === s.source ? { column } : { table, column });
    return { kind: 'elapsed', unit: e.unit, from: ref(from), to: ref(to) };
  }
  const side = (x: ArithmeticNode['left'], table?: string) =>
    'term' in x ? timeColumnOf(s, term(s, x.term), table) : null;
  const to = side(n.left, e.tables?.to);
  const from = side(n.right, e.tables?.from);
  return to && from ? { kind: 'elapsed', unit: e.unit, from, to } : null;
}

/** The date or time column a term names best (of `table` when its words named one), its table joined when it is not in scope yet. */
function timeColumnOf(s: ReadingState, t: TermLink | undefined, table?: string): ColumnRef | null {
  if (!t) return null;
  const temporal = t.columns
    .map((c) => ({ c, info: s.index.table(c.table)?.columns.find((x) => x.label === c.label) }))
    .filter((x) => x.info?.temporal && (!table || x.c.table === table))
    .sort((a, b) => Number(s.scope.includes(b.c.table)) - Number(s.scope.includes(a.c.table)) || b.c.score - a.c.score);
  const best = temporal[0];
  if (!best?.info || !join(s, best.c.table)) return null;
  use(s, t);
  return ref(s, { table: best.c.table, info: best.info, score: best.c.score });
}

/**
 * The aggregate an aggregate link says. Null: nothing to take it of (a doubt for the caller).
 * Undefined: a `total` with nothing after it, which only stresses (`in total`).
 */
export function aggregateOf(s: ReadingState, a: AggregateLink): Aggregate | null | undefined {
  const target = a.target;
  if (target && 'arithmetic' in target) {
    const arith = s.links.arithmetic[target.arithmetic];
    const expr = arith && exprOf(s, arith.expr);
    if (!expr) return null;
    return { fn: a.fn === 'count' ? 'sum' : a.fn, arg: expr, distinct: false };
  }
  const t = target ? term(s, target.term) : undefined;
  if (a.fn === 'count') return countOf(s, a, t);
  if (!t) return a.fn === 'sum' ? undefined : null;
  const r = resolve(s, t, { measure: true }) ?? resolve(s, t);
  if (!r) return null;
  use(s, t);
  const tied = ties(s, t);
  if (tied.length > 1) doubt(s, `"${t.text}" could be ${tied.join(' or ')}`);
  if (!r.info.numeric && !r.info.temporal) doubt(s, `${a.fn} of a non-numeric column`);
  // A key numbers rows: its sum or average is never what was asked (`total number of reviews`).
  if ((a.fn === 'sum' || a.fn === 'avg') && isKeyColumn(r.info))
    doubt(s, `"${t.text}" names the key ${r.info.label}: a ${a.fn} of identifiers means nothing`);
  return { fn: a.fn, arg: { kind: 'column', ref: ref(s, r) }, distinct: a.distinct };
}

/** A count: of rows, of distinct values, or (`how many units`) the sum of a measured amount. */
function countOf(s: ReadingState, a: AggregateLink, t: ReturnType<typeof term>): Aggregate {
  if (!t) return { fn: 'count', arg: null, distinct: false };
  const table = isTableMention(s, t);
  if (a.distinct) {
    const r = resolve(s, t) ?? (table ? (keyFor(s, table) ?? joinedSourceKey(s, table)) : null);
    use(s, t);
    if (r) return { fn: 'count', arg: { kind: 'column', ref: ref(s, r) }, distinct: true };
  }
  if (table || a.countsRows) {
    use(s, t);
    if (table && table !== s.source && !s.scope.includes(table)) return countReferenced(s, t, table);
    return { fn: 'count', arg: null, distinct: false };
  }
  // `how many units`: a count of a measured amount is its sum.
  const r = resolve(s, t);
  use(s, t);
  if (r?.info.numeric && !isKeyColumn(r.info))
    return { fn: 'sum', arg: { kind: 'column', ref: ref(s, r) }, distinct: false };
  if (!r) return { fn: 'count', arg: null, distinct: false };
  // `how many cities` of a column named so: each city once, not the rows that have one.
  const kind = matchKind(t, r);
  const distinct = r.info.text && !isKeyColumn(r.info) && (kind === 'exact' || kind === 'plural');
  if (distinct) s.readings.push(`"${t.text}" is counted as the distinct values of ${r.info.label}`);
  return { fn: 'count', arg: { kind: 'column', ref: ref(s, r) }, distinct };
}

/**
 * `the number of authors of each paper` read from `writes`: another table's rows, counted by the
 * source's column that refers to them (`count(DISTINCT writes.authorid)`), each one once however
 * many rows of the source name it. With no such column, a doubt: the rows are not related.
 */
function countReferenced(s: ReadingState, t: TermLink, table: string): Aggregate {
  const key = keyFor(s, table);
  if (!key) {
    doubt(s, `counting ${table} from ${s.source}`);
    return { fn: 'count', arg: null, distinct: false };
  }
  const said = `"${t.text}" is counted as the distinct ${key.info.label} of ${key.table}`;
  if (!s.readings.includes(said)) s.readings.push(said);
  return { fn: 'count', arg: { kind: 'column', ref: ref(s, key) }, distinct: true };
}

/**
 * `the number of unique keyphrases associated with papers …`: the source's rows counted through
 * joins that may repeat them, said distinct, are counted by the source's own key (a row joined
 * to three papers is one keyphrase). Null without joins (each row is one) or without an own key.
 */
function joinedSourceKey(s: ReadingState, table: string): Resolved | null {
  if (table !== s.source || !s.joins.size) return null;
  const src = s.index.table(table);
  const key = src && ownKey(src, singular);
  return src && key ? { table: src.name, info: key, score: 1 } : null;
}

/** The terms an arithmetic reads. */
export function termsOf(n: ArithmeticNode): number[] {
  const side = (x: ArithmeticNode['left']): number[] => ('term' in x ? [x.term] : 'node' in x ? termsOf(x.node) : []);
  return [...side(n.left), ...side(n.right)];
}

export function sameAggregate(a: Aggregate, b: Aggregate): boolean {
  return a.fn === b.fn && !!a.distinct === !!b.distinct && JSON.stringify(a.arg) === JSON.stringify(b.arg);
}

/** The distinct columns the aggregates take a value of (count excluded): what a request measures. */
export function measuresOf(aggregates: readonly Aggregate[]): ColumnRef[] {
  const out: ColumnRef[] = [];
  for (const a of aggregates) {
    if (a.fn === 'count' || a.arg?.kind !== 'column') continue;
    const r = a.arg.ref;
    if (!out.some((x) => x.table === r.table && x.column === r.column)) out.push(r);
  }
  return out;
}

/** The condition a comparison says, the opposite one when it names rows to leave out. */
export function comparisonCondition(c: ComparisonLink, col: ColumnRef): Condition {
  const said: Condition =
    c.op === 'between'
      ? {
          kind: 'between',
          column: col,
          low: { kind: 'number', value: c.value },
          high: { kind: 'number', value: c.high ?? c.value },
        }
      : { kind: 'compare', left: { kind: 'column', ref: col }, op: c.op, value: { kind: 'number', value: c.value } };
  if (!c.excluded) return said;
  if (said.kind === 'compare') return { ...said, op: OPPOSITE[said.op] };
  return { kind: 'not', condition: said };
}
