import type { SyntaxRule } from '../port';
import { SQL_DATABASE_SYNTAX_RULES } from '../sql/sql-syntax-rules';

/**
 * Constructs worth confirming or ruling out for PostgreSQL drafts. "Unsupported" means refused
 * before the database: the safety check reads standard SQL only and refuses the rest.
 */
export const POSTGRES_SYNTAX_RULES: readonly SyntaxRule[] = [
  ...SQL_DATABASE_SYNTAX_RULES,
  {
    id: 'select.locking',
    title: 'FOR UPDATE / FOR SHARE',
    status: 'unsupported',
    notes: ['Queries run read-only; leave locking clauses out.'],
  },
  { id: 'select.fetch_first', title: 'FETCH FIRST n ROWS', status: 'unsupported', notes: ['Use LIMIT n.'] },
];

/** PostgreSQL facts the model needs and the function catalog does not say. */
export function postgresDialectNotes(options: {
  schema: string;
  statementTimeoutMs: number;
  previewRows: number;
}): string[] {
  return [
    `This is PostgreSQL SQL over the tables of schema ${options.schema}: each table plays the role of a stream, and joins between tables are allowed.`,
    'Identifiers in double quotes ("Device"); unquoted names fold to lower case. Strings in single quotes.',
    "Time buckets: date_trunc('minute', ts) for calendar units; date_bin(INTERVAL '10 seconds', ts, TIMESTAMP '2000-01-01') for fixed widths (PostgreSQL 14+). GROUP BY the same expression or its position.",
    "Intervals and timestamps: INTERVAL '10 seconds', TIMESTAMP '2024-03-01 12:00:00', ts - INTERVAL '1 hour'; the demo timestamps have no time zone.",
    "now() and current_date are today's date, which may be far from the data; use explicit dates or the data's own max(ts) for 'latest'.",
    "Parts of a timestamp: extract(hour FROM ts), extract(epoch FROM ts); formatting: to_char(ts, 'YYYY-MM-DD HH24:MI').",
    'round(x, n) needs numeric: round(avg(temperature)::numeric, 2); round() of a double precision takes no digits.',
    'Integer / integer truncates: cast one side, e.g. sum(quantity)::numeric / count(*).',
    'Percentiles: percentile_cont(0.5) WITHIN GROUP (ORDER BY x); there is no median().',
    'Conditional aggregates: count(*) FILTER (WHERE temperature > 30), or sum(CASE WHEN … THEN 1 ELSE 0 END).',
    'ORDER BY … DESC NULLS LAST and LIMIT n work; use them for "top N" questions.',
    "Inside a string write a quote as '' ('it''s'); a backslash before a quote is refused.",
    `Queries run in a READ ONLY transaction with a ${options.statementTimeoutMs} ms statement timeout; the preview shows the first ${options.previewRows} rows.`,
  ];
}
