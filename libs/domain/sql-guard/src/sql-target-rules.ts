import type { Column } from '@nl2p/envelope';
import { HARD_KEYWORDS, NON_FUNCTION_WORDS, SOFT_KEYWORDS, SQL_SYNTAX_FUNCTIONS } from './keywords';
import { isSymbol, isWord, type Token } from './lexer';
import { endsOperand, isIdentifier, isStringPrefix, lowerWord, nameOf, type Structure } from './structure';
import { closeMatches, listNames } from './suggest';
import type { Grounding } from './types';
import type { Findings } from './veloflux-rules';

/**
 * Words that follow a table reference in DuckDB or PostgreSQL without being its alias, and words of
 * special syntax inside functions (`TRIM(BOTH … FROM …)`, `BETWEEN SYMMETRIC`). Never columns.
 */
const SQL_SOFT_WORDS = new Set([
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

interface TableRef {
  /** Name as written (possibly schema-qualified), or undefined for a subquery or table function. */
  table?: string;
  /** The last part of `table`, lowercased, for column lookups. */
  key?: string;
}

/**
 * Existence checks for DuckDB and PostgreSQL queries, limited to what a lexer can judge reliably:
 * table names after FROM/JOIN, columns that are neither aliases nor names derived inside the query,
 * and function names when a catalog is given. Unsupported syntax is left to the database's EXPLAIN.
 */
export function checkSqlTarget(
  s: Structure,
  g: Grounding,
  out: Findings,
  dialect: { label: string; fromFirst: boolean },
): void {
  const toks = s.toks;
  const n = toks.length;
  const consumed = new Set<number>();
  /** Names the query itself defines (aliases, CTEs, lambda parameters, named windows), lowercased. */
  const defined = new Set<string>();
  const refs = new Map<string, TableRef>();
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
  const knownTables = [...new Set([...g.streams, ...(g.stream ? [g.stream] : [])])];
  const knownLower = new Set(knownTables.map((x) => x.toLowerCase()));

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
      const alias = nameOf(t).toLowerCase();
      refs.set(alias, ref);
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
          refs.set(key, ref);
          if (
            knownTables.length > 0 &&
            !knownLower.has(full.toLowerCase()) &&
            !knownLower.has(key) &&
            !defined.has(key)
          ) {
            const close = closeMatches(full, knownTables);
            out.error(
              `unknown table '${full}'${close.length ? `; did you mean ${close.map((c) => `'${c}'`).join(' or ')}?` : ''}; known tables: ${listNames(knownTables)}`,
            );
          }
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
  const calledFunctions = new Set<string>();
  const functionNames = new Set<string>();
  for (const f of g.functions) for (const name of [f.name, ...(f.aliases ?? [])]) functionNames.add(name.toLowerCase());
  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (t.kind !== 'word' || !isSymbol(toks[i + 1], '(')) continue;
    const lower = t.text.toLowerCase();
    const prev = toks[i - 1];
    if (HARD_KEYWORDS.has(lower) || NON_FUNCTION_WORDS.has(lower) || consumed.has(i)) continue;
    if (isSymbol(prev, '.') || isSymbol(prev, '::') || isWord(prev, 'as') || endsOperand(prev)) continue;
    if (calledFunctions.has(lower)) continue; // reported once per name
    calledFunctions.add(lower);
    if (functionNames.size === 0 || SQL_SYNTAX_FUNCTIONS.has(lower) || functionNames.has(lower)) continue;
    const close = closeMatches(lower, functionNames);
    out.error(
      `unknown function '${t.text}'${close.length ? `; did you mean ${close.map((c) => `${c}()`).join(' or ')}?` : `; it is not a ${dialect.label} function in the catalog`}`,
    );
  }

  // ---- columns ----------------------------------------------------------------------------------
  const byTable = new Map<string, readonly Column[]>();
  for (const [table, cols] of Object.entries(g.columnsByTable ?? {})) byTable.set(table.toLowerCase(), cols);
  if (g.stream && g.columns.length > 0) byTable.set(g.stream.toLowerCase(), g.columns);
  const union: string[] = [];
  for (const cols of [g.columns, ...byTable.values()])
    for (const c of cols) if (!union.includes(c.name)) union.push(c.name);
  if (union.length === 0) return;
  const unionLower = new Set(union.map((c) => c.toLowerCase()));

  const reported = new Set<string>();
  const unknownColumn = (t: Token, candidates: readonly string[], where: string): void => {
    const name = nameOf(t);
    if (reported.has(`${t.kind}:${name}${where}`)) return;
    reported.add(`${t.kind}:${name}${where}`);
    const close = closeMatches(name, candidates);
    const quoteHint =
      t.kind === 'quoted'
        ? ` ("${name}" is an identifier because double quotes delimit names; write a string literal in single quotes: '${name}')`
        : '';
    out.error(
      `unknown column '${name}'${where}${quoteHint}${close.length ? `; did you mean ${close.map((c) => `'${c}'`).join(' or ')}?` : ''}; available columns: ${listNames(candidates)}`,
    );
  };

  for (let i = 0; i < n; i++) {
    const t = toks[i];
    if (!isIdentifier(t) || consumed.has(i)) continue;
    const prev = toks[i - 1];
    const next = toks[i + 1];
    if (isSymbol(next, '(')) continue;
    if (isSymbol(prev, '.') || isSymbol(prev, '->') || isSymbol(prev, '->>') || isSymbol(prev, '::')) continue;
    if (isWord(prev, 'as') || endsOperand(prev) || isStringPrefix(t, next)) continue;
    const lower = nameOf(t).toLowerCase();

    if (isSymbol(next, '.')) {
      const member = toks[i + 2];
      if (!member || !isIdentifier(member) || isSymbol(toks[i + 3], '.') || isSymbol(toks[i + 3], '(')) continue;
      consumed.add(i + 2);
      const ref = refs.get(lower);
      // Only a real table's columns are known; a CTE or subquery alias has derived columns.
      if (!ref?.key) continue;
      const cols = byTable.get(ref.key);
      const names = cols ? cols.map((c) => c.name) : union;
      if (!names.some((c) => c.toLowerCase() === nameOf(member).toLowerCase())) {
        unknownColumn(member, names, cols ? ` in table '${ref.table}'` : '');
      }
      continue;
    }

    if (unionLower.has(lower) || defined.has(lower) || refs.has(lower) || knownLower.has(lower)) continue;
    if (SOFT_KEYWORDS.has(lower) || SQL_SOFT_WORDS.has(lower)) continue;
    // A table function or an unaliased aggregate in a CTE/subquery names its column after itself.
    if (derivedSources && calledFunctions.has(lower)) continue;
    unknownColumn(t, union, '');
  }
}
