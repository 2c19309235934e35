import type { SyntaxRule } from '../port';
import { SQL_DATABASE_SYNTAX_RULES } from '../sql/sql-syntax-rules';

/**
 * Constructs DuckDB runs but this adapter refuses or cannot offer, and the ones worth confirming.
 * "Unsupported" here means "refused before the database": the safety check parses standard SQL
 * (PostgreSQL grammar) and rejects what it cannot read rather than trusting it unparsed.
 */
export const DUCKDB_SYNTAX_RULES: readonly SyntaxRule[] = [
  ...SQL_DATABASE_SYNTAX_RULES,
  {
    id: 'select.group_by_all',
    title: 'GROUP BY ALL',
    status: 'unsupported',
    notes: ['List the grouping columns or their positions: GROUP BY 1, 2.'],
  },
  {
    id: 'select.qualify',
    title: 'QUALIFY',
    status: 'unsupported',
    notes: ['Filter window results in an outer query: SELECT * FROM (…) WHERE rn = 1.'],
  },
  {
    id: 'select.star_exclude',
    title: 'SELECT * EXCLUDE / REPLACE',
    status: 'unsupported',
    notes: ['Name the columns you want.'],
  },
  {
    id: 'select.from_first',
    title: 'FROM-first queries',
    status: 'unsupported',
    notes: ['Start the query with SELECT (or WITH).'],
  },
  { id: 'select.sample', title: 'USING SAMPLE', status: 'unsupported', notes: ['Use ORDER BY … LIMIT n instead.'] },
  {
    id: 'source.files',
    title: 'Reading files or other databases',
    status: 'unsupported',
    notes: ['Only the tables of this database: read_csv, read_parquet, ATTACH and the like are disabled.'],
  },
];

/** DuckDB facts the model needs and the function catalog does not say. */
export function duckDbDialectNotes(options: { queryTimeoutMs: number; previewRows: number }): string[] {
  return [
    'This is DuckDB SQL over ordinary tables: each table plays the role of a stream, and joins between tables are allowed.',
    'Identifiers in double quotes ("device id"), unquoted names are case-insensitive; strings in single quotes.',
    "Time buckets: time_bucket(INTERVAL '10 seconds', ts) or date_trunc('minute', ts); GROUP BY the same expression or its position (GROUP BY 1).",
    "Intervals and timestamps: INTERVAL '10 seconds', INTERVAL '1 day', TIMESTAMP '2024-03-01 12:00:00', ts - INTERVAL '1 hour'; timestamps have no time zone.",
    "now() and current_date are today's date, which may be far from the data; use explicit dates or the data's own max(ts) for 'latest'.",
    "Parts of a timestamp: extract(hour FROM ts), date_part('dow', ts), strftime(ts, '%Y-%m-%d %H:%M').",
    'Casts: CAST(x AS DOUBLE) or x::DOUBLE. / divides as DOUBLE even for integers; // is integer division.',
    'Conditional aggregates: count(*) FILTER (WHERE temperature > 30), or sum(CASE WHEN … THEN 1 ELSE 0 END).',
    'round(x, 2) works on DOUBLE and DECIMAL; median(x) and quantile_cont(x, 0.9) are percentiles; arg_max(value, by) is the value at the maximum of by.',
    'ORDER BY … DESC NULLS LAST and LIMIT n work; use them for "top N" questions.',
    'Write standard SQL: GROUP BY ALL, QUALIFY, SELECT * EXCLUDE, FROM-first queries and USING SAMPLE are refused by the safety check.',
    "Inside a string write a quote as '' ('it''s'); a backslash before a quote is refused.",
    `Queries run read-only with a ${options.queryTimeoutMs} ms time limit; the preview shows the first ${options.previewRows} rows.`,
  ];
}
