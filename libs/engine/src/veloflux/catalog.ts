import type { FunctionInfo, SyntaxRule } from '../port';
import type { FunctionArgSpec, FunctionDef, SyntaxConstruct } from '../manager-client';

/**
 * Compact signature for prompts: `round(x, [precision])`, `concat(a, b)`, `array_create(value...)`.
 * Variadic wins over optional because the server marks every variadic argument optional too.
 */
export function compactSignature(name: string, args: FunctionArgSpec[]): string {
  const parts = args.map((arg) => {
    if (arg.variadic) return `${arg.name}...`;
    if (arg.optional) return `[${arg.name}]`;
    return arg.name;
  });
  return `${name}(${parts.join(', ')})`;
}

/**
 * Maps `GET /functions` to the port's shape. The list carries `isnull` twice (two builders
 * register it); the first entry is the one `GET /functions/describe/isnull` returns.
 */
export function toFunctionInfos(defs: FunctionDef[]): FunctionInfo[] {
  const seen = new Set<string>();
  const out: FunctionInfo[] = [];
  for (const def of defs) {
    if (seen.has(def.name)) continue;
    seen.add(def.name);
    out.push({
      name: def.name,
      kind: def.kind,
      aliases: [...(def.aliases ?? [])],
      signature: compactSignature(def.name, def.signature?.args ?? []),
      description: def.description ?? '',
      contexts: [...(def.allowed_contexts ?? [])],
    });
  }
  return [...out, ...WINDOW_FUNCTIONS];
}

/**
 * Windows are parsed by the dialect, not registered as functions, so `GET /functions` never lists
 * them; without these entries a catalog-based check would reject every windowed query.
 */
const WINDOW_FUNCTIONS: FunctionInfo[] = [
  {
    name: 'tumblingwindow',
    kind: 'window',
    aliases: [],
    signature: "tumblingwindow('ss', length)",
    description: 'Fixed, non-overlapping time windows; only inside GROUP BY.',
    contexts: ['group_by'],
  },
  {
    name: 'slidingwindow',
    kind: 'window',
    aliases: [],
    signature: "slidingwindow('ss', lookback, [lookahead])",
    description: 'Each row opens a window [t-lookback, t+lookahead]; only inside GROUP BY.',
    contexts: ['group_by'],
  },
  {
    name: 'countwindow',
    kind: 'window',
    aliases: [],
    signature: 'countwindow(count)',
    description: 'A window every N rows; only inside GROUP BY.',
    contexts: ['group_by'],
  },
  {
    name: 'statewindow',
    kind: 'window',
    aliases: [],
    signature: 'statewindow(open_expr, emit_expr)',
    description:
      'Buffers from when open_expr is true until emit_expr is true; optional OVER (PARTITION BY k); only inside GROUP BY.',
    contexts: ['group_by'],
  },
];

/** Sentences for the catalog's snake_case constraint ids; unknown ids are humanized. */
const CONSTRAINT_TEXT: Record<string, string> = {
  exactly_one_statement: 'Exactly one SQL statement.',
  select_only: 'Only SELECT statements.',
  group_by_requires_aggregates: 'GROUP BY requires aggregate functions in SELECT.',
  at_most_one_window: 'At most one window per query.',
  having_requires_group_by_window: 'HAVING requires a window in GROUP BY.',
  having_must_reference_aggregates_only: 'HAVING may reference aggregates only, not raw columns.',
  order_by_nulls_first_last_unsupported: 'NULLS FIRST/LAST is not supported.',
  order_by_requires_aggregate_or_group_by_when_aggregated:
    'With aggregation, ORDER BY keys must be aggregates or GROUP BY keys.',
  order_by_disallow_stateful_when_aggregated: 'With aggregation, ORDER BY must not use stateful functions.',
  at_least_one_source_required: 'FROM must name a stream.',
  compound_identifier_max_two_parts: 'Qualified names have at most two parts (stream.column).',
  wildcard_only_in_projection_or_function_args: '* only in the projection or as a function argument, e.g. count(*).',
  literal_number_string_bool_null_only: "Literals: numbers, 'strings', true/false and NULL only.",
  json_access_arrow_only: 'Struct fields are read with -> only (a.b means stream.column).',
  field_access_right_must_be_identifier: 'The right side of -> must be a field name; write (a->b) > 1.',
  map_access_single_key_only: 'A list index takes a single key, e.g. a[0].',
  window_only_in_group_by: 'Windows are declared only inside GROUP BY.',
};

/** Corrections for catalog entries that contradict the engine's behaviour (CONTRACT §4, §7). */
const EXTRA_NOTES: Record<string, string[]> = {
  'window.tumbling': ["Only the 'ss' unit parses: tumblingwindow('ss', 10); 'mm'/'hh' fail."],
  'window.sliding': ["Only the 'ss' unit parses: slidingwindow('ss', 10[, 5]); 'mm'/'hh' fail."],
  // The catalog lists cast(x, 't'), but the recorded engine cannot call cast in any spelling.
  'expr.cast': [
    "Neither CAST(x AS t) nor cast(x, 't') compiles; use the column as it is typed (format(x) turns a number into a string).",
  ],
  'expr.unary.minus': ['Whether -x works end to end is unknown; write 0 - x.'],
};

/**
 * Flattens `GET /capabilities/syntax` into rules. Groups carry no status and are skipped, which
 * also resolves the id `window` that names both a group and its feature.
 */
export function toSyntaxRules(constructs: SyntaxConstruct[]): SyntaxRule[] {
  const rules: SyntaxRule[] = [];
  const seen = new Set<string>();
  const walk = (node: SyntaxConstruct): void => {
    if (node.type === 'feature' && node.status && !seen.has(node.id)) {
      seen.add(node.id);
      const notes = [
        ...(node.constraints ?? []).map(constraintText),
        ...(node.workarounds ?? []).map(fixWorkaround),
        ...(EXTRA_NOTES[node.id] ?? []),
      ];
      rules.push({ id: node.id, title: node.title, status: node.status, notes: [...new Set(notes)] });
    }
    for (const child of node.children ?? []) walk(child);
  };
  for (const node of constructs) walk(node);
  return rules;
}

function constraintText(id: string): string {
  const known = CONSTRAINT_TEXT[id];
  if (known) return known;
  const words = id.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

/** The ORDER BY workaround suggests `a IS NULL`, which the expression compiler rejects. */
function fixWorkaround(text: string): string {
  return text.replace(/`?(\w+) IS NULL`?/g, '`isnull($1)`');
}

/**
 * Dialect facts the catalog omits or gets wrong (CONTRACT §7), one line each, for the drafting
 * prompt and local prevalidation.
 */
export const VELOFLUX_DIALECT_NOTES: readonly string[] = [
  'Exactly one SELECT: SELECT items FROM stream [WHERE p] [GROUP BY [keys,] window] [HAVING p] [ORDER BY e].',
  "The only window time unit is 'ss': tumblingwindow('ss', 10), slidingwindow('ss', 10), countwindow(5), statewindow(open, emit).",
  'There is no hoppingwindow or sessionwindow.',
  'The window goes inside GROUP BY, at most one per query.',
  'Every non-aggregate SELECT item must appear verbatim in GROUP BY (the window does not count).',
  'HAVING works only with a window in GROUP BY and may reference aggregates only.',
  'No IS NULL / IS NOT NULL: use isnull(x) / NOT isnull(x).',
  'No LIKE / ILIKE: use regexp_matches(x, pattern), startswith(x, p) or endswith(x, p).',
  "No BETWEEN or IN (…) lists: both are accepted, then fail on every row when the pipeline runs; write x >= a AND x <= b, and x = 'a' OR x = 'b'.",
  'No || operator: use concat(a, b) (exactly two string arguments).',
  "No type conversion: CAST(x AS t) and cast(x, 't') both fail, whatever the spelling; use the column as it is typed (format(x) turns a number into a string, from_unix_time(s) epoch seconds into a timestamp).",
  'No INTERVAL, TIMESTAMP literals, subqueries, EXISTS or EXTRACT.',
  'No JOIN or multiple streams in FROM: the engine rejects them; a pipeline reads exactly one stream.',
  'With a window, WHERE is applied after the aggregation (once per window), not to each input row. To aggregate only the rows that meet a condition, write it inside each aggregate and drop the windows with no such row: avg(CASE WHEN c THEN x END), count(CASE WHEN c THEN 1 END), then HAVING count(CASE WHEN c THEN 1 END) > 0.',
  'FILTER (WHERE …) after an aggregate is ignored when the pipeline runs; write the condition inside the aggregate instead.',
  'count(DISTINCT x) fails when the pipeline runs; use ndv(x) for a distinct count.',
  'SELECT aliases col_1, col_2, … and __vf_* are reserved.',
  'LIMIT, OFFSET and DISTINCT are silently ignored.',
  'Parenthesize struct access in expressions: (a->b) > 1, because a->b > 1 parses as a->(b > 1).',
  'String literals use single quotes; double quotes and backticks delimit identifiers.',
  'Stream and column names are case-sensitive; never quote the stream name in FROM.',
  'A SELECT alias must not equal any input column name and cannot be used in GROUP BY or HAVING.',
  'Aggregates are not allowed in WHERE.',
];
