import type { FunctionInfo } from '../port';

/**
 * The function catalogue of the SQL targets (shared by DuckDB and PostgreSQL): the database lists
 * thousands of functions and overloads, far too many for a prompt, so each adapter reads only the
 * names of its own list (`duckdb/function-names.ts`, `postgres/function-names.ts`) from its own
 * catalog (`duckdb_functions()`, `pg_proc`) and folds the overloads into one entry each. Names the
 * database does not have simply do not appear.
 */

/**
 * Functions both databases parse as SQL syntax rather than catalog entries (so neither catalog
 * lists them, or not under these names), yet drafts call them like functions; a catalog without
 * them would make a local check refuse perfectly good SQL.
 */
export const SYNTAX_FUNCTIONS: readonly FunctionInfo[] = [
  {
    name: 'coalesce',
    kind: 'scalar',
    aliases: [],
    signature: 'coalesce(value, values...)',
    description: 'The first argument that is not NULL.',
    contexts: [],
  },
  {
    name: 'nullif',
    kind: 'scalar',
    aliases: [],
    signature: 'nullif(a, b)',
    description: 'NULL when a equals b, otherwise a (e.g. to avoid division by zero).',
    contexts: [],
  },
  {
    name: 'greatest',
    kind: 'scalar',
    aliases: [],
    signature: 'greatest(values...)',
    description: 'The largest argument.',
    contexts: [],
  },
  {
    name: 'least',
    kind: 'scalar',
    aliases: [],
    signature: 'least(values...)',
    description: 'The smallest argument.',
    contexts: [],
  },
];

/** Ranking and offset functions; catalogs list them as aggregates, but they need `OVER (…)`. */
export const SQL_WINDOW_FUNCTIONS: readonly string[] = [
  'row_number',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'nth_value',
];
const WINDOW_ONLY: ReadonlySet<string> = new Set(SQL_WINDOW_FUNCTIONS);

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/i;

/** Catalogs describe window functions and a few syntax forms with nothing at all. */
const FALLBACK_DESCRIPTIONS: Record<string, string> = {
  row_number: 'Number of the row within its window partition, from 1; needs OVER (...).',
  rank: 'Rank within the window partition, with gaps after ties; needs OVER (... ORDER BY ...).',
  dense_rank: 'Rank within the window partition, without gaps; needs OVER (... ORDER BY ...).',
  percent_rank: 'Relative rank (rank - 1) / (rows - 1); needs OVER (... ORDER BY ...).',
  cume_dist: 'Cumulative distribution within the window partition; needs OVER (... ORDER BY ...).',
  ntile: 'Bucket number from 1 to buckets, dividing the partition evenly; needs OVER (...).',
  lag: 'Value of x offset rows before the current row in the partition; needs OVER (... ORDER BY ...).',
  lead: 'Value of x offset rows after the current row in the partition; needs OVER (... ORDER BY ...).',
  first_value: 'First value of x in the window frame; needs OVER (...).',
  last_value: 'Last value of x in the window frame; needs OVER (...).',
  nth_value: 'The n-th value of x in the window frame; needs OVER (...).',
  ...Object.fromEntries(SYNTAX_FUNCTIONS.map((f) => [f.name, f.description])),
  current_date: 'The current date.',
  today: 'The current date.',
  fmod: 'Remainder of x / y for floating-point numbers.',
  split_part: 'The position-th part of string split by delimiter, counting from 1.',
  json_extract: 'Extracts the JSON value at path (e.g. $.a.b) from json.',
  json_extract_string: 'Extracts the value at path (e.g. $.a.b) from json as text.',
  date_add: 'Adds an interval to a date or timestamp.',
};

/** One catalog row: a single overload of a function. */
export interface FunctionOverload {
  name: string;
  kind: 'scalar' | 'aggregate' | 'window';
  /** Parameter names, or types where the catalog has no names (PostgreSQL built-ins). */
  params: string[];
  variadic: boolean;
  description: string;
  /** The function this name is an alias of (DuckDB `alias_of`). */
  aliasOf?: string | null;
}

/**
 * Signatures that the overloads cannot express well (`count(*)`, ordered-set aggregates) or whose
 * catalog parameter names mislead (`strftime` lists both argument orders).
 */
const SIGNATURE_OVERRIDES: Record<string, string> = {
  count: 'count(*) | count(x) | count(DISTINCT x)',
  strftime: 'strftime(ts, format)',
  time_bucket: 'time_bucket(bucket_width, ts, [origin])',
  date_part: 'date_part(part, ts)',
  substring: 'substring(string, start, [length])',
  datepart: 'datepart(part, ts)',
  string_agg: 'string_agg(value, [separator])',
  json_extract: 'json_extract(json, path)',
  json_extract_string: 'json_extract_string(json, path)',
  lag: 'lag(x, [offset], [default])',
  lead: 'lead(x, [offset], [default])',
  first_value: 'first_value(x)',
  last_value: 'last_value(x)',
  nth_value: 'nth_value(x, n)',
  ntile: 'ntile(buckets)',
  // PostgreSQL also has hypothetical-set aggregates under these names; the window form is meant.
  rank: 'rank()',
  dense_rank: 'dense_rank()',
  percent_rank: 'percent_rank()',
  cume_dist: 'cume_dist()',
  percentile_cont: 'percentile_cont(fraction) WITHIN GROUP (ORDER BY x)',
  percentile_disc: 'percentile_disc(fraction) WITHIN GROUP (ORDER BY x)',
  mode: 'mode() WITHIN GROUP (ORDER BY x)',
  extract: 'extract(field FROM source)',
};

/**
 * Folds overloads into one {@link FunctionInfo} per function (aliases merged into the function
 * they alias), keeping only names in `wanted` (or whose alias target is wanted), sorted by name.
 */
export function foldOverloads(overloads: readonly FunctionOverload[], wanted: readonly string[]): FunctionInfo[] {
  const wantedSet = new Set(wanted);
  const groups = new Map<string, { overloads: FunctionOverload[]; aliases: Set<string> }>();
  for (const o of overloads) {
    // DuckDB records some functions as aliases of an operator (`abs` of `@`) or of an internal
    // name (`now` of `get_current_timestamp`); the name a query writes is the better headword.
    const canonical =
      o.aliasOf && o.aliasOf !== o.name && IDENTIFIER.test(o.aliasOf) && wantedSet.has(o.aliasOf) ? o.aliasOf : o.name;
    if (!wantedSet.has(canonical) && !wantedSet.has(o.name)) continue;
    const group = groups.get(canonical) ?? { overloads: [], aliases: new Set<string>() };
    groups.set(canonical, group);
    if (canonical === o.name) group.overloads.push(o);
    else group.aliases.add(o.name);
  }
  const out: FunctionInfo[] = [];
  for (const [name, group] of groups) {
    // An alias whose target row is absent from the catalog still describes the function.
    const rows = group.overloads.length > 0 ? group.overloads : overloads.filter((o) => o.aliasOf === name);
    if (rows.length === 0) continue;
    // PostgreSQL's `rank(…)` aggregate (hypothetical-set) must not describe the window `rank()`.
    const describing = WINDOW_ONLY.has(name) ? rows.filter((r) => r.kind === 'window') : rows;
    const kind = WINDOW_ONLY.has(name)
      ? 'window'
      : rows.some((r) => r.kind === 'aggregate')
        ? 'aggregate'
        : (rows[0]?.kind ?? 'scalar');
    out.push({
      name,
      kind,
      aliases: [...group.aliases].sort(),
      signature: SIGNATURE_OVERRIDES[name] ?? compactSignature(name, rows),
      description: shortDescription(
        describing.find((r) => r.description.trim() !== '')?.description ?? FALLBACK_DESCRIPTIONS[name] ?? '',
      ),
      contexts: [],
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** Adds {@link SYNTAX_FUNCTIONS} the catalog did not already report. */
export function withSyntaxFunctions(functions: FunctionInfo[]): FunctionInfo[] {
  const known = new Set(functions.flatMap((f) => [f.name, ...f.aliases]));
  const extra = SYNTAX_FUNCTIONS.filter((f) => !known.has(f.name)).map((f) => ({
    ...f,
    aliases: [...f.aliases],
    contexts: [...f.contexts],
  }));
  return [...functions, ...extra].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `round(x, [precision])`: parameter names from the longest overload, those beyond the shortest
 * overload's arity optional; a variadic function ends in `name...`.
 */
export function compactSignature(
  name: string,
  overloads: readonly Pick<FunctionOverload, 'params' | 'variadic'>[],
): string {
  if (overloads.length === 0) return `${name}()`;
  const minArity = Math.min(...overloads.map((o) => o.params.length));
  const longest = overloads.reduce((a, b) => (b.params.length > a.params.length ? b : a));
  const variadic = overloads.some((o) => o.variadic);
  const params = longest.params.map((p, i) => {
    const label = paramLabel(p, i, longest.params.length);
    if (variadic && i === longest.params.length - 1) return `${label}...`;
    return i < minArity ? label : `[${label}]`;
  });
  if (variadic && params.length === 0) params.push('values...');
  return `${name}(${params.join(', ')})`;
}

/** DuckDB names unnamed parameters `col0`, `col1`; `x` / `arg2` read better in a prompt. */
function paramLabel(param: string, index: number, count: number): string {
  if (/^col\d+$/.test(param) || param.trim() === '') return count === 1 ? 'x' : `arg${index + 1}`;
  return param;
}

/** The first sentence, capped, so a catalog of ~150 functions stays prompt-sized. */
function shortDescription(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(oneLine)?.[1] ?? oneLine;
  return sentence.length > 200 ? `${sentence.slice(0, 197)}...` : sentence;
}
