import type { Findings } from '../findings';
import type { SqlTargetQuery } from './query';

/** One DuckDB/PostgreSQL rule over the analysed query: a name the database does not have. */
export interface SqlTargetRule {
  /** The rule's file name: what it checks. */
  readonly id: string;
  check(q: SqlTargetQuery, out: Findings): void;
}
