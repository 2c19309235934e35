import type { SyntaxRule } from '../port';

/** What both SQL databases offer a draft alike (the safety check reads the same standard SQL). */
export const SQL_DATABASE_SYNTAX_RULES: readonly SyntaxRule[] = [
  {
    id: 'statement.select_only',
    title: 'One SELECT statement',
    status: 'supported',
    notes: [
      'Exactly one SELECT (WITH … SELECT is fine); no INSERT/UPDATE/DELETE/DDL, no SELECT … INTO, no second statement.',
    ],
  },
  {
    id: 'select.join',
    title: 'Joins',
    status: 'supported',
    notes: ['INNER/LEFT/RIGHT/FULL/CROSS JOIN with ON or USING.'],
  },
  {
    id: 'select.cte',
    title: 'WITH (common table expressions)',
    status: 'supported',
    notes: ['A recursive CTE must finish within the time limit.'],
  },
  {
    id: 'select.window',
    title: 'Window functions (OVER)',
    status: 'supported',
    notes: ['row_number() OVER (PARTITION BY … ORDER BY …).'],
  },
  {
    id: 'select.filter',
    title: 'Aggregate FILTER',
    status: 'supported',
    notes: ['count(*) FILTER (WHERE temperature > 30).'],
  },
];

/** Keywords beyond the shared SELECT subset that DuckDB and PostgreSQL both teach (see `grammarKeywords`). */
export const SQL_DATABASE_KEYWORDS: readonly string[] = [
  'CROSS', 'FULL', 'EXISTS', 'ANY', 'ALL', 'SOME', 'UNION', 'INTERSECT', 'EXCEPT', 'ESCAPE',
  'QUARTER', 'DOW', 'DOY', 'CURRENT_DATE', 'CURRENT_TIMESTAMP', 'LOCALTIMESTAMP', 'SMALLINT',
]; // prettier-ignore
