import type { Column } from '@nl2p/envelope';
import { HARD_KEYWORDS, SOFT_KEYWORDS, VELOFLUX_WINDOWS } from '../keywords';
import { isSymbol, isWord, type Token } from '../lexer';
import {
  endsOperand,
  isIdentifier,
  isStringPrefix,
  isWordBy,
  lowerWord,
  nameOf,
  spacedText,
  splitItems,
  compactText,
  type Structure,
} from '../structure';
import type { Grounding } from '../types';

/**
 * The analysis step of the veloFlux check: one pass over a SELECT's tokens that finds its clauses,
 * its source, its SELECT items and aliases, its windows and function calls, and resolves every name
 * against the grounding (a column and its struct fields, the stream, an alias, or nothing). It
 * reports nothing: the rules in `rules/` read these facts and say what is wrong.
 */
export interface VelofluxQuery {
  readonly s: Structure;
  readonly toks: readonly Token[];
  readonly g: Grounding;
  /** The clause each token belongs to (depth-0 keywords switch it). */
  readonly clauseAt: readonly Clause[];
  /** Index of the keyword that opens each clause present (its first occurrence). */
  readonly clauseStart: ReadonlyMap<Clause, number>;
  /** Depth-0 words that open a clause or stand where one would (`UNION`, `WINDOW`, `LIMIT`). */
  readonly clauseWords: readonly { index: number; word: string }[];
  /** `[from, to)` of a clause's content, after its keyword(s). */
  contentRange(clause: Clause): [number, number] | undefined;
  /** Streams the grounding knows (the FROM check is skipped when there are none). */
  readonly knownStreams: readonly string[];
  readonly source: Source;
  /** The stream the query reads, when FROM names one. */
  readonly streamName?: string;
  /** How that stream relates to the grounding. */
  readonly streamStatus: StreamStatus;
  /** Names that mean the stream in `x.column`: its name and its alias. */
  readonly streamNames: ReadonlySet<string>;
  /** Columns names resolve against; undefined when unknown (no check). */
  readonly columns?: readonly Column[];
  /** Whether a token is walked: everything but the inside of an accepted subquery in FROM. */
  walked(i: number): boolean;
  readonly select: SelectList;
  readonly windows: readonly Call[];
  /** Windows written as GROUP BY keys at the top level (the only place they belong). */
  readonly groupWindows: readonly Call[];
  /** Inside the arguments of a window call (or of its OVER clause). */
  inWindowArgs(i: number): boolean;
  readonly catalog: Catalog;
  /** Function calls (a word before `(`) the walk reached, in order. */
  readonly calls: readonly Call[];
  /** An aggregate from the catalog is called somewhere (unqualified). */
  readonly hasAggregate: boolean;
  /** Hard keywords the walk reached, lowercased. */
  readonly keywords: readonly { index: number; word: string }[];
  /** Operator tokens the walk reached. */
  readonly operators: readonly number[];
  /** Every name the walk resolved, in order. */
  readonly refs: readonly NameRef[];
}

export type Clause = 'select' | 'from' | 'where' | 'group' | 'having' | 'order' | 'limit' | 'other';

/** What FROM holds. */
export type Source =
  | { kind: 'missing' }
  | { kind: 'empty'; at: number }
  | { kind: 'string'; at: number; value: string }
  | { kind: 'other'; at: number; text: string }
  /** `(SELECT … FROM s) t`: planned as the outer query over `s`; `stream` absent when it is not that shape. */
  | { kind: 'subquery'; at: number; stream?: string }
  | {
      kind: 'stream';
      at: number;
      name: string;
      quoted: boolean;
      /** `a.b` written where a plain stream name belongs. */
      dotted?: string;
      alias?: string;
      /** Index of the first JOIN word or comma after the source. */
      joinAt?: number;
    };

/** How the stream in FROM relates to the grounding. */
export type StreamStatus = 'unchecked' | 'grounded' | 'unknown' | 'other-with-columns' | 'other-without-columns';

export interface SelectList {
  /** `DISTINCT` right after SELECT (its token index). */
  distinctAt?: number;
  /** Item ranges `[start, end)`, aliases excluded. */
  items: readonly [number, number][];
  /** Every alias in order, with its token index. */
  aliases: readonly { name: string; index: number }[];
  names: ReadonlySet<string>;
}

export interface Catalog {
  /** The grounding has functions, so unknown ones can be reported. */
  checked: boolean;
  names: ReadonlySet<string>;
  aggregates: ReadonlySet<string>;
}

export interface Call {
  index: number;
  /** Lowercased. */
  name: string;
  clause: Clause;
  /** Index of the `(` and of its partner `)` (-1 when unbalanced). */
  open: number;
  close: number;
  /** Written after a `.` (`x.f(…)`). */
  qualified: boolean;
}

/** A name the walk resolved. */
export type NameRef =
  | { kind: 'column'; index: number; column: Column; chain: readonly ChainFact[] }
  | { kind: 'unknown-column'; index: number; token: Token }
  | { kind: 'alias'; index: number; name: string; clause: Clause; inWindowArgs: boolean }
  | { kind: 'typed-literal'; index: number; word: string; literal: string }
  /** `a.b.c`: more parts than stream.column. */
  | { kind: 'too-many-parts'; index: number; text: string; member: string; field: string }
  /** `col.field` where `col` is a column: dot syntax means stream.column. */
  | { kind: 'dot-on-column'; index: number; text: string; column: string; member: string }
  | { kind: 'unknown-qualifier'; index: number; text: string; qualifier: string };

/** What walking `a->b[0]->c` after a column found. */
export type ChainFact =
  | { kind: 'arrow-without-field'; at: number; path: string }
  | { kind: 'unknown-field'; at: number; path: string; field: string; fields: readonly string[] }
  | { kind: 'not-a-struct'; at: number; path: string; type: string; field: string }
  | { kind: 'negative-index'; at: number; path: string; index: string }
  /** `a->b > 1`: everything after `->` is read as the field, so the access needs parentheses. */
  | { kind: 'unparenthesized'; at: number; path: string; operator: string };

const JOIN_WORDS: ReadonlySet<string> = new Set([
  'join',
  'inner',
  'left',
  'right',
  'full',
  'outer',
  'cross',
  'natural',
]);

/** Operators after which an unparenthesized `a->b` swallows the rest as its field expression. */
const BINARY_OPERATORS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '||', '==']);
const BINARY_WORDS = new Set(['and', 'or', 'is', 'in', 'not', 'between', 'like', 'ilike', 'similar']);

export function findColumn(columns: readonly Column[], name: string): Column | undefined {
  return columns.find((c) => c.name === name);
}

export function typeOf(col: Column): string {
  return col.data_type.toLowerCase();
}

/** A column of the grounded stream (or of another known stream) is called `word`. */
export function isColumnName(g: Grounding, word: string): boolean {
  return [g.columns, ...Object.values(g.columnsByTable ?? {})].some((cols) =>
    cols.some((c) => c.name.toLowerCase() === word),
  );
}

export function analyzeVeloflux(s: Structure, g: Grounding): VelofluxQuery {
  const toks = s.toks;
  const n = toks.length;

  // ---- clauses at depth 0 ----------------------------------------------------------------------
  const clauseAt: Clause[] = [];
  const clauseStart = new Map<Clause, number>();
  const clauseWords: { index: number; word: string }[] = [];
  let current: Clause = 'select';
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (s.depth[i] === 0 && t.kind === 'word') {
      const lower = t.text.toLowerCase();
      let next: Clause | undefined;
      if (lower === 'select') next = 'select';
      else if (lower === 'from') next = 'from';
      else if (lower === 'where') next = 'where';
      else if (isWordBy(toks, i, 'group')) next = 'group';
      else if (lower === 'having') next = 'having';
      else if (isWordBy(toks, i, 'order')) next = 'order';
      else if (lower === 'limit' || lower === 'offset' || lower === 'fetch') next = 'limit';
      else if (lower === 'union' || lower === 'intersect' || lower === 'except') next = 'other';
      // A column may be called `window` (the engine accepts `SELECT window FROM s`).
      else if ((lower === 'window' || lower === 'qualify') && !isColumnName(g, lower)) next = 'other';
      if (next) {
        current = next;
        clauseWords.push({ index: i, word: lower });
        if (!clauseStart.has(next)) clauseStart.set(next, i);
      }
    }
    clauseAt.push(current);
  }
  const contentRange = (clause: Clause): [number, number] | undefined => {
    const start = clauseStart.get(clause);
    if (start === undefined) return undefined;
    const from = start + (clause === 'group' || clause === 'order' ? 2 : 1);
    let to = from;
    while (to < n && clauseAt[to] === clause) to++;
    return [from, to];
  };

  // ---- FROM: the source ------------------------------------------------------------------------
  const knownStreams = [...new Set([...g.streams, ...(g.stream ? [g.stream] : [])])];
  const consumed = new Set<number>();
  let source: Source = { kind: 'missing' };
  let streamName: string | undefined;
  let fromAlias: string | undefined;
  /** Token range of an accepted `(SELECT … FROM s) alias` in FROM: not walked further. */
  let skipped: [number, number] | null = null;
  let columns: readonly Column[] | undefined = g.columns.length > 0 ? g.columns : undefined;
  const from = contentRange('from');
  if (from) {
    const [start, end] = from;
    const head = toks[start];
    if (start >= end || !head) {
      source = { kind: 'empty', at: start - 1 };
    } else if (isSymbol(head, '(')) {
      // The engine accepts `FROM (SELECT … FROM s) t` but plans it as the outer query over `s`:
      // the subquery's column list is dropped (recorded exchanges, probe_subquery_from).
      const close = s.partner[start] ?? end;
      const innerFrom = toks.findIndex(
        (t, j) => j > start && j < close && s.depth[j] === (s.depth[start] ?? 0) + 1 && isWord(t, 'from'),
      );
      const inner = innerFrom >= 0 ? toks[innerFrom + 1] : undefined;
      if (!isWord(toks[start + 1], 'select') || !inner || (inner.kind !== 'word' && inner.kind !== 'quoted')) {
        source = { kind: 'subquery', at: start };
      } else {
        streamName = nameOf(inner);
        source = { kind: 'subquery', at: start, stream: streamName };
        skipped = [start, Math.min(end, close + (isIdentifier(toks[close + 1]) ? 2 : 1))];
      }
    } else if (head.kind === 'string') {
      source = { kind: 'string', at: start, value: head.value };
    } else if (head.kind === 'quoted' || head.kind === 'word') {
      streamName = nameOf(head);
      consumed.add(start);
      let k = start + 1;
      let dotted: string | undefined;
      if (isSymbol(toks[k], '.')) {
        dotted = spacedText(toks, start, Math.min(end, k + 2));
        consumed.add(k).add(k + 1);
        k += 2;
      }
      if (isWord(toks[k], 'as') && isIdentifier(toks[k + 1])) {
        fromAlias = nameOf(toks[k + 1]);
        consumed.add(k + 1);
        k += 2;
      } else if (k < end && isIdentifier(toks[k]) && !JOIN_WORDS.has(lowerWord(toks[k]))) {
        fromAlias = nameOf(toks[k]);
        consumed.add(k);
        k += 1;
      }
      let joinAt: number | undefined;
      for (let j = k; j < end; j++) {
        if (s.depth[j] !== 0) continue;
        const t = toks[j];
        if (isSymbol(t, ',') || (t.kind === 'word' && JOIN_WORDS.has(t.text.toLowerCase()))) {
          joinAt = j;
          // The other sources and the ON condition would only add noise to a query that must change.
          for (let r = j; r < end; r++) consumed.add(r);
          break;
        }
      }
      source = {
        kind: 'stream',
        at: start,
        name: streamName,
        quoted: head.kind === 'quoted',
        dotted,
        alias: fromAlias,
        joinAt,
      };
    } else {
      source = { kind: 'other', at: start, text: head.text };
    }
  }
  const streamStatus = resolveStream(g, knownStreams, streamName);
  if (streamStatus === 'other-with-columns' && streamName) columns = g.columnsByTable?.[streamName];
  // A subquery over another stream reads that stream's columns when they are known, else none.
  else if (streamStatus === 'other-without-columns')
    columns = source.kind === 'subquery' ? g.columnsByTable?.[streamName ?? ''] : undefined;
  const streamNames = new Set([...(streamName ? [streamName] : []), ...(fromAlias ? [fromAlias] : [])]);

  // ---- SELECT items and their aliases ------------------------------------------------------------
  const selectRange = contentRange('select');
  const aliases: { name: string; index: number }[] = [];
  const items: [number, number][] = [];
  let distinctAt: number | undefined;
  if (selectRange) {
    let from0 = selectRange[0];
    if (isWord(toks[from0], 'distinct')) distinctAt = from0++;
    else if (isWord(toks[from0], 'all')) from0++;
    for (const [a, b] of splitItems(s, from0, selectRange[1], 0)) {
      let exprEnd = b;
      let aliasIndex: number | undefined;
      if (b - a >= 3 && isWord(toks[b - 2], 'as') && isIdentifier(toks[b - 1])) {
        aliasIndex = b - 1;
        exprEnd = b - 2;
      } else if (b - a >= 2 && isIdentifier(toks[b - 1]) && endsOperand(toks[b - 2])) {
        aliasIndex = b - 1;
        exprEnd = b - 1;
      }
      items.push([a, exprEnd]);
      if (aliasIndex === undefined) continue;
      consumed.add(aliasIndex);
      aliases.push({ name: nameOf(toks[aliasIndex]), index: aliasIndex });
    }
  }
  const aliasNames = new Set(aliases.map((a) => a.name));

  // ---- the function catalog ----------------------------------------------------------------------
  const names = new Set<string>();
  const aggregates = new Set<string>();
  for (const f of g.functions) {
    for (const name of [f.name, ...(f.aliases ?? [])].map((x) => x.toLowerCase())) {
      names.add(name);
      if (f.kind === 'aggregate') aggregates.add(name);
    }
  }
  for (const w of VELOFLUX_WINDOWS) names.add(w);
  const catalog: Catalog = { checked: g.functions.length > 0, names, aggregates };

  // ---- window calls, first, so alias use inside their arguments is recognised during the walk ----
  const windows: Call[] = [];
  const windowRanges: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.kind !== 'word' || !isSymbol(toks[i + 1], '(') || isSymbol(toks[i - 1], '.')) continue;
    const lower = t.text.toLowerCase();
    if (!VELOFLUX_WINDOWS.has(lower)) continue;
    const close = s.partner[i + 1] ?? -1;
    if (close < 0) continue;
    windows.push({ index: i, name: lower, clause: clauseAt[i] ?? 'other', open: i + 1, close, qualified: false });
    windowRanges.push([i + 1, close]);
    if (isWord(toks[close + 1], 'over') && isSymbol(toks[close + 2], '(')) {
      windowRanges.push([close + 2, s.partner[close + 2] ?? close + 2]);
    }
  }
  // A prefix sum keeps the lookup O(1) however many windows.
  const insideWindow = new Array<number>(n + 1).fill(0);
  for (const [a, b] of windowRanges) {
    insideWindow[a + 1] = (insideWindow[a + 1] ?? 0) + 1;
    insideWindow[b] = (insideWindow[b] ?? 0) - 1;
  }
  for (let i = 1; i <= n; i++) insideWindow[i] = (insideWindow[i] ?? 0) + (insideWindow[i - 1] ?? 0);
  const inWindowArgs = (i: number): boolean => (insideWindow[i] ?? 0) > 0;
  const walked = (i: number): boolean => !(skipped && i >= skipped[0] && i < skipped[1]);

  // ---- the walk: every token once, every name resolved -------------------------------------------
  const calls: Call[] = [];
  const keywords: { index: number; word: string }[] = [];
  const operators: number[] = [];
  const refs: NameRef[] = [];
  let hasAggregate = false;

  /** Walks `a->b->c` and `a[0]` after a column at `i`; field names are consumed, index expressions walked. */
  const walkChain = (i: number, column: Column): ChainFact[] => {
    const facts: ChainFact[] = [];
    let cur: Column | undefined = column;
    let path = column.name;
    let j = i + 1;
    let arrows = 0;
    for (;;) {
      const t = toks[j];
      if (isSymbol(t, '->')) {
        arrows++;
        const field = toks[j + 1];
        if (!field || !(field.kind === 'word' || field.kind === 'quoted')) {
          facts.push({ kind: 'arrow-without-field', at: j, path });
          return facts;
        }
        consumed.add(j + 1);
        const fieldName = nameOf(field);
        if (cur) {
          const type = typeOf(cur);
          if (type === 'struct' && cur.fields) {
            const found: Column | undefined = cur.fields.find((f) => f.name === fieldName);
            if (!found) {
              facts.push({
                kind: 'unknown-field',
                at: j + 1,
                path,
                field: fieldName,
                fields: cur.fields.map((f) => f.name),
              });
            }
            cur = found;
          } else if (type !== 'struct') {
            facts.push({ kind: 'not-a-struct', at: j + 1, path, type, field: fieldName });
            cur = undefined;
          } else {
            cur = undefined;
          }
        }
        path = `${path}->${fieldName}`;
        j += 2;
        continue;
      }
      if (isSymbol(t, '[') && s.partner[j] > j) {
        const close = s.partner[j];
        if (isSymbol(toks[j + 1], '-') && toks[j + 2]?.kind === 'number' && j + 3 === close) {
          facts.push({ kind: 'negative-index', at: j, path, index: compactText(toks, j + 1, close) });
        }
        path = `${path}[${compactText(toks, j + 1, close)}]`;
        cur = cur && typeOf(cur) === 'list' ? cur.element : undefined;
        j = close + 1;
        continue;
      }
      break;
    }
    const after = toks[j];
    if (arrows > 0 && after) {
      const op = after.kind === 'operator' ? BINARY_OPERATORS.has(after.text) : BINARY_WORDS.has(lowerWord(after));
      if (op) facts.push({ kind: 'unparenthesized', at: j, path, operator: after.text });
    }
    return facts;
  };

  /** `x.y` at `i`: stream-qualified column, struct dot syntax, or an unknown qualifier. */
  const resolveQualified = (i: number): void => {
    const qualifier = toks[i];
    const qName = nameOf(qualifier);
    const member = toks[i + 2];
    consumed.add(i + 2);
    const text = spacedText(toks, i, Math.min(n, i + 3));
    if (isSymbol(toks[i + 3], '.')) {
      refs.push({
        kind: 'too-many-parts',
        index: i,
        text: spacedText(toks, i, Math.min(n, i + 5)),
        member: nameOf(member ?? qualifier),
        field: nameOf(toks[i + 4] ?? qualifier),
      });
      consumed.add(i + 4);
      return;
    }
    if (streamNames.has(qName)) {
      if (!member || isSymbol(member, '*') || (member.kind !== 'word' && member.kind !== 'quoted') || !columns) return;
      const column = findColumn(columns, nameOf(member));
      if (column) refs.push({ kind: 'column', index: i + 2, column, chain: walkChain(i + 2, column) });
      else refs.push({ kind: 'unknown-column', index: i + 2, token: member });
      return;
    }
    const asColumn = columns ? findColumn(columns, qName) : undefined;
    if (asColumn && member && (member.kind === 'word' || member.kind === 'quoted')) {
      refs.push({ kind: 'dot-on-column', index: i, text, column: qName, member: nameOf(member) });
      return;
    }
    refs.push({ kind: 'unknown-qualifier', index: i, text, qualifier: qName });
  };

  for (let i = 0; i < n; i++) {
    if (!walked(i)) continue;
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    const clause = clauseAt[i] ?? 'other';

    if (t.kind === 'operator') {
      operators.push(i);
      // A field after `)` or `]` (e.g. `(a->b)->c`): its base is not tracked, so skip the name.
      if (t.text === '->' && next && (next.kind === 'word' || next.kind === 'quoted')) consumed.add(i + 1);
      continue;
    }
    if (t.kind === 'word' && HARD_KEYWORDS.has(t.text.toLowerCase())) {
      keywords.push({ index: i, word: t.text.toLowerCase() });
      continue;
    }
    if ((t.kind !== 'word' && t.kind !== 'quoted') || consumed.has(i)) continue;

    if (isSymbol(next, '(')) {
      if (t.kind === 'word') {
        const name = t.text.toLowerCase();
        const qualified = isSymbol(prev, '.');
        calls.push({ index: i, name, clause, open: i + 1, close: s.partner[i + 1] ?? -1, qualified });
        if (!qualified && aggregates.has(name) && !VELOFLUX_WINDOWS.has(name)) hasAggregate = true;
      }
      continue;
    }
    if (isSymbol(prev, '.') || isSymbol(prev, '->')) continue;
    if (isWord(prev, 'as')) continue;
    if (endsOperand(prev)) continue; // an alias (`sum(a) total`) or a keyword-ish word (`'1' DAY`)
    if (isStringPrefix(t, next)) continue;
    if (isSymbol(next, '.')) {
      resolveQualified(i);
      continue;
    }
    const name = nameOf(t);
    const column = columns ? findColumn(columns, name) : undefined;
    if (column) {
      refs.push({ kind: 'column', index: i, column, chain: walkChain(i, column) });
      continue;
    }
    if (streamNames.has(name)) continue;
    if (aliasNames.has(name)) {
      refs.push({ kind: 'alias', index: i, name, clause, inWindowArgs: inWindowArgs(i) });
      continue;
    }
    if (t.kind === 'word') {
      if (['timestamp', 'date', 'time'].includes(lowerWord(t)) && next?.kind === 'string') {
        refs.push({ kind: 'typed-literal', index: i, word: t.text, literal: next.text });
        continue;
      }
      if (SOFT_KEYWORDS.has(lowerWord(t))) continue;
    }
    if (columns) refs.push({ kind: 'unknown-column', index: i, token: t });
  }

  return {
    s,
    toks,
    g,
    clauseAt,
    clauseStart,
    clauseWords,
    contentRange,
    knownStreams,
    source,
    streamName,
    streamStatus,
    streamNames,
    columns,
    walked,
    select: { distinctAt, items, aliases, names: aliasNames },
    windows,
    groupWindows: windows.filter((w) => clauseAt[w.index] === 'group' && s.depth[w.index] === 0),
    inWindowArgs,
    catalog,
    calls,
    hasAggregate,
    keywords,
    operators,
    refs,
  };
}

function resolveStream(g: Grounding, known: readonly string[], name: string | undefined): StreamStatus {
  if (name === undefined) return 'unchecked';
  if (known.length > 0 && !known.includes(name)) return 'unknown';
  if (g.stream && name !== g.stream) {
    const other = g.columnsByTable?.[name];
    return other && other.length > 0 ? 'other-with-columns' : 'other-without-columns';
  }
  return 'grounded';
}
