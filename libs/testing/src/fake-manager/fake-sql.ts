import type { Column } from '@nl2p/envelope';

// A deliberately small imitation of veloFlux's SQL front end: enough to reproduce the error
// classes and texts of CONTRACT §7–§8 for the queries tests write, not a SQL parser.

type TokType = 'ident' | 'qident' | 'string' | 'number' | 'op' | 'lparen' | 'rparen' | 'comma' | 'semicolon' | 'dot';

export interface Tok {
  type: TokType;
  /** Identifier name without quotes, string content, or the operator text. */
  value: string;
  start: number;
  end: number;
  /** Parenthesis depth at the token (the parens themselves count as the outer depth). */
  depth: number;
}

/** A parse-stage failure: the server reports it as `parse pipeline <id> sql: <message>`. */
export class FakeParseError extends Error {}

/** A planner failure: `failed to create pipeline <id>: pipeline build error: <message>`. */
export class FakePlanError extends Error {}

const KEYWORDS = new Set(
  (
    'SELECT FROM WHERE GROUP BY HAVING ORDER ASC DESC AS AND OR NOT IN IS NULL TRUE FALSE BETWEEN CASE WHEN ' +
    'THEN ELSE END LIMIT OFFSET DISTINCT OVER PARTITION FILTER LIKE ILIKE NULLS JOIN ON INNER LEFT RIGHT OUTER ' +
    'FULL CROSS EXISTS INTERVAL UNION ALL FETCH ONLY EXTRACT WITH'
  ).split(' '),
);

const NON_SELECT_STATEMENTS = new Set(
  'INSERT UPDATE DELETE CREATE DROP ALTER WITH EXPLAIN SHOW SET USE VALUES TRUNCATE'.split(' '),
);

/** Parsed by the dialect, not the function registry, so they are valid only inside GROUP BY. */
export const WINDOW_FUNCTIONS = ['tumblingwindow', 'slidingwindow', 'countwindow', 'statewindow'] as const;

const CLAUSE_KEYWORDS = ['SELECT', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET'] as const;
type Clause = (typeof CLAUSE_KEYWORDS)[number];

export function tokenize(sql: string): Tok[] {
  const toks: Tok[] = [];
  let depth = 0;
  let i = 0;
  const push = (type: TokType, value: string, start: number, end: number): void => {
    toks.push({ type, value, start, end, depth });
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
          throw new FakeParseError(`Parse error: sql parser error: Unterminated ${what} at ${location(sql, i)}`);
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
      push(c === "'" ? 'string' : 'qident', value, i, j + 1);
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
      if (depth < 0)
        throw new FakeParseError(
          `Parse error: sql parser error: Expected end of statement, found: ) at ${location(sql, i)}`,
        );
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
      const two = sql.slice(i, i + 2);
      const op = ['->', '>=', '<=', '<>', '!=', '||', '::', '->>'].includes(two) ? two : c;
      push('op', op, i, i + op.length);
      i += op.length;
    }
  }
  if (depth > 0) throw new FakeParseError('Parse error: sql parser error: Expected ), found: EOF');
  return toks;
}

function location(sql: string, pos: number): string {
  const before = sql.slice(0, pos).split('\n');
  return `Line: ${before.length}, Column ${before[before.length - 1].length + 1}`;
}

const isKw = (t: Tok | undefined, kw: string): boolean => t?.type === 'ident' && t.value.toUpperCase() === kw;

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
  /** Stream names as the engine would look them up (a quoted name keeps its quotes). */
  streams: string[];
  streamAlias: string | null;
  window: WindowSpec | null;
  /** Token index ranges of the GROUP BY window call, so key extraction can skip it. */
  windowRange: [number, number] | null;
}

/** Parse stage (CONTRACT §5.2 step 6): statement shape, clauses, streams and window syntax. */
export function parseSql(rawSql: string): ParsedSql {
  const all = tokenize(rawSql);
  const semi = all.findIndex((t) => t.type === 'semicolon');
  const toks = semi === -1 ? all : all.slice(0, semi);
  if (semi !== -1 && all.slice(semi).some((t) => t.type !== 'semicolon')) {
    throw new FakeParseError('Expected exactly one SQL statement');
  }
  const first = toks[0];
  if (!first) throw new FakeParseError('Parse error: sql parser error: Expected an SQL statement, found: EOF');
  if (!isKw(first, 'SELECT')) {
    if (first.type === 'ident' && NON_SELECT_STATEMENTS.has(first.value.toUpperCase())) {
      throw new FakeParseError('Expected a SELECT query');
    }
    const text = rawSql.slice(first.start, first.end);
    throw new FakeParseError(
      `Parse error: sql parser error: Expected an SQL statement, found: ${text} at ${location(rawSql, first.start)}`,
    );
  }
  const last = toks[toks.length - 1];
  if (
    (last.type === 'op' && last.value !== '*') ||
    ['SELECT', 'WHERE', 'AND', 'OR', 'BY', 'HAVING', 'FROM', 'NOT'].some((k) => isKw(last, k))
  ) {
    throw new FakeParseError('Parse error: sql parser error: Expected an expression:, found: EOF');
  }
  if (toks.some((t) => t.depth === 0 && isKw(t, 'UNION'))) {
    throw new FakeParseError('Expected a simple SELECT query');
  }

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

  const { streams, alias } = fromStreams(toks, clauseOf, rawSql);
  const { window, range } = findWindow(toks, clauseOf, rawSql);
  return { sql: rawSql, toks, clauseOf, streams, streamAlias: alias, window, windowRange: range };
}

function fromStreams(
  toks: Tok[],
  clauseOf: (Clause | null)[],
  sql: string,
): { streams: string[]; alias: string | null } {
  const streams: string[] = [];
  let alias: string | null = null;
  toks.forEach((t, i) => {
    if (clauseOf[i] !== 'FROM' || t.depth !== 0) return;
    const prev = toks[i - 1];
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
  return { streams, alias };
}

function findWindow(
  toks: Tok[],
  clauseOf: (Clause | null)[],
  sql: string,
): { window: WindowSpec | null; range: [number, number] | null } {
  let window: WindowSpec | null = null;
  let range: [number, number] | null = null;
  for (let i = 0; i < toks.length; i += 1) {
    const t = toks[i];
    const name = t.value.toLowerCase();
    if (clauseOf[i] !== 'GROUP' || t.type !== 'ident' || toks[i + 1]?.type !== 'lparen') continue;
    if (!(WINDOW_FUNCTIONS as readonly string[]).includes(name)) continue;
    if (window) {
      throw new FakeParseError(
        'Dialect processing error: sql parser error: Only one window function is allowed in GROUP BY',
      );
    }
    const close = matchingParen(toks, i + 1);
    const args = splitArgs(toks, i + 2, close, t.depth + 1);
    const argText = args.map(([a, b]) => textOf(sql, toks, a, b));
    const kind = name.replace('window', '') as WindowSpec['kind'];
    if (kind === 'tumbling' || kind === 'sliding') {
      const unit = args[0] ? toks[args[0][0]] : undefined;
      if (!unit || unit.type !== 'string') {
        throw new FakeParseError(
          `Dialect processing error: sql parser error: ${name} time unit must be a string literal`,
        );
      }
      if (unit.value !== 'ss') {
        throw new FakeParseError(
          `Dialect processing error: sql parser error: unsupported time unit \`${unit.value}\` (only \`ss\` allowed)`,
        );
      }
      if (kind === 'tumbling' && args.length !== 2) {
        throw new FakeParseError(
          'Dialect processing error: sql parser error: tumblingwindow requires 2 arguments: (time_unit, length)',
        );
      }
    }
    let end = close;
    const partition: string[] = [];
    if (isKw(toks[close + 1], 'OVER') && toks[close + 2]?.type === 'lparen') {
      const overClose = matchingParen(toks, close + 2);
      if (isKw(toks[close + 3], 'PARTITION') && isKw(toks[close + 4], 'BY')) {
        for (const [a, b] of splitArgs(toks, close + 5, overClose, t.depth + 1))
          partition.push(textOf(sql, toks, a, b));
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

function textOf(sql: string, toks: Tok[], from: number, to: number): string {
  if (to <= from) return '';
  return sql
    .slice(toks[from].start, toks[to - 1].end)
    .replace(/\s+/g, ' ')
    .trim();
}

/** What the engine knows while planning one query. */
export interface PlanContext {
  stream: string;
  columns: Column[];
  /** Every callable name (lowercase): scalar + aliases, aggregate, stateful. */
  functions: Set<string>;
  aggregates: Set<string>;
  /** Sorted scalar names and aliases, echoed in the unknown-function message. */
  scalarNames: string[];
}

/** The pieces explain renders. */
export interface PlannedSql {
  fields: string[];
  aggregates: string[];
  groupKeys: string[];
  window: WindowSpec | null;
  predicate: string | null;
  schema: string[];
}

interface SelectItem {
  from: number;
  to: number;
  expr: string;
  alias: string | null;
}

/**
 * Planner stage (CONTRACT §5.2 step 9): semantic checks, then column and function resolution.
 * Throws {@link FakePlanError} with the engine's message after `pipeline build error: `.
 */
export function planSql(parsed: ParsedSql, ctx: PlanContext): PlannedSql {
  const { toks, clauseOf, sql } = parsed;
  if (parsed.streams.length === 0) throw new FakePlanError('No data source found in SELECT statement');
  const columnNames = new Set(ctx.columns.map((c) => c.name));

  const items = selectItems(parsed);
  const aliases = new Set<string>();
  for (const item of items) {
    if (item.alias === null) continue;
    if (columnNames.has(item.alias)) {
      throw new FakePlanError(`SELECT alias \`${item.alias}\` collides with an input column name`);
    }
    aliases.add(item.alias);
  }

  const groupKeys = groupByKeys(parsed);
  const aggCalls: string[] = [];
  const collect = (from: number, to: number): string => rewriteAggregates(parsed, ctx, from, to, aggCalls);
  const projected = items.map((item) => {
    const rewritten = collect(item.from, item.to);
    const hasAggregate = rewritten !== item.expr;
    const field = hasAggregate
      ? `${rewritten} as ${item.alias ?? item.expr}`
      : item.alias
        ? `${item.expr} as ${item.alias}`
        : item.expr;
    return { item, field, hasAggregate };
  });
  const having = toks.map((_, i) => i).filter((i) => clauseOf[i] === 'HAVING');
  if (having.length > 1) collect(having[0] + 1, (having.at(-1) as number) + 1);

  if (having.length > 0 && !parsed.window) throw new FakePlanError('HAVING requires GROUP BY window');
  if (groupKeys.length > 0 && aggCalls.length === 0) {
    throw new FakePlanError('GROUP BY without aggregate functions is not supported; use aggregates or remove GROUP BY');
  }
  if (aggCalls.length > 0) {
    for (const { item, hasAggregate } of projected) {
      const readsColumn = toks.slice(item.from, item.to).some((t) => t.type === 'ident' || t.type === 'qident');
      if (!hasAggregate && readsColumn && !item.expr.endsWith('*') && !groupKeys.includes(item.expr)) {
        throw new FakePlanError(`SELECT expression '${item.expr}' must be an aggregate or appear in GROUP BY`);
      }
    }
  }

  const used = resolveIdentifiers(parsed, ctx, aliases, columnNames);
  const star = items.some((i) => i.expr === '*' || i.expr.endsWith('.*'));
  const whereIdx = toks.map((_, i) => i).filter((i) => clauseOf[i] === 'WHERE' && !isKw(toks[i], 'WHERE'));
  const predicate = whereIdx.length ? textOf(sql, toks, whereIdx[0], (whereIdx.at(-1) as number) + 1) : null;
  return {
    fields: projected.map((p) => p.field),
    aggregates: aggCalls.map((call, i) => `${call} -> col_${i + 1}`),
    groupKeys,
    window: parsed.window,
    predicate,
    schema: ctx.columns.map((c) => c.name).filter((name) => star || used.has(name)),
  };
}

/** The text of tokens [from, to) with each aggregate call replaced by its `col_N` placeholder. */
function rewriteAggregates(parsed: ParsedSql, ctx: PlanContext, from: number, to: number, calls: string[]): string {
  const { toks, sql } = parsed;
  let out = '';
  let cursor = toks[from].start;
  for (let j = from; j < to; j += 1) {
    const t = toks[j];
    if (t.type === 'ident' && toks[j + 1]?.type === 'lparen' && ctx.aggregates.has(t.value.toLowerCase())) {
      const close = matchingParen(toks, j + 1);
      const call = textOf(sql, toks, j, close + 1);
      let index = calls.indexOf(call);
      if (index === -1) index = calls.push(call) - 1;
      out += sql.slice(cursor, t.start) + `col_${index + 1}`;
      cursor = toks[close].end;
      j = close;
    }
  }
  return (out + sql.slice(cursor, toks[to - 1].end)).replace(/\s+/g, ' ').trim();
}

function selectItems(parsed: ParsedSql): SelectItem[] {
  const { toks, clauseOf, sql } = parsed;
  const idx = toks.map((_, i) => i).filter((i) => clauseOf[i] === 'SELECT');
  if (idx.length < 2) return [];
  const from = idx[0] + 1;
  const to = (idx.at(-1) as number) + 1;
  const start = isKw(toks[from], 'DISTINCT') ? from + 1 : from;
  return splitArgs(toks, start, to, 0).map(([a, b]) => {
    let alias: string | null = null;
    let end = b;
    const asTok = toks[b - 2];
    if (b - a >= 3 && isKw(asTok, 'AS')) {
      alias = toks[b - 1].value;
      end = b - 2;
    }
    return { from: a, to: end, expr: textOf(sql, toks, a, end), alias };
  });
}

function groupByKeys(parsed: ParsedSql): string[] {
  const { toks, clauseOf, sql, windowRange } = parsed;
  const idx = toks.map((_, i) => i).filter((i) => clauseOf[i] === 'GROUP');
  if (idx.length < 3) return [];
  return splitArgs(toks, idx[0] + 2, (idx.at(-1) as number) + 1, 0)
    .filter(([a]) => !windowRange || a !== windowRange[0])
    .map(([a, b]) => textOf(sql, toks, a, b));
}

/** Walks every identifier outside FROM; returns the top-level columns the query reads. */
function resolveIdentifiers(
  parsed: ParsedSql,
  ctx: PlanContext,
  aliases: Set<string>,
  columnNames: Set<string>,
): Set<string> {
  const { toks, clauseOf } = parsed;
  const used = new Set<string>();
  const qualifiers = new Set([ctx.stream, parsed.streamAlias].filter((x): x is string => !!x));
  const prefix = (i: number): string =>
    clauseOf[i] === 'WHERE'
      ? 'Failed to convert filter predicate to scalar expression: '
      : 'Failed to compile expression: ';

  for (let i = 0; i < toks.length; i += 1) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (clauseOf[i] === 'FROM' || (t.type !== 'ident' && t.type !== 'qident' && t.type !== 'op')) continue;

    if (t.type === 'op') {
      if (t.value === '||' || t.value === '->>' || t.value === '::') {
        throw new FakePlanError(`${prefix(i)}Unsupported operator: ${t.value}`);
      }
      continue;
    }
    if (prev?.type === 'dot') continue;
    if (prev?.type === 'op' && prev.value === '->') {
      checkStructField(parsed, ctx, i, prefix(i));
      continue;
    }
    if (isKw(prev, 'AS')) continue;
    if (t.type === 'ident') {
      const up = t.value.toUpperCase();
      if (['IS', 'LIKE', 'ILIKE', 'EXISTS', 'INTERVAL', 'EXTRACT'].includes(up)) {
        throw new FakePlanError(`${prefix(i)}Unsupported expression: ${up}`);
      }
      if (isKw(prev, 'NULLS') && (up === 'FIRST' || up === 'LAST')) continue;
      if (KEYWORDS.has(up)) continue;
      if (next?.type === 'lparen') {
        const name = t.value.toLowerCase();
        const known =
          (WINDOW_FUNCTIONS as readonly string[]).includes(name) ||
          (ctx.functions.has(name) && !(clauseOf[i] === 'WHERE' && ctx.aggregates.has(name)));
        if (!known) {
          const list = ctx.scalarNames.map((n) => `"${n}"`).join(', ');
          throw new FakePlanError(
            `${prefix(i)}Unsupported expression: Unknown function: '${t.value}'. Available custom functions: [${list}]`,
          );
        }
        continue;
      }
    }
    if (next?.type === 'dot') {
      const field = toks[i + 2];
      if (field?.type === 'op' && field.value === '*') continue;
      if (!qualifiers.has(t.value) || !field || !columnNames.has(field.value)) {
        throw new FakePlanError(`${prefix(i)}Column not found: ${t.value}.${field?.value ?? ''}`);
      }
      used.add(field.value);
      continue;
    }
    if (aliases.has(t.value) || qualifiers.has(t.value)) continue;
    if (!columnNames.has(t.value)) {
      // The engine's format string really lacks the closing quote (examples/error_unknown_column.txt).
      throw new FakePlanError(`${prefix(i)}Column not found: No schema bindings available for identifier '${t.value}`);
    }
    used.add(t.value);
  }
  return used;
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
