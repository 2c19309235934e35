import type { SqlTargetRule } from '../rule';
import { unknownColumns } from './unknown-columns';
import { unknownFunctions } from './unknown-functions';
import { unknownTables } from './unknown-tables';

/** The DuckDB/PostgreSQL rules; findings are read back in the order of the query's text. */
export const SQL_TARGET_RULES: readonly SqlTargetRule[] = [unknownTables, unknownFunctions, unknownColumns];
