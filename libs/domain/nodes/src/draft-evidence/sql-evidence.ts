import type { Links } from '@nl2p/linking';
import {
  buildStructure,
  HARD_KEYWORDS,
  isSymbol,
  isWord,
  lowerWord,
  significant,
  tokenize,
  type Structure,
  type Token,
} from '@nl2p/sql-guard';
import { evidenced, NO_FACTS, type ConditionFacts } from './judge';
import { leftOut, orphanQuestion, type GroundedDraft } from './plan-evidence';
import type { RequestEvidence } from './request-evidence';

/** A clause holding row or group conditions: its keyword, and its conjuncts as token ranges. */
interface ConditionClause {
  kind: 'where' | 'having' | 'on';
  keyword: number;
  parts: [number, number][];
}

/** Words that end a WHERE or HAVING clause at its own depth. */
const CLAUSE_ENDS = new Set([
  'group',
  'having',
  'order',
  'limit',
  'offset',
  'window',
  'qualify',
  'union',
  'intersect',
  'except',
  'fetch',
  'returning',
]);
/** Words that also end a join's ON clause (the next join, or the WHERE after the joins). */
const ON_ENDS = new Set([...CLAUSE_ENDS, 'join', 'left', 'right', 'inner', 'full', 'cross', 'natural', 'where']);

/**
 * The model's SQL without the conditions (WHERE and HAVING parts, a join's extra ON condition)
 * and the LIMIT the request gives no evidence for (issue 23), cut out of the text it wrote; the
 * same judgement as `groundModelPlan` (see there why removal is the default, and when it asks).
 * Read with the guard's lexer and bracket structure, at every depth (a sub-query's WHERE too).
 * `columns`: every column name of the catalog, lower-cased (what tells a column from an alias).
 */
export function groundModelSql(
  sql: string,
  ev: RequestEvidence,
  links: Links,
  columns: ReadonlySet<string>,
): GroundedDraft<string> {
  const lexed = tokenize(sql);
  if (lexed.problems.length) return { kind: 'kept', draft: sql, assumptions: [] };
  const s = buildStructure(significant(lexed.tokens));
  if (s.problems.length) return { kind: 'kept', draft: sql, assumptions: [] };
  const cuts: [number, number][] = [];
  const removed: string[] = [];
  const droppedColumns = new Set<string>();
  for (const clause of conditionClauses(s)) {
    const dropped = clause.parts.filter(
      ([a, b]) => !isKeyEquality(s, a, b, columns) && !evidenced(sqlFacts(s, a, b, columns), ev),
    );
    if (!dropped.length) continue;
    // A join's ON keeps its key: with none there, nothing can be cut from it, and the turn asks.
    if (dropped.length === clause.parts.length && clause.kind === 'on') {
      const question = orphanQuestion(
        ['the join'],
        dropped.map(([a, b]) => textOf(sql, s, a, b)),
      );
      return { kind: 'ask', question, draft: sql, assumptions: [] };
    }
    for (const [a, b] of dropped) {
      removed.push(textOf(sql, s, a, b));
      for (const c of sqlFacts(s, a, b, columns).columns) droppedColumns.add(c);
    }
    cuts.push(...clauseCuts(clause, dropped));
  }
  const limit = unaskedLimit(s, links, ev);
  if (!cuts.length && !limit) return { kind: 'kept', draft: sql, assumptions: [] };
  if (limit) cuts.push(limit.cut);
  const kept = cutText(sql, s, cuts);
  const orphaned = orphanedTerms(links, droppedColumns, kept);
  const assumptions = leftOut(removed, limit?.text ?? null);
  if (orphaned.length && removed.length)
    return { kind: 'ask', question: orphanQuestion(orphaned, removed), draft: kept, assumptions };
  return { kind: 'kept', draft: kept, assumptions };
}

/** Every WHERE, HAVING and ON clause, at any depth, with its conjuncts. */
function conditionClauses(s: Structure): ConditionClause[] {
  const out: ConditionClause[] = [];
  s.toks.forEach((t, i) => {
    const word = lowerWord(t);
    if (word !== 'where' && word !== 'having' && word !== 'on') return;
    // `SELECT DISTINCT ON (…)` (PostgreSQL) names columns, not a condition.
    if (word === 'on' && isWord(s.toks[i - 1], 'distinct')) return;
    const end = clauseEnd(s, i, word === 'on' ? ON_ENDS : CLAUSE_ENDS);
    if (end > i + 1) out.push({ kind: word, keyword: i, parts: conjunctRanges(s, i + 1, end) });
  });
  return out;
}

function clauseEnd(s: Structure, keyword: number, ends: ReadonlySet<string>): number {
  const d = s.depth[keyword];
  let i = keyword + 1;
  while (i < s.toks.length && s.depth[i] >= d) {
    const t = s.toks[i];
    if (s.depth[i] === d && (ends.has(lowerWord(t)) || isSymbol(t, ',') || isSymbol(t, ';'))) break;
    i++;
  }
  return i;
}

/** `[from, to)` split at its own depth's ANDs, the AND of a `BETWEEN … AND …` excepted. */
function conjunctRanges(s: Structure, from: number, to: number): [number, number][] {
  const d = s.depth[from];
  const parts: [number, number][] = [];
  let start = from;
  let between = false;
  for (let i = from; i < to; i++) {
    if (s.depth[i] !== d) continue;
    if (isWord(s.toks[i], 'between')) between = true;
    else if (isWord(s.toks[i], 'and')) {
      if (between) between = false;
      else {
        parts.push([start, i]);
        start = i + 1;
      }
    }
  }
  parts.push([start, to]);
  return parts;
}

/** `a.x = b.y`: a join key (in ON, or an old-style join in WHERE), never judged. */
function isKeyEquality(s: Structure, a: number, b: number, columns: ReadonlySet<string>): boolean {
  const eq = s.toks.slice(a, b).findIndex((t) => t.text === '=');
  if (eq < 0) return false;
  const left = s.toks.slice(a, a + eq);
  const right = s.toks.slice(a + eq + 1, b);
  return isColumnName(left, columns) && isColumnName(right, columns);
}

function isColumnName(toks: readonly Token[], columns: ReadonlySet<string>): boolean {
  const last = toks.at(-1);
  if (!last || (last.kind !== 'word' && last.kind !== 'quoted') || !columns.has(last.value.toLowerCase())) return false;
  return toks.length === 1 || (toks.length === 3 && isSymbol(toks[1], '.'));
}

/** The facts of the condition in `[a, b)`, for the judge. */
export function sqlFacts(s: Structure, a: number, b: number, columns: ReadonlySet<string>): ConditionFacts {
  const f: ConditionFacts = { ...NO_FACTS, columns: [], strings: [], numbers: [], dates: [], subqueryTables: [] };
  for (let i = a; i < b; i++) {
    const t = s.toks[i];
    const word = lowerWord(t);
    if (isColumn(s, i, columns)) f.columns.push(t.value.toLowerCase());
    else if (word === 'true' || word === 'false') f.boolean = true;
    else if (word === 'null' && (isWord(s.toks[i - 1], 'is') || isWord(s.toks[i - 2], 'is'))) f.nullTest = true;
    // veloFlux spells the test as a function: `isnull(x)`.
    else if (word === 'isnull' && isSymbol(s.toks[i + 1], '(')) f.nullTest = true;
    else if ((word === 'from' || word === 'join') && s.toks[i + 1]) f.subqueryTables.push(tableAfter(s, i + 1));
    else if ((t.kind === 'string' || t.kind === 'number') && !insideCall(s, i)) literalFact(s, i, f);
  }
  return f;
}

function literalFact(s: Structure, i: number, f: ConditionFacts): void {
  const t = s.toks[i];
  if (t.kind === 'number') f.numbers.push(Number(t.text));
  else if (/^\d{4}-\d{2}-\d{2}/.test(t.value) || isWord(s.toks[i - 1], 'interval')) f.dates.push(t.value);
  else f.strings.push(t.value);
}

function isColumn(s: Structure, i: number, columns: ReadonlySet<string>): boolean {
  const t = s.toks[i];
  if (t.kind !== 'word' && t.kind !== 'quoted') return false;
  if (t.kind === 'word' && HARD_KEYWORDS.has(t.text.toLowerCase())) return false;
  if (isSymbol(s.toks[i + 1], '(') || isSymbol(s.toks[i + 1], '.')) return false;
  return columns.has(t.value.toLowerCase());
}

/** The last part of the (possibly qualified) table name starting at `i`. */
function tableAfter(s: Structure, i: number): string {
  let k = i;
  while (isSymbol(s.toks[k + 1], '.') && s.toks[k + 2]) k += 2;
  return s.toks[k].value.toLowerCase();
}

/**
 * Inside a function call's brackets (`date_part('year', …)`, `round(x, 2)`): the function's own
 * arguments, not values compared with data. `IN (…)` and `CAST(… AS …)` are not calls.
 */
function insideCall(s: Structure, i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    if (s.depth[j] < s.depth[i] && isSymbol(s.toks[j], '(') && s.partner[j] > i) {
      const before = s.toks[j - 1];
      return before?.kind === 'word' && !HARD_KEYWORDS.has(before.text.toLowerCase()) && !isWord(before, 'cast');
    }
  }
  return false;
}

/** Token ranges to cut for the dropped conjuncts: each with one AND beside it, or the whole clause. */
function clauseCuts(clause: ConditionClause, dropped: [number, number][]): [number, number][] {
  if (dropped.length === clause.parts.length) return [[clause.keyword, clause.parts.at(-1)![1]]];
  const keptFirst = clause.parts.findIndex((p) => !dropped.includes(p));
  return dropped.map(([a, b]) => {
    const index = clause.parts.findIndex((p) => p[0] === a);
    // Before the first kept part, the AND after a dropped part goes with it; after, the one before.
    return index < keptFirst ? [a, b + 1] : [a - 1, b];
  });
}

/** A top-level `LIMIT n [OFFSET m]` the request did not ask for (no order, no rank, not the number). */
function unaskedLimit(s: Structure, links: Links, ev: RequestEvidence): { cut: [number, number]; text: string } | null {
  const i = s.toks.findIndex((t, k) => s.depth[k] === 0 && isWord(t, 'limit'));
  const n = s.toks[i + 1];
  if (i < 0 || n?.kind !== 'number') return null;
  if (links.orders.length > 0 || ev.numbers.has(Number(n.text))) return null;
  const offset = isWord(s.toks[i + 2], 'offset') && s.toks[i + 3]?.kind === 'number' ? 2 : 0;
  return { cut: [i, i + 2 + offset], text: `LIMIT ${n.text}` };
}

/** The SQL with the token ranges cut out (ranges may touch, never cross). */
function cutText(sql: string, s: Structure, cuts: [number, number][]): string {
  const spans = cuts.map(([a, b]) => [s.toks[a].start, s.toks[b - 1].end] as const).sort((x, y) => y[0] - x[0]);
  let out = sql;
  for (const [start, end] of spans) out = out.slice(0, start) + out.slice(end);
  return out
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/\s+;/g, ';')
    .trim();
}

function textOf(sql: string, s: Structure, a: number, b: number): string {
  return sql.slice(s.toks[a].start, s.toks[b - 1].end).replace(/\s+/g, ' ');
}

/** Words of the request whose only use in the SQL was a condition that was cut out. */
function orphanedTerms(links: Links, droppedColumns: ReadonlySet<string>, kept: string): string[] {
  const names = new Set(
    significant(tokenize(kept).tokens).flatMap((t) =>
      t.kind === 'word' || t.kind === 'quoted' || t.kind === 'string' ? [t.value.toLowerCase()] : [],
    ),
  );
  return links.terms
    .filter((t) => [...t.columns, ...t.values].some((c) => droppedColumns.has(c.column.toLowerCase())))
    .filter(
      (t) =>
        !t.columns.some((c) => names.has(c.column.toLowerCase())) &&
        !t.tables.some((c) => names.has(c.table.toLowerCase())) &&
        !t.values.some((v) => names.has(v.value.toLowerCase())),
    )
    .map((t) => t.text);
}
