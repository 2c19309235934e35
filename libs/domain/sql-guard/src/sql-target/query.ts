import { HARD_KEYWORDS, NON_FUNCTION_WORDS } from '../keywords';
import { isSymbol, isWord, type Token } from '../lexer';
import { endsOperand, isIdentifier, isStringPrefix, lowerWord, nameOf, type Structure } from '../structure';
import type { Grounding } from '../types';

/**
 * The analysis step of the DuckDB/PostgreSQL check, limited to what tokens can tell reliably:
 * the names the query defines itself (aliases, CTEs, lambda parameters, named windows), the tables
 * after FROM/JOIN, the functions called, and the names left over that can only be columns.
 * Unsupported syntax is not judged here: the database's own parser and EXPLAIN do that.
 */
export interface SqlTargetQuery {
  readonly toks: readonly Token[];
  readonly g: Grounding;
  readonly dialect: SqlTargetDialect;
  /** Names the query itself defines, lowercased. */
  readonly defined: ReadonlySet<string>;
  /** Table references by the name they are known by in the query (alias or table), lowercased. */
  readonly sources: ReadonlyMap<string, TableRef>;
  /** A CTE, subquery or table function supplies columns whose names the query derives. */
  readonly derivedSources: boolean;
  /** Every real table named after FROM or JOIN, in order. */
  readonly tables: readonly TableUse[];
  /** The first call of each function name, in order. */
  readonly calls: readonly { index: number; text: string; lower: string }[];
  /** Every name that can only be a column, in order. */
  readonly columnRefs: readonly ColumnRef[];
}

export interface SqlTargetDialect {
  label: string;
  fromFirst: boolean;
}

export interface TableRef {
  /** Name as written (possibly schema-qualified), or undefined for a subquery or table function. */
  table?: string;
  /** The last part of `table`, lowercased, for column lookups. */
  key?: string;
}

export interface TableUse {
  index: number;
  full: string;
  key: string;
  /** Defined by the query itself (a CTE of that name) when it was read. */
  derived: boolean;
}

/** A column name, bare or qualified by a table reference (`t.col`). */
export type ColumnRef =
  { kind: 'bare'; index: number; token: Token } | { kind: 'qualified'; index: number; token: Token; source?: TableRef };

/**
 * Words that follow a table reference in DuckDB or PostgreSQL without being its alias, and words of
 * special syntax inside functions (`TRIM(BOTH … FROM …)`, `BETWEEN SYMMETRIC`). Never columns.
 */
export const SQL_SOFT_WORDS: ReadonlySet<string> = new Set([
  'anti',
  'asof',
  'bernoulli',
  'both',
  'for',
  'isnull',
  'leading',
  'notnull',
  'placing',
  'positional',
  'repeatable',
  'reservoir',
  'sample',
  'semi',
  'symmetric',
  'asymmetric',
  'system',
  'tablesample',
  'to',
  'trailing',
  'uescape',
]);

/** Words after a table reference that start the next clause or join, so they are not its alias. */
const NOT_TABLE_ALIAS = new Set([...SQL_SOFT_WORDS, 'window', 'qualify', 'pivot', 'unpivot']);

export function analyzeSqlTarget(s: Structure, g: Grounding, dialect: SqlTargetDialect): SqlTargetQuery {
  const toks = s.toks;
  const n = toks.length;
  const consumed = new Set<number>();
  const defined = new Set<string>();
  const sources = new Map<string, TableRef>();
  const tables: TableUse[] = [];
  let derivedSources = false;

  const define = (i: number): void => {
    const t = toks[i];
    if (!t || !(t.kind === 'word' || t.kind === 'quoted')) return;
    defined.add(nameOf(t).toLowerCase());
    consumed.add(i);
  };
  const defineGroup = (open: number): number => {
    const close = s.partner[open] ?? -1;
    for (let j = open + 1; j < close; j++) if (isIdentifier(toks[j])) define(j);
    return close;
  };

  // ---- definitions ------------------------------------------------------------------------------
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (isIdentifier(t)) {
      // `name AS (` / `name AS [NOT] MATERIALIZED (`: a CTE or a named window.
      if (isWord(next, 'as') && (isSymbol(toks[i + 2], '(') || isWord(toks[i + 2], 'not', 'materialized'))) {
        define(i);
        derivedSources = true;
        continue;
      }
      // `name (a, b) AS (`: a CTE with a column list.
      if (
        isSymbol(next, '(') &&
        isWord(toks[(s.partner[i + 1] ?? -2) + 1], 'as') &&
        (isWord(prev, 'with', 'recursive') || isSymbol(prev, ','))
      ) {
        define(i);
        defineGroup(i + 1);
        derivedSources = true;
        continue;
      }
      // DuckDB lambdas: `x -> x + 1` (PostgreSQL's `col -> 'key'` has a literal on the right).
      if (
        isSymbol(next, '->') &&
        toks[i + 2]?.kind !== 'string' &&
        toks[i + 2]?.kind !== 'number' &&
        (isSymbol(prev, '(') || isSymbol(prev, ','))
      ) {
        define(i);
        continue;
      }
    }
    if (isSymbol(t, ')') && isSymbol(next, '->') && toks[i + 2]?.kind !== 'string') {
      const open = s.partner[i] ?? -1;
      const inside = toks.slice(open + 1, i);
      if (open >= 0 && inside.length > 0 && inside.every((x) => isIdentifier(x) || isSymbol(x, ','))) defineGroup(open);
    }
    if (isWord(t, 'lambda')) {
      for (let j = i + 1; j < n && !isSymbol(toks[j], ':'); j++) if (isIdentifier(toks[j])) define(j);
    }
    if (isWord(t, 'as') && isIdentifier(next)) {
      define(i + 1);
      if (isSymbol(toks[i + 2], '(')) defineGroup(i + 2);
      continue;
    }
    if (isWord(t, 'over', 'collate') && isIdentifier(next)) {
      consumed.add(i + 1);
      continue;
    }
    if (isSymbol(t, '::')) {
      // A type: `::int`, `::double precision`, `::varchar(10)`, `::int[]`.
      let j = i + 1;
      while (toks[j]?.kind === 'word' || toks[j]?.kind === 'quoted') consumed.add(j++);
      if (isSymbol(toks[j], '(')) j = (s.partner[j] ?? j) + 1;
      while (isSymbol(toks[j], '[') && isSymbol(toks[j + 1], ']')) j += 2;
      continue;
    }
    // An identifier right after an operand is an alias: `sum(a) total`, `FROM t x`, `g(x)`.
    if (isIdentifier(t) && endsOperand(prev) && !isStringPrefix(t, next)) {
      define(i);
      if (isSymbol(next, '(')) defineGroup(i + 1);
    }
  }

  // ---- FROM / JOIN sources ----------------------------------------------------------------------
  // Whether a SELECT precedes each token within its own bracket group, in one forward pass: a FROM
  // is a table FROM only then (not in `EXTRACT(x FROM y)`, `substring(s FROM 2)`).
  const selectBefore: boolean[] = [];
  const frames: boolean[] = [false];
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (isSymbol(t, ')') || isSymbol(t, ']') || isSymbol(t, '}')) {
      if (frames.length > 1) frames.pop();
    }
    selectBefore.push(frames[frames.length - 1] ?? false);
    if (isWord(t, 'select')) frames[frames.length - 1] = true;
    if (isSymbol(t, '(') || isSymbol(t, '[') || isSymbol(t, '{')) frames.push(false);
  }
  const isTableFrom = (i: number): boolean => {
    const prev = toks[i - 1];
    if (isWord(prev, 'distinct')) return false; // IS [NOT] DISTINCT FROM
    if (i === 0) return true; // DuckDB's FROM-first
    if (dialect.fromFirst && isSymbol(prev, '(') && !isIdentifier(toks[i - 2])) return true;
    return selectBefore[i] ?? false;
  };

  const parseAlias = (k: number, ref: TableRef): number => {
    let j = k;
    if (isWord(toks[j], 'as')) j++;
    const t = toks[j];
    if (isIdentifier(t) && !NOT_TABLE_ALIAS.has(lowerWord(t))) {
      sources.set(nameOf(t).toLowerCase(), ref);
      define(j);
      j++;
      if (isSymbol(toks[j], '(')) j = defineGroup(j) + 1;
    }
    return j;
  };

  const parseTableList = (start: number, allowComma: boolean): void => {
    let k = start;
    for (;;) {
      while (isWord(toks[k], 'lateral', 'only')) k++;
      const t = toks[k];
      if (!t) return;
      if (isSymbol(t, '(')) {
        derivedSources = true;
        k = parseAlias((s.partner[k] ?? k) + 1, {});
      } else if (isIdentifier(t)) {
        const parts = [k];
        while (isSymbol(toks[parts[parts.length - 1] + 1], '.') && isIdentifier(toks[parts[parts.length - 1] + 2])) {
          parts.push(parts[parts.length - 1] + 2);
        }
        const last = parts[parts.length - 1];
        for (let j = k; j <= last; j++) consumed.add(j);
        const full = parts.map((p) => nameOf(toks[p])).join('.');
        const key = nameOf(toks[last]).toLowerCase();
        if (isSymbol(toks[last + 1], '(')) {
          // A table function (`generate_series(1, 3)`, `unnest(x)`): checked as a function below.
          consumed.delete(last);
          derivedSources = true;
          k = parseAlias((s.partner[last + 1] ?? last + 1) + 1, {});
        } else {
          const ref: TableRef = { table: full, key };
          sources.set(key, ref);
          tables.push({ index: k, full, key, derived: defined.has(key) });
          k = parseAlias(last + 1, ref);
        }
      } else {
        return;
      }
      if (allowComma && isSymbol(toks[k], ',')) {
        k++;
        continue;
      }
      return;
    }
  };

  for (let i = 0; i < n; i++) {
    if (isWord(toks[i], 'from') && isTableFrom(i)) parseTableList(i + 1, true);
    else if (isWord(toks[i], 'join')) parseTableList(i + 1, false);
  }

  // ---- functions --------------------------------------------------------------------------------
  const calls: { index: number; text: string; lower: string }[] = [];
  const called = new Set<string>();
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.kind !== 'word' || !isSymbol(toks[i + 1], '(')) continue;
    const lower = t.text.toLowerCase();
    const prev = toks[i - 1];
    if (HARD_KEYWORDS.has(lower) || NON_FUNCTION_WORDS.has(lower) || consumed.has(i)) continue;
    if (isSymbol(prev, '.') || isSymbol(prev, '::') || isWord(prev, 'as') || endsOperand(prev)) continue;
    if (called.has(lower)) continue;
    called.add(lower);
    calls.push({ index: i, text: t.text, lower });
  }

  // ---- names that can only be columns -----------------------------------------------------------
  const columnRefs: ColumnRef[] = [];
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (!isIdentifier(t) || consumed.has(i)) continue;
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (isSymbol(next, '(')) continue;
    if (isSymbol(prev, '.') || isSymbol(prev, '->') || isSymbol(prev, '->>') || isSymbol(prev, '::')) continue;
    if (isWord(prev, 'as') || endsOperand(prev) || isStringPrefix(t, next)) continue;
    if (isSymbol(next, '.')) {
      const member = toks[i + 2];
      if (!member || !isIdentifier(member) || isSymbol(toks[i + 3], '.') || isSymbol(toks[i + 3], '(')) continue;
      consumed.add(i + 2);
      columnRefs.push({ kind: 'qualified', index: i + 2, token: member, source: sources.get(nameOf(t).toLowerCase()) });
      continue;
    }
    columnRefs.push({ kind: 'bare', index: i, token: t });
  }

  return { toks, g, dialect, defined, sources, derivedSources, tables, calls, columnRefs };
}
