import type { TargetProfile } from '../targets';
import { SQL_DATABASE_KEYWORDS } from '../sql/sql-syntax-rules';
import { checkPostgresSelect } from './postgres-parser';
import { PostgresTarget } from './postgres-target';
import { postgresCompiler } from './compiler';

/**
 * PostgreSQL's wording (SQLSTATE 42703 / 42P01 / 42883 / 3F000): a column, a relation, a function
 * or a schema that does not exist.
 */
const UNKNOWN_NAME =
  /column .* does not exist|relation .* does not exist|function .* does not exist|schema .* does not exist|missing FROM-clause entry for table/i;

export const postgresProfile: TargetProfile = {
  kind: 'postgres',
  label: 'PostgreSQL',
  sourceNoun: 'table',
  streaming: false,
  configured: (config) => Boolean(config.postgres.url),
  locatedBy: 'POSTGRES_URL',
  enabledBy: 'POSTGRES_URL',
  instance: (config) => config.postgres.url ?? '',
  whereabouts: (config) => {
    const url = config.postgres.url ? new URL(config.postgres.url) : null;
    return url
      ? `${url.hostname}:${url.port || 5432}${url.pathname}, schema ${config.postgres.schema}`
      : 'not configured';
  },
  create: (config) => {
    if (!config.postgres.url) throw new Error('target postgres is not configured: set POSTGRES_URL');
    return new PostgresTarget({
      connectionString: config.postgres.url,
      schema: config.postgres.schema,
      previewRows: config.sqlTargets.previewRows,
      statementTimeoutMs: config.sqlTargets.queryTimeoutMs,
    });
  },
  readOnlyGuard: checkPostgresSelect,
  compiler: postgresCompiler,
  namesUnknownObject: (error) => UNKNOWN_NAME.test(error),
  grammarKeywords: [...SQL_DATABASE_KEYWORDS, 'AT', 'ZONE'],
};
