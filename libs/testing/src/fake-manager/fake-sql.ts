import type { Column } from '@nl2p/envelope';

// A deliberately small imitation of veloFlux's SQL front end (sqlparser 0.40 + StreamDialect +
// the planner): enough to reproduce, byte for byte, the verdicts, error texts and plans of the
// recorded exchanges (shared/manager-api/recorded) for the queries tests write. Not a SQL parser:
// it works on tokens and clause ranges.

type TokType = 'ident' | 'qident' | 'string' | 'number' | 'op' | 'lparen' | 'rparen' | 'comma' | 'semicolon' | 'dot';

export interface Tok {
  type: TokType;
  /** Identifier name without quotes, string content, or the operator text. */
  value: string;
  start: number;
  end: number;
  /** Parenthesis depth at the token (the parens themselves count as the outer depth). */
  depth: number;
  /** The quote of a quoted identifier. */
  quote?: string;
}

/** A parse-stage failure: the server reports it as `parse pipeline <id> sql: <message>`. */
export class FakeParseError extends Error {}

/** A planner failure: `failed to create pipeline <id>: pipeline build error: <message>`. */
export class FakePlanError extends Error {}

const KEYWORDS = new Set(
  (
    'SELECT FROM WHERE GROUP BY HAVING ORDER ASC DESC AS AND OR NOT IN IS NULL TRUE FALSE BETWEEN CASE WHEN ' +
    'THEN ELSE END LIMIT OFFSET DISTINCT OVER PARTITION FILTER LIKE ILIKE NULLS JOIN ON INNER LEFT RIGHT OUTER ' +
    'FULL CROSS EXISTS INTERVAL UNION ALL FETCH ONLY EXTRACT WITH CAST'
  ).split(' '),
);

/** Statements sqlparser parses (so the dialect answers `Expected a SELECT query`). */
const NON_SELECT_STATEMENTS = new Set(
  'INSERT UPDATE DELETE CREATE ALTER WITH EXPLAIN SHOW SET USE VALUES TRUNCATE'.split(' '),
);
const DROP_OBJECTS = new Set('TABLE VIEW INDEX ROLE SCHEMA FUNCTION STAGE SEQUENCE'.split(' '));

/** Parsed by the dialect, not the function registry, so they are valid only inside GROUP BY. */
export const WINDOW_FUNCTIONS = ['tumblingwindow', 'slidingwindow', 'countwindow', 'statewindow'] as const;

const CLAUSE_KEYWORDS = ['SELECT', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET'] as const;
type Clause = (typeof CLAUSE_KEYWORDS)[number];

const PARSE = 'Parse error: sql parser error: ';
const DIALECT = 'Dialect processing error: sql parser error: ';

export function tokenize(sql: string): Tok[] {
  const toks: Tok[] = [];
  let depth = 0;
  let i = 0;
  const push = (type: TokType, value: string, start: number, end: number, quote?: string): void => {
    toks.push({ type, value, start, end, depth, ...(quote ? { quote } : {}) });
  };
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i += 1;
    } else if (sql.startsWith('--', i)) {
      const nl = sql.indexOf('\n', i);
      i = nl === -1 ? sql.length : nl;
    } else if (sql.startsWith('/*', i)) {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? sql.length : close + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let value = '';
      for (;;) {
        if (j >= sql.length) {
          const what = c === "'" ? 'string literal' : 'quoted identifier';
          throw new FakeParseError(`${PARSE}Unterminated ${what} at ${location(sql, i)}`);
        }
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            value += c;
            j += 2;
            continue;
          }
          break;
        }
        value += sql[j];
        j += 1;
      }
      if (c === "'") push('string', value, i, j + 1);
      else push('qident', value, i, j + 1, c);
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i)) as RegExpExecArray;
      push('ident', m[0], i, i + m[0].length);
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(sql.slice(i)) as RegExpExecArray;
      push('number', m[0], i, i + m[0].length);
      i += m[0].length;
    } else if (c === '(') {
      push('lparen', c, i, i + 1);
      depth += 1;
      i += 1;
    } else if (c === ')') {
      depth -= 1;
      if (depth < 0) throw new FakeParseError(`${PARSE}Expected end of statement, found: ) at ${location(sql, i)}`);
      push('rparen', c, i, i + 1);
      i += 1;
    } else if (c === ',') {
      push('comma', c, i, i + 1);
      i += 1;
    } else if (c === ';') {
      push('semicolon', c, i, i + 1);
      i += 1;
    } else if (c === '.') {
      push('dot', c, i, i + 1);
      i += 1;
    } else {
      const three = sql.slice(i, i + 3);
      const two = sql.slice(i, i + 2);
      const op = three === '->>' ? three : ['->', '>=', '<=', '<>', '!=', '||', '::'].includes(two) ? two : c;
      push('op', op, i, i + op.length);
      i += op.length;
    }
  }
  if (depth > 0) throw new FakeParseError(`${PARSE}Expected ), found: EOF`);
  return toks;
}

function location(sql: string, pos: number): string {
  const before = sql.slice(0, pos).split('\n');
  return `Line: ${before.length}, Column ${before[before.length - 1].length + 1}`;
}

const isKw = (t: Tok | undefined, kw: string): boolean => t?.type === 'ident' && t.value.toUpperCase() === kw;
const isOp = (t: Tok | undefined, op: string): boolean => t?.type === 'op' && t.value === op;

export interface WindowSpec {
  kind: 'tumbling' | 'sliding' | 'count' | 'state';
  args: string[];
  partition: string[];
}

/** Result of the parse stage: what the server needs before it persists anything. */
export interface ParsedSql {
  sql: string;
  toks: Tok[];
  clauseOf: (Clause | null)[];
  /** Stream names as the engine looks them up (a quoted name keeps its quotes). */
  streams: string[];
  /** Name of the stream the plan reads: a subquery in FROM reads its inner stream. */
  streamAlias: string | null;
  /** `FROM (SELECT …) t`: planned as `SELECT *` over the inner stream. */
  fromSubquery: boolean;
  window: WindowSpec | null;
  /** Token index range of the GROUP BY window call (and its OVER clause). */
  windowRange: [number, number] | null;
}

/** Parse stage (CONTRACT §5.2 step 6): statement shape, clauses, streams and window syntax. */
export function parseSql(rawSql: string): ParsedSql {
  const all = tokenize(rawSql);
  // sqlparser parses every statement before the dialect counts them.
  const statements: Tok[][] = [[]];
  for (const t of all) {
    if (t.type === 'semicolon') statements.push([]);
    else statements[statements.length - 1].push(t);
  }
  const nonEmpty = statements.filter((s) => s.length > 0);
  for (const s of nonEmpty) sqlparserChecks(rawSql, s);
  if (nonEmpty.length === 0) throw new FakeParseError(`${PARSE}Expected an SQL statement, found: EOF`);
  if (nonEmpty.length > 1) throw new FakeParseError('Expected exactly one SQL statement');
  const toks = nonEmpty[0];
  if (!isKw(toks[0], 'SELECT')) throw new FakeParseError('Expected a SELECT query');
  if (toks.some((t) => t.depth === 0 && (isKw(t, 'UNION') || isKw(t, 'EXCEPT') || isKw(t, 'INTERSECT')))) {
    throw new FakeParseError('Expected a simple SELECT query');
  }

  const clauseOf = clauses(toks);
  toks.forEach((t, i) => {
    if (clauseOf[i] === 'ORDER' && isKw(t, 'NULLS') && (isKw(toks[i + 1], 'FIRST') || isKw(toks[i + 1], 'LAST'))) {
      throw new FakeParseError('NULLS FIRST/LAST in ORDER BY is not supported yet');
    }
    // `ORDER BY *` and `ORDER BY s.*` (live engine; live-engine.ts).
    if (clauseOf[i] === 'ORDER' && t.depth === 0 && t.value === '*') {
      const at = location(rawSql, t.start);
      throw new FakeParseError(
        toks[i - 1]?.type === 'dot'
          ? `${PARSE}Expected an identifier or a '*' after '.', found: * at ${at}`
          : `${PARSE}Expected an expression:, found: * at ${at}`,
      );
    }
  });
  const { window, range } = findWindow(toks, clauseOf);
  const from = fromStreams(toks, clauseOf, rawSql);
  return {
    sql: rawSql,
    toks,
    clauseOf,
    streams: from.streams,
    streamAlias: from.alias,
    fromSubquery: from.subquery,
    window,
    windowRange: range,
  };
}

/** The verdicts of sqlparser itself (`Parse error: sql parser error: …`) for one statement. */
function sqlparserChecks(sql: string, toks: Tok[]): void {
  const first = toks[0];
  if (isKw(first, 'DROP')) {
    const what = toks[1];
    if (!what)
      throw new FakeParseError(
        `${PARSE}Expected TABLE, VIEW, INDEX, ROLE, SCHEMA, FUNCTION, STAGE or SEQUENCE after DROP, found: EOF`,
      );
    if (!DROP_OBJECTS.has(what.value.toUpperCase()) || what.type !== 'ident') {
      throw new FakeParseError(
        `${PARSE}Expected TABLE, VIEW, INDEX, ROLE, SCHEMA, FUNCTION, STAGE or SEQUENCE after DROP, found: ${sql.slice(what.start, what.end)} at ${location(sql, what.start)}`,
      );
    }
    return;
  }
  if (!isKw(first, 'SELECT')) {
    if (first.type === 'ident' && NON_SELECT_STATEMENTS.has(first.value.toUpperCase())) return;
    throw new FakeParseError(
      `${PARSE}Expected an SQL statement, found: ${sql.slice(first.start, first.end)} at ${location(sql, first.start)}`,
    );
  }
  toks.forEach((t, i) => {
    // CAST is syntax, not a function: `cast(x, 'type')` fails right after its first argument.
    if (t.type === 'ident' && t.value.toUpperCase() === 'CAST' && toks[i + 1]?.type === 'lparen') {
      const close = matchingParen(toks, i + 1);
      let j = i + 2;
      while (j < close && !(toks[j].depth === t.depth + 1 && (isKw(toks[j], 'AS') || toks[j].type === 'comma'))) j += 1;
      const found = toks[j];
      if (!isKw(found, 'AS')) {
        const text = found ? sql.slice(found.start, found.end) : 'EOF';
        throw new FakeParseError(`${PARSE}Expected AS, found: ${text} at ${location(sql, found?.start ?? sql.length)}`);
      }
    }
    if (isOp(t, '[') && toks[i + 1]?.type === 'op' && toks[i + 1].value !== '[') {
      const bad = toks[i + 1];
      throw new FakeParseError(
        `${PARSE}Expected literal string, number or function, found: ${bad.value} at ${location(sql, bad.start)}`,
      );
    }
  });
  const last = toks[toks.length - 1];
  if (
    (last.type === 'op' && last.value !== '*' && last.value !== ']') ||
    ['SELECT', 'WHERE', 'AND', 'OR', 'BY', 'HAVING', 'FROM', 'NOT'].some((k) => isKw(last, k))
  ) {
    throw new FakeParseError(`${PARSE}Expected an expression:, found: EOF`);
  }
}

function clauses(toks: Tok[]): (Clause | null)[] {
  const clauseOf: (Clause | null)[] = [];
  let clause: Clause | null = null;
  toks.forEach((t, i) => {
    if (t.depth === 0 && t.type === 'ident') {
      const up = t.value.toUpperCase() as Clause;
      const prev = toks[i - 1];
      // GROUP/ORDER only open a clause when BY follows, so columns named `order` stay columns.
      const opens =
        (CLAUSE_KEYWORDS as readonly string[]).includes(up) &&
        (up === 'GROUP' || up === 'ORDER' ? isKw(toks[i + 1], 'BY') : true) &&
        !(prev && (prev.type === 'dot' || (prev.type === 'op' && prev.value === '->')));
      if (opens) clause = up;
    }
    clauseOf.push(clause);
  });
  return clauseOf;
}

function fromStreams(
  toks: Tok[],
  clauseOf: (Clause | null)[],
  sql: string,
): { streams: string[]; alias: string | null; subquery: boolean } {
  const streams: string[] = [];
  let alias: string | null = null;
  let subquery = false;
  toks.forEach((t, i) => {
    if (clauseOf[i] !== 'FROM') return;
    const prev = toks[i - 1];
    if (t.depth === 0 && t.type === 'lparen' && isKw(prev, 'FROM') && isKw(toks[i + 1], 'SELECT')) {
      // A subquery in FROM: the engine plans `SELECT *` over the inner stream, alias dropped.
      subquery = true;
      const close = matchingParen(toks, i);
      const inner = toks.slice(i + 1, close);
      const innerFrom = inner.findIndex((x) => x.depth === t.depth + 1 && isKw(x, 'FROM'));
      const name = inner[innerFrom + 1];
      if (name && (name.type === 'ident' || name.type === 'qident')) streams.push(sql.slice(name.start, name.end));
      return;
    }
    if (t.depth !== 0) return;
    const startsSource = isKw(prev, 'FROM') || isKw(prev, 'JOIN') || prev?.type === 'comma';
    if (!startsSource || (t.type !== 'ident' && t.type !== 'qident')) return;
    // The quotes become part of the name in the engine's lookup (CONTRACT §7).
    streams.push(t.type === 'qident' ? sql.slice(t.start, t.end) : t.value);
    if (streams.length === 1) {
      const next = toks[i + 1];
      const named = isKw(next, 'AS') ? toks[i + 2] : next;
      if (named && named.type === 'ident' && !KEYWORDS.has(named.value.toUpperCase())) alias = named.value;
    }
  });
  return { streams, alias: subquery ? null : alias, subquery };
}

function findWindow(
  toks: Tok[],
  clauseOf: (Clause | null)[],
): { window: WindowSpec | null; range: [number, number] | null } {
  let window: WindowSpec | null = null;
  let range: [number, number] | null = null;
  for (let i = 0; i < toks.length; i += 1) {
    const t = toks[i];
    const name = t.value.toLowerCase();
    if (clauseOf[i] !== 'GROUP' || t.type !== 'ident' || toks[i + 1]?.type !== 'lparen') continue;
    if (!(WINDOW_FUNCTIONS as readonly string[]).includes(name)) continue;
    if (window) throw new FakeParseError(`${DIALECT}Only one window function is allowed in GROUP BY`);
    const close = matchingParen(toks, i + 1);
    const args = splitArgs(toks, i + 2, close, t.depth + 1);
    const argText = args.map(([a, b]) => render(toks, a, b));
    const kind = name.replace('window', '') as WindowSpec['kind'];
    if (kind === 'tumbling' || kind === 'sliding') {
      const unit = args[0] ? toks[args[0][0]] : undefined;
      if (!unit || unit.type !== 'string')
        throw new FakeParseError(`${DIALECT}${name} time unit must be a string literal`);
      if (unit.value !== 'ss') {
        throw new FakeParseError(`${DIALECT}unsupported time unit \`${unit.value}\` (only \`ss\` allowed)`);
      }
      if (kind === 'tumbling' && args.length !== 2) {
        throw new FakeParseError(`${DIALECT}tumblingwindow requires 2 arguments: (time_unit, length)`);
      }
    }
    let end = close;
    const partition: string[] = [];
    if (isKw(toks[close + 1], 'OVER') && toks[close + 2]?.type === 'lparen') {
      if (kind !== 'state') throw new FakeParseError(`${DIALECT}${name} does not support OVER`);
      const overClose = matchingParen(toks, close + 2);
      if (isKw(toks[close + 3], 'PARTITION') && isKw(toks[close + 4], 'BY')) {
        for (const [a, b] of splitArgs(toks, close + 5, overClose, t.depth + 1)) partition.push(render(toks, a, b));
      }
      end = overClose;
    }
    window = { kind, args: argText, partition };
    range = [i, end];
  }
  return { window, range };
}

function matchingParen(toks: Tok[], open: number): number {
  const depth = toks[open].depth;
  for (let j = open + 1; j < toks.length; j += 1) {
    const t = toks[j];
    if (t.type === 'rparen' && t.depth === depth) return j;
  }
  return toks.length - 1;
}

/** Splits tokens [from, to) on the commas at `depth`, dropping empty pieces. */
function splitArgs(toks: Tok[], from: number, to: number, depth: number): [number, number][] {
  const out: [number, number][] = [];
  let start = from;
  for (let j = from; j < to; j += 1) {
    const t = toks[j];
    if (t.type === 'comma' && t.depth === depth) {
      out.push([start, j]);
      start = j + 1;
    }
  }
  out.push([start, to]);
  return out.filter(([a, b]) => b > a);
}

/**
 * Tokens [from, to) as sqlparser's Display prints them: keywords upper case, binary operators
 * spaced, `f(a, b)`, `-x`, and a string map key in double quotes (`m["k"]`).
 */
export function render(toks: Tok[], from: number, to: number, replace?: Map<number, [number, string]>): string {
  let out = '';
  let prev: Tok | undefined;
  let prevText = '';
  for (let j = from; j < to; j += 1) {
    const swap = replace?.get(j);
    const t = toks[j];
    let text: string;
    if (swap) {
      text = swap[1];
    } else if (t.type === 'string') {
      text = isOp(prev, '[') ? `"${t.value}"` : `'${t.value.replace(/'/g, "''")}'`;
    } else if (t.type === 'qident') {
      text = `${t.quote}${t.value}${t.quote}`;
    } else if (t.type === 'ident' && KEYWORDS.has(t.value.toUpperCase()) && !isCallName(toks, j)) {
      text = t.value.toUpperCase();
    } else {
      text = t.value;
    }
    if (out !== '' && needsSpace(prev, t, prevText, toks, j)) out += ' ';
    out += text;
    prevText = text;
    if (swap) {
      prev = { ...t, type: 'ident', value: text };
      j = swap[0] - 1;
    } else {
      prev = t;
    }
  }
  return out;
}

function isCallName(toks: Tok[], j: number): boolean {
  const t = toks[j];
  return (
    toks[j + 1]?.type === 'lparen' &&
    !['IN', 'OVER', 'FILTER', 'AS', 'AND', 'OR', 'NOT', 'EXISTS', 'CAST', 'ON'].includes(t.value.toUpperCase())
  );
}

function needsSpace(prev: Tok | undefined, t: Tok, prevText: string, toks: Tok[], j: number): boolean {
  if (!prev) return false;
  if (t.type === 'comma' || t.type === 'rparen' || t.type === 'dot' || prev.type === 'dot') return false;
  if (prev.type === 'lparen' || isOp(prev, '[') || isOp(t, ']') || isOp(t, '[')) return false;
  if (t.type === 'lparen') {
    // `f(x)`, but `IN (…)`, `OVER (…)`, `FILTER (…)`.
    return (
      !(prev.type === 'ident' || prev.type === 'qident') ||
      (KEYWORDS.has(prevText) && prevText === prevText.toUpperCase() && !isCallName(toks, j - 1))
    );
  }
  if (prev.type === 'op' && (prev.value === '-' || prev.value === '+')) {
    // Unary when it starts an operand.
    const before = toks[j - 2];
    const unary =
      !before ||
      before.type === 'op' ||
      before.type === 'lparen' ||
      before.type === 'comma' ||
      (before.type === 'ident' && KEYWORDS.has(before.value.toUpperCase()) && !isCallName(toks, j - 2));
    return !unary;
  }
  return true;
}

/** What the engine knows while planning one query. */
export interface PlanContext {
  stream: string;
  columns: Column[];
  /** Every callable name (lowercase): scalar + aliases, aggregate, stateful. */
  functions: Set<string>;
  aggregates: Set<string>;
  stateful: Set<string>;
  /** Sorted scalar names and aliases, echoed in the unknown-function message. */
  scalarNames: string[];
}

/** The pieces explain renders. */
export interface PlannedSql {
  stream: string;
  alias: string | null;
  /** DataSource schema entries, in stream column order. */
  schema: string[];
  /** Column names of {@link schema}, for the encoder's by-index projection. */
  schemaColumns: string[];
  computes: string[];
  stateful: string[];
  window: WindowSpec | null;
  aggregates: string[];
  groupKeys: string[];
  filters: string[];
  order: string[];
  fields: string[];
  /** Project fields the encoder takes straight from the source row: `[schema index, name]`. */
  passthrough: [number, string][];
  /** Fields left to the physical project once {@link passthrough} is taken out. */
  physicalFields: string[];
}

interface SelectItem {
  from: number;
  to: number;
  expr: string;
  alias: string | null;
}

const COMPILE = 'Failed to compile expression: ';
const FILTER = 'Failed to convert filter predicate to scalar expression: ';

/**
 * Planner stage (CONTRACT §5.2 step 9): semantic checks, then column and function resolution.
 * Throws {@link FakePlanError} with the engine's message after `pipeline build error: `.
 */
export function planSql(parsed: ParsedSql, ctx: PlanContext): PlannedSql {
  const { toks } = parsed;
  if (parsed.streams.length === 0) throw new FakePlanError('No data source found in SELECT statement');
  const columnNames = new Set(ctx.columns.map((c) => c.name));
  const items = parsed.fromSubquery ? [] : selectItems(parsed);
  const star = parsed.fromSubquery || items.some((i) => i.expr === '*' || i.expr.endsWith('.*'));

  const aliases = new Set<string>();
  for (const item of items) {
    if (item.alias === null) continue;
    if (/^col_[0-9]+$/.test(item.alias) || item.alias.startsWith('__vf_')) {
      throw new FakePlanError(`SELECT alias \`${item.alias}\` is reserved`);
    }
    if (columnNames.has(item.alias)) {
      throw new FakePlanError(`SELECT alias \`${item.alias}\` collides with an input column name`);
    }
    aliases.add(item.alias);
  }

  const groupKeys = groupByKeys(parsed);
  for (const key of groupKeys) {
    const t = toks[key[0]];
    if (key[1] - key[0] === 1 && t.type === 'ident' && aliases.has(t.value)) {
      throw new FakePlanError('aliases in GROUP BY are not supported yet');
    }
    if (t.type === 'ident' && toks[key[0] + 1]?.type === 'lparen' && !ctx.functions.has(t.value.toLowerCase())) {
      throw new FakePlanError(`Unsupported expression: ${unknownFunction(t.value, ctx)}`);
    }
  }

  if (parsed.streams.length > 1) {
    throw new FakePlanError(
      'Invalid configuration: encoder processor failed to resolve output schema: PhysicalBarrier fan-in children output schemas mismatch',
    );
  }

  // Column and function resolution, clause by clause.
  const used = new Set<string>();
  const resolve = (from: number, to: number, prefix: string, where: boolean): void =>
    resolveRange(parsed, ctx, from, to, prefix, where, aliases, columnNames, used);
  for (const item of items) resolve(item.from, item.to, COMPILE, false);
  const whereRange = clauseRange(parsed, 'WHERE', 1);
  if (whereRange) resolve(whereRange[0], whereRange[1], FILTER, true);
  for (const [a, b] of groupKeys) resolve(a, b, COMPILE, false);
  if (parsed.windowRange) resolve(parsed.windowRange[0] + 2, parsed.windowRange[1], COMPILE, false);
  const havingRange = clauseRange(parsed, 'HAVING', 1);
  if (havingRange) resolve(havingRange[0], havingRange[1], FILTER, false);
  const orderRange = clauseRange(parsed, 'ORDER', 2);
  if (orderRange) resolve(orderRange[0], orderRange[1], COMPILE, false);

  // Placeholders: aggregates and stateful calls become col_N.
  const calls: { text: string; kind: 'aggregate' | 'stateful' }[] = [];
  const replace = new Map<number, [number, string]>();
  const placeholders = (from: number, to: number): void => {
    for (let j = from; j < to; j += 1) {
      const t = toks[j];
      if (t.type !== 'ident' || toks[j + 1]?.type !== 'lparen') continue;
      const name = t.value.toLowerCase();
      const kind = ctx.aggregates.has(name) ? 'aggregate' : ctx.stateful.has(name) ? 'stateful' : null;
      if (!kind) continue;
      let end = matchingParen(toks, j + 1) + 1;
      // `lag(x) FILTER (WHERE …) OVER (PARTITION BY …)` is one call.
      for (const kw of ['FILTER', 'OVER']) {
        if (isKw(toks[end], kw) && toks[end + 1]?.type === 'lparen') end = matchingParen(toks, end + 1) + 1;
      }
      const text = render(toks, j, end);
      let index = calls.findIndex((c) => c.text === text);
      if (index === -1) index = calls.push({ text, kind }) - 1;
      replace.set(j, [end, `col_${index + 1}`]);
      j = end - 1;
    }
  };
  for (const item of items) placeholders(item.from, item.to);
  if (whereRange) placeholders(whereRange[0], whereRange[1]);
  if (havingRange) placeholders(havingRange[0], havingRange[1]);

  const aggregates = calls.filter((c) => c.kind === 'aggregate');
  const hasAggregate = (from: number, to: number): boolean =>
    [...replace.keys()].some(
      (j) => j >= from && j < to && calls[Number(replace.get(j)?.[1].slice(4)) - 1].kind === 'aggregate',
    );

  if (havingRange && !parsed.window) throw new FakePlanError('HAVING requires GROUP BY window');
  if (groupKeys.length > 0 && aggregates.length === 0) {
    throw new FakePlanError('GROUP BY without aggregate functions is not supported; use aggregates or remove GROUP BY');
  }
  const keyTexts = groupKeys.map(([a, b]) => render(toks, a, b));
  if (aggregates.length > 0) {
    for (const item of items) {
      if (hasAggregate(item.from, item.to)) continue;
      const readsColumn =
        item.expr === '*' || toks.slice(item.from, item.to).some((t) => t.type === 'ident' || t.type === 'qident');
      if (readsColumn && !keyTexts.includes(item.expr)) {
        throw new FakePlanError(`SELECT expression '${item.expr}' must be an aggregate or appear in GROUP BY`);
      }
    }
  }

  // Aliases read by WHERE are computed once below the filter (`__vf_cse_N`).
  const computes: string[] = [];
  const cse = new Map<string, string>();
  if (whereRange) {
    for (let j = whereRange[0]; j < whereRange[1]; j += 1) {
      const t = toks[j];
      if (t.type !== 'ident' || !aliases.has(t.value) || cse.has(t.value)) continue;
      const item = items.find((i) => i.alias === t.value) as SelectItem;
      const name = `__vf_cse_${cse.size + 1}`;
      cse.set(t.value, name);
      computes.push(`${name} = ${render(toks, item.from, item.to, replace)}`);
    }
    for (let j = whereRange[0]; j < whereRange[1]; j += 1) {
      const t = toks[j];
      if (t.type === 'ident' && cse.has(t.value)) replace.set(j, [j + 1, cse.get(t.value) as string]);
    }
  }

  const filters: string[] = [];
  if (whereRange) filters.push(render(toks, whereRange[0], whereRange[1], replace));
  if (havingRange) filters.push(render(toks, havingRange[0], havingRange[1], replace));

  const allColumns = star || (aggregates.some((c) => /^count\(\*\)$/i.test(c.text)) && true);
  const schemaColumns = ctx.columns.filter((c) => allColumns || used.has(c.name));
  const schema = schemaColumns.map(schemaEntry);
  const schemaNames = schemaColumns.map((c) => c.name);

  const fields: string[] = [];
  const physicalFields: string[] = [];
  const passthrough: [number, string][] = [];
  const qualifiers = new Set([ctx.stream, parsed.streamAlias].filter((x): x is string => !!x));
  for (const item of parsed.fromSubquery ? [{ from: 0, to: 0, expr: '*', alias: null }] : items) {
    const plain = item.to > item.from ? render(toks, item.from, item.to) : item.expr;
    const rewritten = item.to > item.from ? render(toks, item.from, item.to, replace) : item.expr;
    const aliasName = item.alias !== null ? (cse.get(item.alias) ?? null) : null;
    let field: string;
    if (aliasName) field = `${aliasName} as ${item.alias}`;
    else if (rewritten !== plain) field = `${rewritten} as ${item.alias ?? plain}`;
    else field = item.alias ? `${plain} as ${item.alias}` : plain;
    fields.push(field);
    const column =
      item.alias === null && rewritten === plain ? plainColumn(toks, item.from, item.to, qualifiers) : null;
    const index = column === null ? -1 : schemaNames.indexOf(column);
    if (index >= 0) passthrough.push([index, plain]);
    else physicalFields.push(field);
  }

  const orderKeys = orderRange
    ? splitArgs(toks, orderRange[0], orderRange[1], 0).map(([a, b]) => render(toks, a, b))
    : [];
  return {
    stream: parsed.streams[0],
    alias: parsed.streamAlias,
    schema,
    schemaColumns: schemaNames,
    computes,
    stateful: calls.filter((c) => c.kind === 'stateful').map((c) => `${c.text} -> col_${calls.indexOf(c) + 1}`),
    window: parsed.window,
    aggregates: aggregates.map((c) => `${c.text} -> col_${calls.indexOf(c) + 1}`),
    groupKeys: keyTexts,
    filters,
    order: orderKeys,
    fields,
    passthrough,
    physicalFields,
  };
}

/** `col`, `` `col` ``, `stream.col` or `alias.col`: the column name, else null. */
function plainColumn(toks: Tok[], from: number, to: number, qualifiers: Set<string>): string | null {
  const span = toks.slice(from, to);
  if (
    span.length === 1 &&
    (span[0].type === 'ident' || span[0].type === 'qident') &&
    !KEYWORDS.has(span[0].value.toUpperCase())
  ) {
    return span[0].value;
  }
  if (span.length === 3 && span[1].type === 'dot' && qualifiers.has(span[0].value) && span[2].type === 'ident') {
    return span[2].value;
  }
  return null;
}

const SCALAR_TYPE_NAMES: Record<string, string> = {
  int8: 'Int8',
  int16: 'Int16',
  int32: 'Int32',
  int64: 'Int64',
  uint8: 'UInt8',
  uint16: 'UInt16',
  uint32: 'UInt32',
  uint64: 'UInt64',
  float32: 'Float32',
  float64: 'Float64',
};

/** A DataSource schema entry: the name, and for a list of numbers its element type. */
function schemaEntry(c: Column): string {
  if (c.data_type === 'list' && c.element && SCALAR_TYPE_NAMES[c.element.data_type]) {
    const t = SCALAR_TYPE_NAMES[c.element.data_type];
    return `${c.name}[*][${t}(${t}Type)]`;
  }
  return c.name;
}

function clauseRange(parsed: ParsedSql, clause: Clause, skip: number): [number, number] | null {
  const idx = parsed.toks.map((_, i) => i).filter((i) => parsed.clauseOf[i] === clause);
  if (idx.length <= skip) return null;
  return [idx[0] + skip, (idx.at(-1) as number) + 1];
}

function selectItems(parsed: ParsedSql): SelectItem[] {
  const { toks } = parsed;
  const range = clauseRange(parsed, 'SELECT', 1);
  if (!range) return [];
  const start = isKw(toks[range[0]], 'DISTINCT') ? range[0] + 1 : range[0];
  return splitArgs(toks, start, range[1], 0).map(([a, b]) => {
    let alias: string | null = null;
    let end = b;
    if (b - a >= 3 && isKw(toks[b - 2], 'AS')) {
      alias = toks[b - 1].value;
      end = b - 2;
    }
    return { from: a, to: end, expr: render(toks, a, end), alias };
  });
}

/** GROUP BY items other than the window call, as token ranges. */
function groupByKeys(parsed: ParsedSql): [number, number][] {
  const { toks, windowRange } = parsed;
  const range = clauseRange(parsed, 'GROUP', 2);
  if (!range) return [];
  return splitArgs(toks, range[0], range[1], 0).filter(([a]) => !windowRange || a !== windowRange[0]);
}

function unknownFunction(name: string, ctx: PlanContext): string {
  const list = ctx.scalarNames.map((n) => `"${n}"`).join(', ');
  return `Unknown function: '${name}'. Available custom functions: [${list}]`;
}

/** Walks the identifiers of tokens [from, to); records the top-level columns read in `used`. */
function resolveRange(
  parsed: ParsedSql,
  ctx: PlanContext,
  from: number,
  to: number,
  prefix: string,
  where: boolean,
  aliases: Set<string>,
  columnNames: Set<string>,
  used: Set<string>,
): void {
  const { toks, sql } = parsed;
  const qualifiers = new Set([ctx.stream, parsed.streamAlias].filter((x): x is string => !!x));
  const unsupported = (what: string): never => {
    throw new FakePlanError(`${prefix}Unsupported expression: ${what}`);
  };

  for (let i = from; i < to; i += 1) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (t.type === 'op') {
      if (t.value === '||') throw new FakePlanError(`${prefix}Unsupported operator: StringConcat`);
      if (t.value === '->>' || t.value === '::') throw new FakePlanError(`${prefix}Unsupported operator: ${t.value}`);
      continue;
    }
    if (t.type !== 'ident' && t.type !== 'qident') continue;
    if (prev?.type === 'dot') continue;
    if (isOp(prev, '->')) {
      checkStructField(parsed, ctx, i, prefix);
      continue;
    }
    if (isKw(prev, 'AS') && t.type === 'ident') continue;
    if (t.type === 'ident') {
      const up = t.value.toUpperCase();
      if (up === 'IS') {
        const negated = isKw(next, 'NOT');
        const what = toks[i + (negated ? 2 : 1)];
        if (isKw(what, 'NULL')) unsupported(`${negated ? 'IsNotNull' : 'IsNull'}(${debugOperand(toks, i, sql)})`);
        unsupported(`${up}`);
      }
      if (up === 'LIKE' || up === 'ILIKE' || (up === 'NOT' && (isKw(next, 'LIKE') || isKw(next, 'ILIKE')))) {
        const negated = up === 'NOT';
        const op = negated ? toks[i + 1] : t;
        const kind = op.value.toUpperCase() === 'LIKE' ? 'Like' : 'ILike';
        const pattern = toks[i + (negated ? 2 : 1)];
        unsupported(
          `${kind} { negated: ${negated}, expr: ${debugOperand(toks, i, sql)}, pattern: ${debugTok(pattern)}, escape_char: None }`,
        );
      }
      if (up === 'CAST' && next?.type === 'lparen') {
        const close = matchingParen(toks, i + 1);
        const asAt = toks.findIndex((x, k) => k > i + 1 && k < close && x.depth === t.depth + 1 && isKw(x, 'AS'));
        const expr = debugRange(toks, i + 2, asAt);
        unsupported(`Cast { expr: ${expr}, data_type: ${dataTypeDebug(toks, asAt + 1, close)}, format: None }`);
      }
      if ((up === 'TIMESTAMP' || up === 'DATE') && next?.type === 'string') {
        const dt = up === 'TIMESTAMP' ? 'Timestamp(None, None)' : 'Date';
        unsupported(`TypedString { data_type: ${dt}, value: ${JSON.stringify(next.value)} }`);
      }
      if (up === 'INTERVAL') {
        // A column named interval, bare: the parser reads `INTERVAL FROM <stream>` as an interval
        // literal and the statement is left with no FROM (live engine; live-engine.ts).
        if (isKw(next, 'FROM')) throw new FakePlanError('No data source found in SELECT statement');
        const field = toks[i + 2]?.type === 'ident' ? toks[i + 2].value : null;
        const leading = field ? `Some(${field[0].toUpperCase()}${field.slice(1).toLowerCase()})` : 'None';
        unsupported(
          `Interval(Interval { value: ${debugTok(next)}, leading_field: ${leading}, leading_precision: None, last_field: None, fractional_seconds_precision: None })`,
        );
      }
      if (up === 'IN' && next?.type === 'lparen' && isKw(toks[i + 2], 'SELECT')) {
        unsupported(inSubqueryDebug(toks, i, sql));
      }
      if (up === 'EXISTS' || up === 'EXTRACT') unsupported(up);
      if (isKw(prev, 'NULLS') && (up === 'FIRST' || up === 'LAST')) continue;
      if (KEYWORDS.has(up) && !(next?.type === 'lparen' && isCallName(toks, i))) continue;
    }
    if (next?.type === 'lparen') {
      const name = t.type === 'qident' ? `${t.quote}${t.value}${t.quote}` : t.value;
      const lower = name.toLowerCase();
      const known =
        t.type === 'ident' &&
        ((WINDOW_FUNCTIONS as readonly string[]).includes(lower) ||
          (ctx.functions.has(lower) && !(where && ctx.aggregates.has(lower))));
      if (!known) throw new FakePlanError(`${prefix}Unsupported expression: ${unknownFunction(name, ctx)}`);
      // `count(*)`, `count(DISTINCT x)`: the inner tokens are resolved as they come.
      continue;
    }
    if (next?.type === 'dot') {
      const field = toks[i + 2];
      if (isOp(field, '*')) continue;
      if (!qualifiers.has(t.value)) throw new FakePlanError(`${prefix}Column not found: ${t.value}`);
      if (!field || !columnNames.has(field.value)) {
        throw new FakePlanError(`${prefix}Column not found: ${t.value}.${field?.value ?? ''}`);
      }
      used.add(field.value);
      continue;
    }
    if (t.type === 'ident' && (aliases.has(t.value) || qualifiers.has(t.value))) continue;
    if (!columnNames.has(t.value)) {
      // The engine's format string really lacks the closing quote (examples/error_unknown_column.txt).
      throw new FakePlanError(`${prefix}Column not found: No schema bindings available for identifier '${t.value}`);
    }
    used.add(t.value);
  }
}

/** sqlparser's Debug of one token as an expression. */
function debugTok(t: Tok | undefined): string {
  if (!t) return 'None';
  if (t.type === 'string') return `Value(SingleQuotedString(${JSON.stringify(t.value)}))`;
  if (t.type === 'number') return `Value(Number(${JSON.stringify(t.value)}, false))`;
  return identDebug(t, 'Identifier');
}

function identDebug(t: Tok, wrapper: string | null): string {
  const quote = t.type === 'qident' ? `Some('${t.quote}')` : 'None';
  const ident = `Ident { value: ${JSON.stringify(t.value)}, quote_style: ${quote} }`;
  return wrapper ? `${wrapper}(${ident})` : ident;
}

function debugRange(toks: Tok[], from: number, to: number): string {
  const span = toks.slice(from, to);
  if (span.length === 1) return debugTok(span[0]);
  if (span.length === 3 && span[1].type === 'dot') {
    return `CompoundIdentifier([${identDebug(span[0], null)}, ${identDebug(span[2], null)}])`;
  }
  return render(toks, from, to);
}

/** The operand left of the operator at `i` (an identifier or `a.b`). */
function debugOperand(toks: Tok[], i: number, _sql: string): string {
  if (toks[i - 2]?.type === 'dot') return debugRange(toks, i - 3, i);
  return debugTok(toks[i - 1]);
}

function dataTypeDebug(toks: Tok[], from: number, to: number): string {
  const name = toks
    .slice(from, to)
    .map((t) => t.value.toUpperCase())
    .join(' ');
  const known: Record<string, string> = {
    BIGINT: 'BigInt(None)',
    INT: 'Int(None)',
    INTEGER: 'Integer(None)',
    SMALLINT: 'SmallInt(None)',
    STRING: 'String(None)',
    VARCHAR: 'Varchar(None)',
    TEXT: 'Text',
    FLOAT: 'Float(None)',
    DOUBLE: 'Double',
    REAL: 'Real',
    BOOLEAN: 'Boolean',
    BOOL: 'Bool',
    TIMESTAMP: 'Timestamp(None, None)',
    DATE: 'Date',
  };
  return known[name] ?? `Custom(ObjectName([Ident { value: ${JSON.stringify(name)}, quote_style: None }]), [])`;
}

/** `x IN (SELECT y FROM s)` as sqlparser 0.40 debug-prints it (the simple shape only). */
function inSubqueryDebug(toks: Tok[], i: number, sql: string): string {
  const close = matchingParen(toks, i + 1);
  const inner = toks.slice(i + 3, close);
  const fromAt = inner.findIndex((t) => isKw(t, 'FROM'));
  const projection = inner
    .slice(0, fromAt)
    .filter((t) => t.type === 'ident' || t.type === 'qident')
    .map((t) => `UnnamedExpr(${identDebug(t, 'Identifier')})`)
    .join(', ');
  const table = inner[fromAt + 1];
  const relation = table
    ? `Table { name: ObjectName([${identDebug(table, null)}]), alias: None, args: None, with_hints: [], version: None, partitions: [] }`
    : '';
  const select =
    `Select(Select { distinct: None, top: None, projection: [${projection}], into: None, ` +
    `from: [TableWithJoins { relation: ${relation}, joins: [] }], lateral_views: [], selection: None, ` +
    'group_by: Expressions([]), cluster_by: [], distribute_by: [], sort_by: [], having: None, named_window: [], qualify: None })';
  const query =
    `Query { with: None, body: ${select}, order_by: [], limit: None, limit_by: [], offset: None, fetch: None, ` +
    'locks: [], for_clause: None }';
  const negated = isKw(toks[i - 1], 'NOT');
  const operand = debugOperand(toks, negated ? i - 1 : i, sql);
  return `InSubquery { expr: ${operand}, subquery: ${query}, negated: ${negated} }`;
}

/** `a->b`: the field must exist, and `a->b > 1` is the precedence trap of CONTRACT §7. */
function checkStructField(parsed: ParsedSql, ctx: PlanContext, i: number, prefix: string): void {
  const { toks } = parsed;
  const next = toks[i + 1];
  const binary =
    (next?.type === 'op' && !['->', '[', ']'].includes(next.value)) || isKw(next, 'AND') || isKw(next, 'OR');
  if (binary) {
    throw new FakePlanError(`${prefix}Unsupported expression: Struct field access right side must be an identifier`);
  }
  // Only one level is checked: the base must be a top-level struct column.
  const base = toks[i - 2];
  if (!base || toks[i - 3]?.type === 'op') return;
  const column = ctx.columns.find((c) => c.name === base.value);
  if (column?.data_type === 'struct' && column.fields) {
    const field = toks[i].value;
    if (!column.fields.some((f) => f.name === field)) {
      const available = column.fields.map((f) => f.name).join(', ');
      throw new FakePlanError(`field \`${field}\` not found in struct (available: ${available})`);
    }
  }
}
