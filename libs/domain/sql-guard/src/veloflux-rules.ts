import type { Column } from '@nl2p/envelope';
import { HARD_KEYWORDS, SOFT_KEYWORDS, VELOFLUX_WINDOWS } from './keywords';
import { isSymbol, isWord, type Token } from './lexer';
import {
  compactText,
  endsOperand,
  isIdentifier,
  isStringPrefix,
  isWordBy,
  lowerWord,
  nameOf,
  spacedText,
  splitItems,
  type Structure,
} from './structure';
import { closeMatches, listNames } from './suggest';
import type { Grounding } from './types';

/** Collects messages once each, in the order found. */
export class Findings {
  private readonly errorSet = new Set<string>();
  private readonly warningSet = new Set<string>();
  error(message: string): void {
    this.errorSet.add(message);
  }
  warn(message: string): void {
    this.warningSet.add(message);
  }
  get errors(): string[] {
    return [...this.errorSet];
  }
  get warnings(): string[] {
    return [...this.warningSet];
  }
}

type Clause = 'select' | 'from' | 'where' | 'group' | 'having' | 'order' | 'limit' | 'other';

const JOIN_WORDS = new Set(['join', 'inner', 'left', 'right', 'full', 'outer', 'cross', 'natural']);

/** Operators after which an unparenthesized `a->b` swallows the rest as its field expression. */
const BINARY_OPERATORS = new Set(['=', '!=', '<>', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '||', '==']);
const BINARY_WORDS = new Set(['and', 'or', 'is', 'in', 'not', 'between', 'like', 'ilike', 'similar']);

/** Well-known names from other dialects and what veloFlux offers instead. */
const FUNCTION_HINTS: Record<string, string> = {
  approx_count_distinct: 'use ndv(x) for a distinct count',
  count_distinct: 'use ndv(x) for a distinct count',
  date_trunc: "bucket time with a window instead: GROUP BY tumblingwindow('ss', <seconds>)",
  time_bucket: "bucket time with a window instead: GROUP BY tumblingwindow('ss', <seconds>)",
  ifnull: 'use coalesce(a, b)',
  nvl: 'use coalesce(a, b)',
  char_length: 'use length(x)',
  len: 'use length(x)',
  substr: 'use substring(x, start, [length])',
  to_timestamp: 'use from_unix_time(x) for Unix epoch seconds (veloFlux cannot call cast())',
  to_date: 'use from_unix_time(x) for Unix epoch seconds (veloFlux cannot call cast())',
  stddev_pop: 'use stddev(x)',
  stddev_samp: 'use stddevs(x)',
  variance: 'use var(x) (or vars(x) for the sample variance)',
  mean: 'use avg(x)',
  row_number: 'veloFlux has no ranking functions; use acc_count(x) for a running count',
  date_part: 'use hour(ts), minute(ts), day_of_month(ts), month(ts) …',
  unix_timestamp: 'use tstamp() for the current time in milliseconds',
};

function q(name: string): string {
  return `'${name}'`;
}

function findColumn(columns: readonly Column[], name: string): Column | undefined {
  return columns.find((c) => c.name === name);
}

function describeType(col: Column): string {
  return col.data_type.toLowerCase();
}

/**
 * veloFlux-specific checks (contract §7) over one SELECT whose statement-level safety has already
 * been established: the single stream in FROM, every column and struct field, every function, the
 * window rules, and the constructs StreamDialect parses but the planner does not compile.
 */
export function checkVeloflux(s: Structure, g: Grounding, out: Findings): void {
  const toks = s.toks;
  const n = toks.length;

  // ---- clauses at depth 0 ----------------------------------------------------------------------
  const clauseAt: Clause[] = [];
  const clauseStart = new Map<Clause, number>();
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
      else if (lower === 'union' || lower === 'intersect' || lower === 'except') {
        out.error(
          `${lower.toUpperCase()} is not supported by veloFlux: a pipeline is one simple SELECT over one stream; ` +
            'write a single SELECT (combine conditions with OR in WHERE instead)',
        );
        next = 'other';
      } else if ((lower === 'window' || lower === 'qualify') && !isColumnName(g, lower)) {
        // A column may be called `window` (the engine accepts `SELECT window FROM s`).
        out.error(
          `${lower.toUpperCase()} clauses are not supported by veloFlux; windows go inside GROUP BY, e.g. GROUP BY tumblingwindow('ss', 10)`,
        );
        next = 'other';
      }
      if (next) {
        current = next;
        if (!clauseStart.has(next)) clauseStart.set(next, i);
        if (next === 'limit') {
          out.warn(
            `${t.text.toUpperCase()} is ignored by veloFlux (the pipeline emits every row or window result); remove it`,
          );
        }
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

  for (const clause of ['select', 'where', 'group', 'having', 'order'] as const) {
    const range = contentRange(clause);
    if (range && range[0] >= range[1]) {
      const label = { select: 'SELECT', where: 'WHERE', group: 'GROUP BY', having: 'HAVING', order: 'ORDER BY' }[
        clause
      ];
      out.error(`${label} is empty; complete it or remove it`);
    }
  }

  // ---- FROM: exactly one stream ------------------------------------------------------------------
  const known = [...new Set([...g.streams, ...(g.stream ? [g.stream] : [])])];
  const consumed = new Set<number>();
  let streamName: string | undefined;
  let fromAlias: string | undefined;
  /** Token range of an accepted `(SELECT … FROM s) alias` in FROM: not walked further. */
  let fromSubquery: [number, number] | null = null;
  let columns: readonly Column[] | undefined = g.columns.length > 0 ? g.columns : undefined;
  const from = contentRange('from');
  if (!from) {
    out.error(
      `the query has no FROM clause; veloFlux pipelines read one stream: SELECT … FROM ${g.stream || '<stream>'}`,
    );
  } else {
    const [start, end] = from;
    const head = toks[start];
    if (start >= end || !head) {
      out.error(`FROM must name a stream${known.length ? `; known streams: ${listNames(known)}` : ''}`);
    } else if (isSymbol(head, '(')) {
      // The engine accepts `FROM (SELECT … FROM s) t` but plans it as the outer query over `s`:
      // the subquery's column list is dropped (recorded exchanges, probe_subquery_from).
      const close = s.partner[start] ?? end;
      const innerFrom = toks.findIndex(
        (t, j) => j > start && j < close && s.depth[j] === (s.depth[start] ?? 0) + 1 && isWord(t, 'from'),
      );
      const inner = innerFrom >= 0 ? toks[innerFrom + 1] : undefined;
      if (!isWord(toks[start + 1], 'select') || !inner || (inner.kind !== 'word' && inner.kind !== 'quoted')) {
        out.error(
          `subqueries are not supported by veloFlux (found a subquery in FROM); select from the stream directly: FROM ${g.stream || '<stream>'}`,
        );
      } else {
        streamName = nameOf(inner);
        fromSubquery = [start, Math.min(end, close + (isIdentifier(toks[close + 1]) ? 2 : 1))];
        out.warn(
          `veloFlux plans a subquery in FROM as the outer query over its stream and drops the subquery's column list; select from the stream directly: FROM ${streamName}`,
        );
        if (known.length > 0 && !known.includes(streamName)) {
          out.error(`unknown stream '${streamName}'; known streams: ${listNames(known)}`);
        } else if (g.stream && streamName !== g.stream) {
          columns = g.columnsByTable?.[streamName];
        }
      }
    } else if (head.kind === 'string') {
      out.error(`FROM must name a stream, not a string literal: write FROM ${head.value} without quotes`);
    } else if (head.kind === 'quoted' || head.kind === 'word') {
      streamName = nameOf(head);
      consumed.add(start);
      let k = start + 1;
      if (isSymbol(toks[k], '.')) {
        out.error(`FROM takes a plain stream name, found '${spacedText(toks, start, Math.min(end, k + 2))}'`);
        consumed.add(k).add(k + 1);
        k += 2;
      }
      if (head.kind === 'quoted') {
        out.error(
          `do not quote the stream name in FROM: veloFlux keeps the quotes as part of the name; write FROM ${streamName}`,
        );
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
      for (let j = k; j < end; j++) {
        if (s.depth[j] !== 0) continue;
        const t = toks[j];
        if (isSymbol(t, ',') || (t.kind === 'word' && JOIN_WORDS.has(t.text.toLowerCase()))) {
          out.error(
            'JOIN and several FROM sources are not supported by veloFlux: a pipeline reads exactly one stream; ' +
              `query a single stream (FROM ${streamName}) and drop the join`,
          );
          // The other sources and the ON condition would only add noise to a query that must change.
          for (let r = j; r < end; r++) consumed.add(r);
          break;
        }
      }

      if (known.length > 0 && !known.includes(streamName)) {
        const caseMatch = known.find((k2) => k2.toLowerCase() === streamName?.toLowerCase());
        if (caseMatch) {
          out.error(`unknown stream '${streamName}'; did you mean '${caseMatch}'? (stream names are case-sensitive)`);
        } else {
          const close = closeMatches(streamName, known);
          out.error(
            `unknown stream '${streamName}'${close.length ? `; did you mean ${close.map(q).join(' or ')}?` : ''}; known streams: ${listNames(known)}`,
          );
        }
      } else if (g.stream && streamName !== g.stream) {
        const other = g.columnsByTable?.[streamName];
        if (other && other.length > 0) {
          columns = other;
        } else {
          out.error(
            `the query reads from '${streamName}' but was drafted against stream '${g.stream}', whose columns are known; read FROM ${g.stream}`,
          );
          columns = undefined;
        }
      }
    } else {
      out.error(`FROM must name a stream, found '${head.text}'`);
    }
  }
  const streamNames = new Set([...(streamName ? [streamName] : []), ...(fromAlias ? [fromAlias] : [])]);

  // ---- SELECT items and their aliases ------------------------------------------------------------
  const selectRange = contentRange('select');
  const aliases = new Map<string, number>();
  const selectItems: [number, number][] = [];
  if (selectRange) {
    let from0 = selectRange[0];
    const to0 = selectRange[1];
    if (isWord(toks[from0], 'distinct')) {
      out.warn(
        'SELECT DISTINCT is ignored by veloFlux (duplicates are still emitted); remove DISTINCT, or use deduplicate(x) inside a window',
      );
      from0++;
    } else if (isWord(toks[from0], 'all')) {
      from0++;
    }
    for (const [a, b] of splitItems(s, from0, to0, 0)) {
      let exprEnd = b;
      let aliasIndex: number | undefined;
      if (b - a >= 3 && isWord(toks[b - 2], 'as') && isIdentifier(toks[b - 1])) {
        aliasIndex = b - 1;
        exprEnd = b - 2;
      } else if (b - a >= 2 && isIdentifier(toks[b - 1]) && endsOperand(toks[b - 2])) {
        aliasIndex = b - 1;
        exprEnd = b - 1;
      }
      selectItems.push([a, exprEnd]);
      if (aliasIndex === undefined) continue;
      consumed.add(aliasIndex);
      const alias = nameOf(toks[aliasIndex]);
      if (aliases.has(alias)) out.error(`alias '${alias}' is used twice; give every SELECT item a distinct alias`);
      aliases.set(alias, aliasIndex);
      if (columns && findColumn(columns, alias)) {
        out.error(
          `alias '${alias}' collides with the input column '${alias}' (veloFlux rejects that); choose another alias such as '${alias}_value'`,
        );
      }
      if (alias.startsWith('__vf_') || /^col_\d+$/.test(alias)) {
        out.error(`alias '${alias}' is reserved by veloFlux (no '__vf_' prefix, no 'col_<n>'); choose another alias`);
      }
    }
  }

  // ---- window calls ------------------------------------------------------------------------------
  const windowCalls: { index: number; name: string; open: number; close: number }[] = [];
  const windowRanges: [number, number][] = [];

  // ---- function catalog ----------------------------------------------------------------------------
  const functionNames = new Set<string>();
  const aggregateNames = new Set<string>();
  for (const f of g.functions) {
    const names = [f.name, ...(f.aliases ?? [])].map((x) => x.toLowerCase());
    for (const name of names) {
      functionNames.add(name);
      if (f.kind === 'aggregate') aggregateNames.add(name);
    }
  }
  for (const w of VELOFLUX_WINDOWS) functionNames.add(w);
  const checkFunctions = g.functions.length > 0;
  let hasAggregate = false;

  const available = (): string => listNames((columns ?? []).map((c) => c.name));

  const reportedNames = new Set<string>();
  const reportUnknownColumn = (t: Token): void => {
    if (!columns) return;
    const name = nameOf(t);
    // Suggestions cost an edit distance per column; a name is reported once however often it occurs.
    const key = `${t.kind}:${name}`;
    if (reportedNames.has(key)) return;
    reportedNames.add(key);
    const caseMatch = columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
    let hint = '';
    if (caseMatch) {
      hint = `; did you mean '${caseMatch.name}'? (column names are case-sensitive)`;
    } else {
      const close = closeMatches(
        name,
        columns.map((c) => c.name),
      );
      if (close.length) hint = `; did you mean ${close.map(q).join(' or ')}?`;
    }
    const quoteHint =
      t.kind === 'quoted' && t.quote === '"'
        ? ` ("${name}" is a column name in veloFlux because double quotes delimit identifiers; write a string literal in single quotes: '${name}')`
        : '';
    const where = streamName ?? g.stream;
    out.error(
      `unknown column '${name}'${where ? ` in stream '${where}'` : ''}${quoteHint}${hint}; available columns: ${available()}`,
    );
  };

  /**
   * Walks `a->b->c` and `a[0]` after a column reference at `i`, checking struct fields against the
   * schema; returns the index after the chain.
   */
  const walkChain = (i: number, column: Column): number => {
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
          out.error(`'->' must be followed by a field name: write ${path}->field (not a string or number after ->)`);
          return j + 1;
        }
        consumed.add(j + 1);
        const fieldName = nameOf(field);
        if (cur) {
          const type = describeType(cur);
          if (type === 'struct' && cur.fields) {
            const found: Column | undefined = cur.fields.find((f) => f.name === fieldName);
            if (!found) {
              const names = cur.fields.map((f) => f.name);
              const caseMatch = names.find((x) => x.toLowerCase() === fieldName.toLowerCase());
              const close = caseMatch ? [caseMatch] : closeMatches(fieldName, names);
              out.error(
                `unknown field '${fieldName}' in struct '${path}'${close.length ? `; did you mean ${close.map(q).join(' or ')}?` : ''}; available fields: ${listNames(names)}`,
              );
            }
            cur = found;
          } else if (type !== 'struct') {
            out.error(`'${path}' is a ${type}, not a struct, so '${path}->${fieldName}' has no field to read`);
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
          out.error(
            `negative list index in '${path}[${compactText(toks, j + 1, close)}]' is rejected by veloFlux; use element_at(${path}, ${compactText(toks, j + 1, close)}) to count from the end`,
          );
        }
        path = `${path}[${compactText(toks, j + 1, close)}]`;
        cur = cur && describeType(cur) === 'list' ? cur.element : undefined;
        j = close + 1;
        continue;
      }
      break;
    }
    if (arrows > 0) {
      const after = toks[j];
      const op =
        after && (after.kind === 'operator' ? BINARY_OPERATORS.has(after.text) : BINARY_WORDS.has(lowerWord(after)));
      if (after && op) {
        out.error(
          `struct access '${path}' must be parenthesized when followed by '${after.text}': veloFlux reads everything after -> as the field, so write (${path}) ${after.text} …`,
        );
      }
    }
    return j;
  };

  // Computed after the window scan below; a prefix sum keeps the lookup O(1) however many windows.
  let insideWindow: number[] = [];
  const inWindowArgs = (i: number): boolean => (insideWindow[i] ?? 0) > 0;

  // Window calls first, so alias use inside their arguments can be recognised during the walk.
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.kind !== 'word' || !isSymbol(toks[i + 1], '(') || isSymbol(toks[i - 1], '.')) continue;
    const lower = t.text.toLowerCase();
    if (!VELOFLUX_WINDOWS.has(lower)) continue;
    const open = i + 1;
    const close = s.partner[open] ?? -1;
    if (close < 0) continue;
    windowCalls.push({ index: i, name: lower, open, close });
    windowRanges.push([open, close]);
    if (isWord(toks[close + 1], 'over') && isSymbol(toks[close + 2], '(')) {
      windowRanges.push([close + 2, s.partner[close + 2] ?? close + 2]);
    }
  }

  insideWindow = new Array<number>(n + 1).fill(0);
  for (const [a, b] of windowRanges) {
    insideWindow[a + 1] = (insideWindow[a + 1] ?? 0) + 1;
    insideWindow[b] = (insideWindow[b] ?? 0) - 1;
  }
  for (let i = 1; i <= n; i++) insideWindow[i] = (insideWindow[i] ?? 0) + (insideWindow[i - 1] ?? 0);

  // ---- the main walk -----------------------------------------------------------------------------
  for (let i = 0; i < n; i++) {
    if (fromSubquery && i >= fromSubquery[0] && i < fromSubquery[1]) continue;
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    const clause = clauseAt[i];

    // `ORDER BY *` and `ORDER BY s.*` do not parse (live engine: "Expected an expression:, found: *",
    // "Expected an identifier or a '*' after '.', found: *").
    if (clause === 'order' && s.depth[i] === 0 && isSymbol(t, '*') && (isSymbol(prev, '.') || isItemStart(prev))) {
      out.error(
        `ORDER BY cannot sort by ${isSymbol(prev, '.') ? `${prev && toks[i - 2] ? toks[i - 2]?.text : 'stream'}.*` : '*'} in veloFlux (the parser expects a column or an expression there); order by named columns or output aliases`,
      );
      continue;
    }

    if (t.kind === 'operator') {
      switch (t.text) {
        case '||':
          out.error(
            'the || operator is not supported by veloFlux; use concat(a, b) (exactly two arguments; nest concat for more)',
          );
          break;
        case '::':
          out.error(
            `'::' casts are not supported by veloFlux (CAST and cast() are not callable in any spelling either); use the column as it is typed, or format(x) to turn a number into a string`,
          );
          break;
        case '->>':
        case '#>':
        case '#>>':
        case '@>':
        case '<@':
        case '?':
          out.error(
            `the JSON operator '${t.text}' is not supported by veloFlux; read struct fields with -> and parentheses, e.g. (payload->field)`,
          );
          break;
        case '->':
          // A field after `)` or `]` (e.g. `(a->b)->c`): its base is not tracked, so skip the name.
          if (next && (next.kind === 'word' || next.kind === 'quoted')) consumed.add(i + 1);
          break;
      }
      continue;
    }

    if (t.kind === 'word') {
      const lower = t.text.toLowerCase();
      if (HARD_KEYWORDS.has(lower)) {
        handleKeyword(i, lower);
        continue;
      }
    }

    if (t.kind !== 'word' && t.kind !== 'quoted') continue;
    if (consumed.has(i)) continue;

    // Function call.
    if (isSymbol(next, '(')) {
      if (t.kind === 'word') handleFunction(i, t.text.toLowerCase(), clause);
      continue;
    }
    if (isSymbol(prev, '.') || isSymbol(prev, '->')) continue;
    if (isWord(prev, 'as')) continue;
    if (endsOperand(prev)) continue; // an alias (`sum(a) total`) or a keyword-ish word (`'1' DAY`)
    if (isStringPrefix(t, next)) continue;

    if (isSymbol(next, '.')) {
      handleQualified(i);
      continue;
    }

    const name = nameOf(t);
    const column = columns ? findColumn(columns, name) : undefined;
    if (column) {
      // Only the field names of the chain are consumed; index expressions are still walked.
      walkChain(i, column);
      continue;
    }
    if (streamNames.has(name)) continue;
    if (aliases.has(name)) {
      if (clause === 'group' || clause === 'having' || inWindowArgs(i)) {
        const where = inWindowArgs(i) ? 'window arguments' : clause === 'group' ? 'GROUP BY' : 'HAVING';
        out.error(
          `alias '${name}' cannot be used in ${where} (veloFlux supports aliases only in later SELECT items, WHERE and ORDER BY); repeat the expression instead`,
        );
      }
      continue;
    }
    if (t.kind === 'word') {
      if (['timestamp', 'date', 'time'].includes(lowerWord(t)) && next?.kind === 'string') {
        out.error(
          `typed literals like ${t.text.toUpperCase()} ${next.text} are not supported by veloFlux; compare with a Unix epoch number instead, or use from_unix_time(seconds)`,
        );
        continue;
      }
      if (SOFT_KEYWORDS.has(lowerWord(t))) continue;
    }
    reportUnknownColumn(t);
  }

  function handleQualified(i: number): void {
    const qualifier = toks[i];
    const qName = nameOf(qualifier);
    const member = toks[i + 2];
    consumed.add(i + 2);
    const text = spacedText(toks, i, Math.min(n, i + 3));
    if (isSymbol(toks[i + 3], '.')) {
      out.error(
        `'${spacedText(toks, i, Math.min(n, i + 5))}' has more than two parts; veloFlux identifiers are at most stream.column — read struct fields with ->, e.g. (${nameOf(member ?? qualifier)}->${nameOf(toks[i + 4] ?? qualifier)})`,
      );
      consumed.add(i + 4);
      return;
    }
    if (streamNames.has(qName)) {
      if (!member || isSymbol(member, '*')) return;
      if (member.kind !== 'word' && member.kind !== 'quoted') return;
      if (!columns) return;
      const column = findColumn(columns, nameOf(member));
      if (column) {
        walkChain(i + 2, column);
      } else {
        reportUnknownColumn(member);
      }
      return;
    }
    const asColumn = columns ? findColumn(columns, qName) : undefined;
    if (asColumn && member && (member.kind === 'word' || member.kind === 'quoted')) {
      out.error(
        `'${text}': dot syntax means stream.column in veloFlux; for a struct field write (${qName}->${nameOf(member)})`,
      );
      return;
    }
    out.error(
      `unknown stream or alias '${qName}' in '${text}'; the query reads from '${streamName ?? g.stream}'${fromAlias ? ` (alias '${fromAlias}')` : ''}`,
    );
  }

  function handleKeyword(i: number, word: string): void {
    const next = toks[i + 1];
    switch (word) {
      case 'is': {
        const rest = isWord(next, 'not') ? toks[i + 2] : next;
        const negated = isWord(next, 'not');
        if (isWord(rest, 'null')) {
          out.error(
            `IS ${negated ? 'NOT ' : ''}NULL is not supported by veloFlux; write ${negated ? 'NOT isnull(x)' : 'isnull(x)'} instead`,
          );
        } else {
          out.error(
            `IS ${negated ? 'NOT ' : ''}${rest ? rest.text.toUpperCase() : ''} is not supported by veloFlux; compare with = / != (and use isnull(x) for NULL checks)`,
          );
        }
        return;
      }
      case 'like':
      case 'ilike':
      case 'similar':
        out.error(
          `${word.toUpperCase()} is not supported by veloFlux; use regexp_matches(x, 'pattern'), startswith(x, 'prefix') or endswith(x, 'suffix')`,
        );
        return;
      case 'interval':
        if (isColumnName(g, 'interval') && next?.kind !== 'string' && next?.kind !== 'number') {
          out.error(
            'a column named interval must be quoted in veloFlux ("interval"): written bare, the parser reads an INTERVAL literal (the engine answers No data source found in SELECT statement)',
          );
          return;
        }
        out.error(
          "INTERVAL literals are not supported by veloFlux; window lengths are plain seconds, e.g. tumblingwindow('ss', 300) for 5 minutes",
        );
        return;
      case 'extract':
        out.error(
          'EXTRACT is not supported by veloFlux; use the time functions hour(ts), minute(ts), second(ts), day_of_month(ts), month(ts), day_of_week(ts)',
        );
        return;
      case 'exists':
        out.error(
          'EXISTS and subqueries are not supported by veloFlux; express the condition on the stream columns directly',
        );
        return;
      case 'select':
        if ((s.depth[i] ?? 0) > 0) {
          out.error(
            'subqueries are not supported by veloFlux; write one SELECT over the stream (use a window and HAVING for conditions on aggregates)',
          );
        }
        return;
      case 'cast': {
        if (!isSymbol(next, '(')) return;
        const close = s.partner[i + 1] ?? -1;
        const hasAs = toks.some(
          (x, j) => j > i + 1 && j < close && s.depth[j] === (s.depth[i] ?? 0) + 1 && isWord(x, 'as'),
        );
        if (!hasAs) {
          // The catalog lists cast(x, 'type'), but the parser reads CAST(x AS type) and stops at the
          // comma (recorded: `Expected AS, found: ,`).
          out.error(
            "cast(x, 'type') cannot be called in veloFlux (the parser expects CAST(x AS type), which the planner rejects); use the column as it is typed, or format(x) to turn a number into a string",
          );
          return;
        }
        for (let j = i + 2; j < close; j++) {
          if (s.depth[j] === (s.depth[i] ?? 0) + 1 && isWord(toks[j], 'as')) {
            const type = toks[j + 1]?.text.toLowerCase() ?? 'type';
            out.error(
              `CAST(x AS ${type}) is not supported by veloFlux (cast() is not callable in any spelling either); use the column as it is typed, or format(x) to turn a number into a string`,
            );
            consumed.add(j + 1);
            break;
          }
        }
        return;
      }
      case 'nulls':
        out.error('NULLS FIRST / NULLS LAST is not supported by veloFlux; remove it from ORDER BY');
        return;
      case 'distinct':
        // count(DISTINCT x) is accepted when the pipeline is created (recorded: probe_count_distinct)
        // but its window aggregation fails as soon as the pipeline runs, silently for the person
        // (live engine: "DISTINCT aggregates are not supported yet"; libs/testing/src/live-engine.ts).
        if (isSymbol(toks[i - 1], '(') && toks[i - 2]?.kind === 'word') {
          const fn = toks[i - 2]?.text ?? 'a function';
          out.error(
            isWord(toks[i - 2], 'count')
              ? 'count(DISTINCT x) is accepted by veloFlux when the pipeline is created, but its aggregation fails when the pipeline runs (DISTINCT aggregates are not supported yet); use ndv(x) for a distinct count'
              : `DISTINCT inside ${fn}(…) is not supported by veloFlux; use ndv(x) for a distinct count or deduplicate(x) for distinct values`,
          );
        }
        return;
      case 'filter':
        // `agg(x) FILTER (WHERE c)` parses, and the running pipeline ignores the filter: the
        // aggregate covers every row (live engine; libs/testing/src/live-engine.ts).
        if (isSymbol(toks[i - 1], ')') && isSymbol(next, '(') && isWord(toks[i + 2], 'where')) {
          const open = s.partner[i - 1] ?? -1;
          const fn = toks[open - 1]?.text.toLowerCase() ?? '';
          if (aggregateNames.has(fn) || fn === 'count') {
            out.error(
              `veloFlux ignores FILTER (WHERE …) on ${fn}() when the pipeline runs (the aggregate still covers every row); write the condition inside the aggregate instead: ${fn}(CASE WHEN <condition> THEN ${fn === 'count' ? '1' : 'x'} END)`,
            );
          }
        }
        return;
    }
  }

  function handleFunction(i: number, name: string, clause: Clause): void {
    if (name === 'hoppingwindow') {
      out.error(
        "veloFlux has no hoppingwindow; use slidingwindow('ss', <lookback>[, <lookahead>]) for overlapping windows or tumblingwindow('ss', <length>) for fixed ones, inside GROUP BY",
      );
      return;
    }
    if (name === 'sessionwindow') {
      out.error(
        "veloFlux has no sessionwindow; use statewindow(<open condition>, <emit condition>) or tumblingwindow('ss', <length>), inside GROUP BY",
      );
      return;
    }
    if (VELOFLUX_WINDOWS.has(name)) {
      checkWindow(i, name, clause);
      return;
    }
    if (isSymbol(toks[i - 1], '.')) return;
    if (aggregateNames.has(name)) {
      hasAggregate = true;
      if (clause === 'where') {
        out.error(
          `aggregate ${name}() cannot be called in WHERE (the engine answers Unknown function); put the condition in HAVING, with a window in GROUP BY`,
        );
      }
    }
    if (checkFunctions && !functionNames.has(name) && !reportedNames.has(`fn:${name}`)) {
      reportedNames.add(`fn:${name}`);
      const hint = FUNCTION_HINTS[name];
      const close = closeMatches(name, functionNames);
      const parts = [`unknown function '${name}'`];
      if (hint) parts.push(hint);
      else if (close.length) parts.push(`did you mean ${close.map((c) => `${c}()`).join(' or ')}?`);
      else parts.push('it is not in the veloFlux function catalog');
      out.error(parts.join('; '));
    }
  }

  function checkWindow(i: number, name: string, clause: Clause): void {
    const open = i + 1;
    const close = s.partner[open] ?? -1;
    if (clause !== 'group' || s.depth[i] !== 0) {
      out.error(
        `${name}(…) must be written inside GROUP BY, e.g. GROUP BY device_id, ${example(name)}; it cannot appear in ${clauseLabel(clause)}`,
      );
      // Its arguments are not checked: the call has to move anyway, and nested calls would make
      // the argument scans quadratic.
      return;
    }
    if (close < 0) return;
    const args = splitItems(s, open + 1, close, (s.depth[open] ?? 0) + 1);
    const argText = (k: number): string => {
      const r = args[k];
      return r ? compactText(toks, r[0], r[1]) : '';
    };
    const single = (k: number): Token | undefined => {
      const r = args[k];
      return r && r[1] - r[0] === 1 ? toks[r[0]] : undefined;
    };
    const isUint = (k: number): boolean => {
      const tok = single(k);
      return !!tok && tok.kind === 'number' && /^\d+$/.test(tok.text);
    };
    const lengthError = (k: number, what: string): void => {
      out.error(
        `${name} ${what} must be an unsigned integer literal, found '${argText(k)}'; write e.g. ${example(name)}`,
      );
    };
    if (name === 'tumblingwindow' || name === 'slidingwindow') {
      const okCount = name === 'tumblingwindow' ? args.length === 2 : args.length === 2 || args.length === 3;
      if (!okCount) {
        out.error(
          name === 'tumblingwindow'
            ? `tumblingwindow requires 2 arguments: (time_unit, length), e.g. tumblingwindow('ss', 10); found ${args.length}`
            : `slidingwindow takes 2 or 3 arguments: ('ss', lookback[, lookahead]), e.g. slidingwindow('ss', 10); found ${args.length}`,
        );
      }
      const unit = single(0);
      if (args.length >= 1) {
        if (!unit || unit.kind !== 'string') {
          out.error(
            `${name} needs the time unit 'ss' as its first argument, found '${argText(0)}'; write ${example(name)}`,
          );
        } else if (unit.value.toLowerCase() !== 'ss') {
          const factor = UNIT_SECONDS[unit.value.toLowerCase()];
          const len = single(1);
          const suggestion =
            factor && len?.kind === 'number' && /^\d+$/.test(len.text)
              ? `write ${name}('ss', ${Number(len.text) * factor}) for ${len.text} ${UNIT_NAMES[unit.value.toLowerCase()] ?? unit.value}`
              : `convert the length to seconds, e.g. ${name}('ss', 300) for 5 minutes`;
          out.error(`${name} accepts only the time unit 'ss' (seconds), found '${unit.value}'; ${suggestion}`);
        }
      }
      if (args.length >= 2 && !isUint(1)) lengthError(1, 'length');
      if (args.length >= 3 && !isUint(2)) lengthError(2, 'lookahead');
    } else if (name === 'countwindow') {
      if (args.length !== 1)
        out.error(`countwindow takes 1 argument, the row count, e.g. countwindow(100); found ${args.length}`);
      else if (!isUint(0)) lengthError(0, 'count');
    } else if (name === 'statewindow') {
      if (args.length !== 2) {
        out.error(
          `statewindow takes 2 arguments: (open condition, emit condition), e.g. statewindow(a > 0, b = 1); found ${args.length}`,
        );
      }
    }
    if (isWord(toks[close + 1], 'over')) {
      if (name !== 'statewindow') {
        out.error(`${name} does not take OVER; only statewindow accepts OVER (PARTITION BY …)`);
      } else if (!isSymbol(toks[close + 2], '(')) {
        out.error('statewindow OVER needs a parenthesized PARTITION BY list: OVER (PARTITION BY k1, k2)');
      } else {
        const overClose = s.partner[close + 2] ?? -1;
        const inner = (s.depth[close + 2] ?? 0) + 1;
        const startsPartition = isWordBy(toks, close + 3, 'partition');
        let extra = false;
        for (let j = close + 3; j < overClose; j++) {
          if (s.depth[j] === inner && (isWordBy(toks, j, 'order') || isWord(toks[j], 'rows', 'range', 'groups')))
            extra = true;
        }
        if (!startsPartition || extra) {
          out.error('statewindow OVER allows only PARTITION BY (no ORDER BY, no frame): OVER (PARTITION BY k1, k2)');
        }
      }
    }
  }

  // ---- rules over the whole query ----------------------------------------------------------------
  const groupRange = contentRange('group');
  const windowsInGroup = windowCalls.filter((w) => clauseAt[w.index] === 'group' && s.depth[w.index] === 0);
  if (windowsInGroup.length > 1) {
    out.error(
      `only one window is allowed in GROUP BY, found ${windowsInGroup.length} (${windowsInGroup.map((w) => w.name).join(', ')}); keep one`,
    );
  }
  if (clauseStart.has('having') && windowsInGroup.length === 0) {
    out.error(
      "HAVING requires a window in GROUP BY in veloFlux, e.g. GROUP BY tumblingwindow('ss', 10) HAVING count(*) > 100; add a window or move the condition to WHERE",
    );
  }

  if (aggregateNames.size > 0 && !hasAggregate && groupRange && windowsInGroup.length === 0) {
    out.error(
      "GROUP BY without aggregate functions is not supported by veloFlux; aggregate the other columns (e.g. count(*), avg(x)) or remove GROUP BY (a window alone, GROUP BY tumblingwindow('ss', 10), is allowed)",
    );
  }

  // With aggregates, a plain column in SELECT must textually equal a GROUP BY key; catching the
  // common `SELECT device_id, avg(t) … GROUP BY tumblingwindow(…)` needs to know which functions
  // aggregate, so it only runs when the catalog says so.
  if (hasAggregate) {
    const keys = new Set<string>();
    if (groupRange) {
      for (const [a, b] of splitItems(s, groupRange[0], groupRange[1], 0)) {
        if (VELOFLUX_WINDOWS.has(lowerWord(toks[a]))) continue;
        keys.add(stripParens(compactText(toks, a, b)));
      }
    }
    for (const [a, b] of selectItems) {
      if (!isPlainReference(a, b)) continue;
      const text = stripParens(compactText(toks, a, b));
      if (!keys.has(text)) {
        const shown = spacedText(toks, a, b);
        out.error(
          `SELECT expression '${shown}' must be an aggregate or appear in GROUP BY; add it to GROUP BY (e.g. GROUP BY ${shown}${windowsInGroup[0] ? `, ${spacedText(toks, windowsInGroup[0].index, windowsInGroup[0].close + 1)}` : ''}) or aggregate it, e.g. last_row(${shown})`,
        );
      }
    }
  }

  /** A column, `stream.column`, or a struct/list access on one, optionally parenthesized. */
  function isPlainReference(a: number, b: number): boolean {
    let sawName = false;
    for (let j = a; j < b; j++) {
      const t = toks[j];
      if (t.kind === 'word' || t.kind === 'quoted') {
        if (HARD_KEYWORDS.has(t.text.toLowerCase()) && t.kind === 'word') return false;
        if (isSymbol(toks[j + 1], '(')) return false;
        sawName = true;
      } else if (t.kind === 'number') {
        if (!(s.depth[j] ?? 0)) return false;
      } else if (!(
        isSymbol(t, '.') ||
        isSymbol(t, '->') ||
        isSymbol(t, '(') ||
        isSymbol(t, ')') ||
        isSymbol(t, '[') ||
        isSymbol(t, ']')
      )) {
        return false;
      }
    }
    return sawName;
  }
}

function stripParens(text: string): string {
  let out = text;
  while (out.startsWith('(') && out.endsWith(')')) out = out.slice(1, -1);
  return out;
}

const UNIT_SECONDS: Record<string, number> = { mm: 60, mi: 60, hh: 3600, dd: 86400 };
const UNIT_NAMES: Record<string, string> = { mm: 'minute(s)', mi: 'minute(s)', hh: 'hour(s)', dd: 'day(s)' };

function example(window: string): string {
  switch (window) {
    case 'slidingwindow':
      return "slidingwindow('ss', 10)";
    case 'countwindow':
      return 'countwindow(100)';
    case 'statewindow':
      return 'statewindow(a > 0, b = 1)';
    default:
      return "tumblingwindow('ss', 10)";
  }
}

function clauseLabel(clause: Clause): string {
  const names: Record<Clause, string> = {
    select: 'the SELECT list',
    from: 'FROM',
    where: 'WHERE',
    group: 'a nested expression',
    having: 'HAVING',
    order: 'ORDER BY',
    limit: 'LIMIT',
    other: 'this position',
  };
  return names[clause];
}

/** A column of the grounded stream (or of another known stream) is called `word`. */
function isColumnName(g: Grounding, word: string): boolean {
  return [g.columns, ...Object.values(g.columnsByTable ?? {})].some((cols) =>
    cols.some((c) => c.name.toLowerCase() === word),
  );
}

/** The token before an item of a comma list: its comma or the clause's keyword (`BY`). */
function isItemStart(prev: Token | undefined): boolean {
  return isSymbol(prev, ',') || isWord(prev, 'by');
}
