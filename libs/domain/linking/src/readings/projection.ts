import type { TermLink } from '../types';
import { exprOf, sameAggregate, termsOf } from './expressions';
import { findJoinPath } from '@nl2p/query-plan';
import { isKeyColumn, isYesNoColumn, type ColumnInfo } from '../schema-index';
import { keyedTables } from './join-key';
import { column, doubt, isTableMention, join, ref, resolve, ties, use } from './lookup';
import { isGrouped, type ReadingRule, type ReadingState, type Resolved } from './state';

/**
 * What the plan shows. Grouped: the keys, the bucket, the aggregates and an aggregate the order
 * sorts on. Otherwise: the noun a limit ranks, the columns the request lists (`show the time and
 * temperature`, a column fitting two equally is an ambiguity), and the arithmetic said (`quantity
 * times unit price`, named by the word it defines).
 */
export const projection: ReadingRule = {
  name: 'projection',
  apply(s) {
    if (s.aggregates.length || isGrouped(s)) aggregateProjection(s);
    else rowProjection(s);
    // `for each team, the name of its oldest player`: each row shows which group it tops.
    const shown = new Set(s.select.map((p) => (p.kind === 'value' ? JSON.stringify(p.expr) : '')));
    const per = (s.extreme?.per ?? [])
      .map((r) => ({ kind: 'value' as const, expr: { kind: 'column' as const, ref: r }, alias: null }))
      .filter((p) => !shown.has(JSON.stringify(p.expr)));
    if (s.select.length) s.select.unshift(...per);
  },
};

function aggregateProjection(s: ReadingState): void {
  for (const k of s.groupKeys)
    if (!s.unshownKeys.includes(k))
      s.select.push({ kind: 'value', expr: { kind: 'column', ref: ref(s, k) }, alias: null });
  if (s.timeBucket) s.select.push({ kind: 'bucket', alias: null });
  for (const a of s.aggregates) s.select.push({ kind: 'aggregate', aggregate: a.agg, alias: null });
  for (const o of s.orderBy) {
    const key = o.key;
    if (key.kind === 'aggregate' && !s.aggregates.some((a) => sameAggregate(a.agg, key.aggregate)))
      s.select.push({ kind: 'aggregate', aggregate: key.aggregate, alias: null });
  }
}

function rowProjection(s: ReadingState): void {
  const cols: Resolved[] = [];
  const push = (r: Resolved | null) => {
    if (r && !cols.some((c) => c.table === r.table && c.info.label === r.info.label)) cols.push(r);
  };
  const head = s.limitHead;
  if (head && !isTableMention(s, head.term)) {
    push(resolve(s, head.term));
    use(s, head.term);
  }
  for (const t of s.links.terms) {
    if (!t.projected || s.used.has(t.id) || t.values.length) continue;
    push(listedColumn(s, t));
  }
  for (const c of cols) s.select.push({ kind: 'value', expr: { kind: 'column', ref: ref(s, c) }, alias: null });
  for (const a of s.links.arithmetic) {
    const expr = exprOf(s, a.expr);
    if (expr) s.select.push({ kind: 'value', expr, alias: a.defines[0] ?? null });
  }
}

/** `host names`: a table said right before one of its columns names whose column it is. */
function qualifiesNext(s: ReadingState, t: TermLink, table: string): boolean {
  const next = s.links.terms.find((o) => o.start === t.end);
  return !!next && next.columns.some((c) => c.table === table && s.scope.includes(table));
}

/**
 * `the themes of parties`, `names of all stores`: a table said after `of` is whose column the
 * word before is, not one more thing to show (its key).
 */
function ownsPrevious(s: ReadingState, t: TermLink): boolean {
  const tokens = s.links.tokens.map((w) => w.toLowerCase());
  let k = t.start - 1;
  while (['the', 'a', 'an', 'all', 'each', 'every'].includes(tokens[k] ?? '')) k--;
  if (tokens[k] !== 'of') return false;
  const owned = s.links.terms.find((o) => o.end === k);
  return !!owned && owned.columns.length > 0 && !isTableMention(s, owned);
}

/**
 * `Find the papers which have … as an author`: another table's rows listed are shown by the one
 * column that names them (a `title` or a `name`), not by their key.
 */
function nameColumnOf(s: ReadingState, table: string): Resolved | null {
  const own = nameColumnOfTable(s, table);
  return own && s.scope.includes(table) ? { table, info: own, score: 1 } : null;
}

/** The one column of `table` whose name ends in `name` or `title`. */
export function nameColumnOfTable(s: ReadingState, table: string): ColumnInfo | undefined {
  const names = (s.index.table(table)?.columns ?? []).filter(
    (c) => c.text && !c.path.length && ['name', 'title'].includes(c.readings[0]?.words.at(-1) ?? ''),
  );
  return names.length === 1 ? names[0] : undefined;
}

/**
 * `the names of parties and their respective regions`: a table listed by its own name that the
 * source refers to by one key of its own is shown by that table's name column, joined, not by the
 * key (`region_id`). Only over a direct key and when the table has one name column.
 */
function namedThroughKey(s: ReadingState, table: string): Resolved | null {
  if (!s.source || s.scope.includes(table) || s.schema.streaming || !nameColumnOfTable(s, table)) return null;
  const path = findJoinPath(keyedTables(s.schema), s.source, [table]);
  if (!path || path.joins.length !== 1 || path.assumption) return null;
  return join(s, table) ? nameColumnOf(s, table) : null;
}

/** `with a company in banking`: said with `a`/`an`, some row of the table, not a thing to show. */
function saidIndefinite(s: ReadingState, t: TermLink): boolean {
  return ['a', 'an'].includes(s.links.tokens[t.start - 1]?.toLowerCase() ?? '');
}

/**
 * `Return the city and its GDP` over a table `city` with a text column `City`: the source said by
 * a name its own text column has too shows that column. Otherwise the source's name is no column.
 */
function spelledLikeItsTable(s: ReadingState, t: TermLink, table: string): Resolved | null {
  const own = t.columns.find((c) => c.table === table && (c.match === 'exact' || c.match === 'plural'));
  const info = own && column(s, own);
  if (!own || !info?.text || isKeyColumn(info)) return null;
  use(s, t);
  return { table, info, score: own.score };
}

/** The column a listed term shows, if it is one (not the source's name, an operand, or a concept). */
function listedColumn(s: ReadingState, t: TermLink): Resolved | null {
  if (t.negated && !isYesNoColumn(resolve(s, t)?.info)) {
    // `trips without tips`: a condition whose value is not said (0? no value at all?).
    doubt(s, `"${t.text}" said absent, with no value to compare`);
    use(s, t);
    return null;
  }
  if (s.links.arithmetic.some((a) => termsOf(a.expr).includes(t.id))) return null;
  const table = isTableMention(s, t);
  if (table && table === s.source) {
    const shown = !qualifiesNext(s, t, table) && !ownsPrevious(s, t) && !saidIndefinite(s, t);
    return shown ? spelledLikeItsTable(s, t, table) : null;
  }
  if (table && !t.columns.some((c) => s.scope.includes(c.table))) return null;
  if (table && (qualifiesNext(s, t, table) || ownsPrevious(s, t))) {
    use(s, t);
    return null;
  }
  if (t.columns.every((c) => c.match === 'concept')) return null;
  const saysTable = ['exact', 'plural'].includes(t.tables[0]?.match ?? '');
  const named = table ? (nameColumnOf(s, table) ?? (saysTable ? namedThroughKey(s, table) : null)) : null;
  if (named) {
    use(s, t);
    return named;
  }
  const r = resolve(s, t);
  if (!r) return null;
  const tied = ties(s, t);
  if (tied.length) s.ambiguous.push({ phrase: t.text, candidates: tied });
  use(s, t);
  return r;
}
